/**
 * A small WebSocket MCP server: listens on `host:port` (127.0.0.1 by default), checks every
 * upgrade request's `Host` and `Origin` like the HTTP transport does (DNS-rebinding
 * protection, on by default for loopback binds), negotiates the `mcp` subprotocol, and hands
 * each accepted socket to `connect` as a {@link WebSocketServerTransport}.
 *
 * The WebSocket transport is a statemcp convention, not part of the MCP specification.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

import { WebSocketServer } from 'ws';
import type WebSocket from 'ws';

import { createHostGuard, isLoopbackAddress, type HostGuardInput, type HostGuardOptions, type HostGuardResult } from '../server/host-guard.js';
import { DEFAULT_WEBSOCKET_MAX_PAYLOAD, MCP_WEBSOCKET_SUBPROTOCOL } from './websocket-channel.js';
import { WebSocketServerTransport, type WebSocketTransportOptions } from './websocket-transport.js';

/** Options of {@link createWebSocketServer}. */
export interface WebSocketServerOptions extends WebSocketTransportOptions {
  /** Port to listen on; 0 picks a free one. */
  port: number;
  /** Interface to bind. Default `127.0.0.1` (never all interfaces unless you ask). */
  host?: string;
  /** Only upgrades on this path are accepted. Default: any path. */
  path?: string;
  /** Called with each accepted connection's transport (connect a server session to it). */
  connect: (transport: WebSocketServerTransport, request: IncomingMessage) => void | Promise<void>;
  /**
   * Accepted `Host` values, as for the HTTP server: a bare name allows any port,
   * `name:port` that port only. Default on loopback binds: `localhost`, `127.0.0.1`, `[::1]`.
   */
  allowedHosts?: readonly string[];
  /**
   * Accepted `Origin` values, exact. A request without `Origin` (not a browser) is accepted.
   * Default: http(s) origins on an allowed host.
   */
  allowedOrigins?: readonly string[];
  /** Host/Origin validation: `'loopback'` (default), `true` (always) or `false` (never). */
  dnsRebindingProtection?: boolean | 'loopback';
  /** Largest accepted frame in bytes. Default 4 MiB. */
  maxPayload?: number;
}

/** A running {@link createWebSocketServer}. */
export interface WebSocketMcpServer {
  /** `ws://host:port/path` to connect to. */
  readonly url: string;
  /** The bound port (useful with `port: 0`). */
  readonly port: number;
  /** The underlying Node HTTP server. */
  readonly httpServer: Server;
  /** Transports of the connections currently open. */
  readonly connections: ReadonlySet<WebSocketServerTransport>;
  /** Closes every connection gracefully (bounded), then stops listening. */
  close(): Promise<void>;
}

/**
 * Why an upgrade request is refused, or `undefined` when it is acceptable: the HTTP
 * server's Host/Origin guard, then the subprotocol (a client that offers subprotocols must
 * offer `mcp`; one that offers none is accepted).
 */
export function checkUpgradeRequest(
  request: Pick<IncomingMessage, 'headers'> & { socket?: { localAddress?: string | undefined } },
  guard: (input: HostGuardInput) => HostGuardResult = createHostGuard(),
): { status: number; reason: string } | undefined {
  const origin = request.headers.origin;
  const verdict = guard({
    host: request.headers.host,
    origin,
    loopbackBind: request.socket?.localAddress === undefined ? undefined : isLoopbackAddress(request.socket.localAddress),
  });
  if (!verdict.ok) return { status: 403, reason: verdict.reason };
  const offered = request.headers['sec-websocket-protocol'];
  if (offered !== undefined) {
    const protocols = offered.split(',').map((item) => item.trim());
    if (!protocols.includes(MCP_WEBSOCKET_SUBPROTOCOL)) {
      return { status: 400, reason: `The ${MCP_WEBSOCKET_SUBPROTOCOL} subprotocol was not offered` };
    }
  }
  return undefined;
}

function refuse(socket: Duplex, status: number, reason: string): void {
  const statusText = status === 403 ? 'Forbidden' : status === 404 ? 'Not Found' : 'Bad Request';
  const body = `${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * Starts a WebSocket MCP server.
 *
 * @example
 * ```ts
 * import { McpServer } from '@statemcp/server';
 * import { createWebSocketServer } from '@statemcp/http-transport/ws';
 *
 * const wsServer = await createWebSocketServer({
 *   port: 3001,
 *   connect: async (transport) => {
 *     const server = new McpServer({ name: 'demo', version: '1.0.0' });
 *     await server.connect(transport);
 *   },
 * });
 * console.log(`listening on ${wsServer.url}`);
 * ```
 */
export async function createWebSocketServer(options: WebSocketServerOptions): Promise<WebSocketMcpServer> {
  const host = options.host ?? '127.0.0.1';
  const connections = new Set<WebSocketServerTransport>();
  const guardOptions: HostGuardOptions = {};
  if (options.allowedHosts !== undefined) guardOptions.allowedHosts = options.allowedHosts;
  if (options.allowedOrigins !== undefined) guardOptions.allowedOrigins = options.allowedOrigins;
  if (options.dnsRebindingProtection !== undefined) guardOptions.enabled = options.dnsRebindingProtection;
  const guard = createHostGuard(guardOptions);
  const transportOptions: WebSocketTransportOptions = {
    ...(options.closeTimeoutMs !== undefined && { closeTimeoutMs: options.closeTimeoutMs }),
    ...(options.clock !== undefined && { clock: options.clock }),
  };
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayload ?? DEFAULT_WEBSOCKET_MAX_PAYLOAD,
    handleProtocols: (protocols) => (protocols.has(MCP_WEBSOCKET_SUBPROTOCOL) ? MCP_WEBSOCKET_SUBPROTOCOL : false),
  });
  const httpServer = createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket', connection: 'Upgrade' });
    response.end('This endpoint speaks MCP over WebSocket (subprotocol "mcp").\n');
  });
  httpServer.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (options.path !== undefined) {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (path !== options.path) {
        refuse(socket, 404, `No MCP WebSocket endpoint at ${path}`);
        return;
      }
    }
    const refusal = checkUpgradeRequest(request, guard);
    if (refusal !== undefined) {
      refuse(socket, refusal.status, refusal.reason);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws: WebSocket) => {
      const transport = new WebSocketServerTransport(ws, { ...transportOptions, request });
      connections.add(transport);
      ws.once('close', () => connections.delete(transport));
      Promise.resolve()
        .then(() => options.connect(transport, request))
        .catch(() => {
          ws.close(1011, 'server failed to accept the connection');
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const address = httpServer.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `ws://${urlHost}:${address.port}${options.path ?? '/'}`,
    port: address.port,
    httpServer,
    connections,
    close() {
      closing ??= (async () => {
        await Promise.allSettled([...connections].map((transport) => transport.close()));
        wss.close();
        await new Promise<void>((resolve) => {
          httpServer.close(() => resolve());
          httpServer.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
