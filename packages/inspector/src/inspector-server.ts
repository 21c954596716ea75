/**
 * The inspector endpoint: a small loopback HTTP server that serves the page and streams the
 * `inspect` events of every statemcp session in this process to it over WebSocket.
 *
 *     browser ── GET /?token=… ──────────────▶ page (HTML, app.js, style.css)
 *     browser ── WS /events?token=… ─────────▶ hello (machine graphs) → history → live batches
 *     browser ◀─ { type: 'command' } ─────────  tools/list, tools/call, … (only with `commands`)
 *
 * A viewer never slows the MCP traffic: an event reaches the feed as a small summary record,
 * batches are serialized once for every viewer and sent as one frame per flush, and a viewer
 * whose socket buffer is over `maxViewerBufferBytes` skips batches (counted and reported to it)
 * instead of queueing them. With no viewer connected nothing is sent (and with
 * `historyBytes: 0` the feed does not even listen, so sessions skip building events).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { checkAccess, createAccessToken, hostsFor, isLoopbackHost } from './access.js';
import { EventFeed, type EventFeedOptions, type FeedBatch } from './event-feed.js';
import { connectionGraph, requestGraph, taskGraph } from './machine-graph.js';
import { loadPage, type PageAssets } from './page-assets.js';

/** The methods the page may ask the inspected client to run. */
export const INSPECTOR_COMMAND_METHODS = Object.freeze([
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
] as const);

/** The MCP methods the page may ask the inspecting client to call. */
export type InspectorCommandMethod = (typeof INSPECTOR_COMMAND_METHODS)[number];

/** Runs a command the page asked for; its result (or error message) goes back to that page. */
export type InspectorCommandHandler = (method: InspectorCommandMethod, params: Record<string, unknown>) => Promise<unknown>;

export interface InspectorOptions extends EventFeedOptions {
  /** Address to bind. Default `127.0.0.1`; anything but loopback needs `allowRemote`. */
  readonly host?: string;
  /** Port to bind; `0` (the default) picks a free one. */
  readonly port?: number;
  /** Allows a non-loopback `host`. The token still guards every request. */
  readonly allowRemote?: boolean;
  /** For a remote bind: the `host:port` values the Host header may carry (default: any). */
  readonly allowedHosts?: readonly string[];
  /** The access token; a random 32-byte one by default. */
  readonly token?: string;
  /** A viewer whose socket holds more than this many unsent bytes skips batches. Default 1 MiB. */
  readonly maxViewerBufferBytes?: number;
  /** Viewers at once; more are refused with 503. Default 8. */
  readonly maxViewers?: number;
  /** Shown in the page's title bar. */
  readonly title?: string;
  /** Lets the page list and call tools, read resources and get prompts through a client. */
  readonly commands?: InspectorCommandHandler;
}

/** A running inspector endpoint. */
export interface Inspector {
  /** The page's address with the token, e.g. `http://127.0.0.1:43117/?token=…`. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Viewers connected now. */
  readonly viewerCount: number;
  /** Closes every viewer and the server, and stops listening to the sessions. Idempotent. */
  close(): Promise<void>;
}

interface Viewer {
  readonly socket: WebSocket;
  skipped: number;
}

/**
 * Starts an inspector endpoint for this process and resolves once it listens.
 *
 * @example
 * ```ts
 * import { startInspector } from '@statemcp/inspector';
 * const inspector = await startInspector();
 * console.log(`inspector: ${inspector.url}`);
 * // … create statemcp clients and servers as usual; every session shows up on the page …
 * await inspector.close();
 * ```
 */
export async function startInspector(options: InspectorOptions = {}): Promise<Inspector> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && options.allowRemote !== true) {
    throw new RangeError(`The inspector binds to loopback only; pass allowRemote: true to bind ${host} (every MCP message in the process would be visible to anyone holding the token)`);
  }
  const token = options.token ?? createAccessToken();
  const maxBuffer = options.maxViewerBufferBytes ?? 1024 * 1024;
  const maxViewers = options.maxViewers ?? 8;
  const feed = new EventFeed(options);
  const viewers = new Set<Viewer>();
  // Nothing is let in until the port is known; then the Host header must name this inspector.
  const access: { hosts: ReadonlySet<string> | undefined } = { hosts: new Set() };

  const http = createServer((request, response) => void serveHttp(request, response, { token, allowedHosts: () => access.hosts }));
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });

  http.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://inspector');
    const verdict = checkAccess({ host: request.headers.host, origin: request.headers.origin, token: url.searchParams.get('token') }, token, access.hosts);
    const refusal = url.pathname !== '/events' ? '404 Not Found' : !verdict.ok ? (verdict.status === 401 ? '401 Unauthorized' : '403 Forbidden') : viewers.size >= maxViewers ? '503 Service Unavailable' : undefined;
    if (refusal !== undefined) {
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => addViewer(ws));
  });

  let stopDelivery: (() => void) | undefined;
  const deliver = (batch: FeedBatch): void => {
    let shared: string | undefined;
    for (const viewer of viewers) {
      if (viewer.socket.bufferedAmount > maxBuffer) {
        viewer.skipped += batch.count;
        continue;
      }
      if (viewer.skipped === 0) {
        shared ??= eventsFrame(batch, 0);
        send(viewer, shared);
      } else {
        send(viewer, eventsFrame(batch, viewer.skipped));
        viewer.skipped = 0;
      }
    }
  };

  const addViewer = (socket: WebSocket): void => {
    const viewer: Viewer = { socket, skipped: 0 };
    viewers.add(viewer);
    stopDelivery ??= feed.onBatch(deliver);
    socket.on('close', () => {
      viewers.delete(viewer);
      if (viewers.size > 0) return;
      // Nobody watches: the feed keeps only its history (or, without one, stops listening).
      stopDelivery?.();
      stopDelivery = undefined;
    });
    socket.on('error', () => socket.terminate());
    socket.on('message', (data) => void runCommand(viewer, rawText(data), options.commands));
    send(viewer, JSON.stringify({ type: 'hello', title: options.title ?? 'statemcp', connection: connectionGraph(), request: requestGraph(), task: taskGraph(), commands: options.commands === undefined ? [] : INSPECTOR_COMMAND_METHODS }));
    for (const batch of feed.historyBatches()) send(viewer, eventsFrame(batch, 0));
  };

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  access.hosts = isLoopbackHost(host) ? hostsFor(host, port) : options.allowedHosts === undefined ? undefined : new Set(options.allowedHosts.map((name) => name.toLowerCase()));
  feed.start();

  const urlHost = isLoopbackHost(host) || !host.includes(':') ? (host === '::1' ? '[::1]' : host) : `[${host}]`;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}/?token=${encodeURIComponent(token)}`,
    port,
    token,
    get viewerCount() {
      return viewers.size;
    },
    close() {
      closing ??= closeAll(http, wss, feed, viewers);
      return closing;
    },
  };
}

/** A WebSocket message as text, whatever shape `ws` delivered it in. */
export function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

function eventsFrame(batch: FeedBatch, skipped: number): string {
  return `{"type":"events","dropped":${batch.dropped + skipped},"events":[${batch.json}]}`;
}

function send(viewer: Viewer, frame: string): void {
  if (viewer.socket.readyState !== viewer.socket.OPEN) return;
  viewer.socket.send(frame, (error) => {
    if (error !== undefined && error !== null) viewer.socket.terminate();
  });
}

async function runCommand(viewer: Viewer, text: string, commands: InspectorCommandHandler | undefined): Promise<void> {
  let id: unknown;
  try {
    const message = JSON.parse(text) as { type?: unknown; id?: unknown; method?: unknown; params?: unknown };
    id = message.id;
    if (message.type !== 'command') throw new TypeError('Expected a message of type "command"');
    if (commands === undefined) throw new TypeError('This inspector has no client to run commands with');
    const method = message.method as InspectorCommandMethod;
    if (!INSPECTOR_COMMAND_METHODS.includes(method)) throw new TypeError(`Unknown command: ${String(message.method)}`);
    const params = typeof message.params === 'object' && message.params !== null && !Array.isArray(message.params) ? (message.params as Record<string, unknown>) : {};
    const result = await commands(method, params);
    send(viewer, JSON.stringify({ type: 'commandResult', id, result }));
  } catch (error) {
    send(viewer, JSON.stringify({ type: 'commandResult', id, error: error instanceof Error ? error.message : String(error) }));
  }
}

interface HttpContext {
  readonly token: string;
  readonly allowedHosts: () => ReadonlySet<string> | undefined;
}

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
} as const;

async function serveHttp(request: IncomingMessage, response: ServerResponse, context: HttpContext): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://inspector');
  let page: PageAssets;
  try {
    page = await loadPage();
  } catch (error) {
    response.writeHead(500, { ...SECURITY_HEADERS, 'content-type': 'text/plain' }).end(`The inspector page files are missing: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  const asset = page.byPath.get(url.pathname);
  if (request.method !== 'GET' || asset === undefined) {
    response.writeHead(request.method === 'GET' ? 404 : 405, { ...SECURITY_HEADERS, 'content-type': 'text/plain' }).end(request.method === 'GET' ? 'Not found' : 'Method not allowed');
    return;
  }
  // The page itself needs the token; its script and style are static files with no data in them.
  const verdict = checkAccess({ host: request.headers.host, origin: request.headers.origin, token: asset.needsToken ? url.searchParams.get('token') : context.token }, context.token, context.allowedHosts());
  if (!verdict.ok) {
    response.writeHead(verdict.status, { ...SECURITY_HEADERS, 'content-type': 'text/plain' }).end(verdict.reason);
    return;
  }
  const host = request.headers.host ?? '';
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': asset.contentType,
    'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws://${host}`,
  });
  response.end(asset.body);
}

async function closeAll(http: Server, wss: WebSocketServer, feed: EventFeed, viewers: Set<Viewer>): Promise<void> {
  feed.stop();
  for (const viewer of viewers) viewer.socket.close(1001, 'inspector closing');
  const deadline = setTimeout(() => {
    for (const viewer of viewers) viewer.socket.terminate();
  }, 1000);
  deadline.unref();
  const httpClosed = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeAllConnections();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
  await httpClosed;
  clearTimeout(deadline);
}
