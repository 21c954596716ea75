/**
 * A deliberately small Streamable HTTP server on node:http for client integration tests:
 * sessions, JSON and SSE answers, a tool whose POST stream is cut after a priming event
 * (`retry: 500`, like the conformance suite's `sse-retry`), resumption by `Last-Event-ID`,
 * a standalone GET stream, DELETE, and a `forgetSessions()` switch that makes every known
 * session id answer 404. Optionally it plays a legacy HTTP+SSE server instead.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MiniServerLog {
  method: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  at: number;
}

interface PendingResume {
  readonly streamId: string;
  readonly response: unknown;
}

export interface MiniServer {
  readonly url: string;
  readonly port: number;
  readonly log: MiniServerLog[];
  readonly sessions: Set<string>;
  readonly deletes: string[];
  /** Time the cut POST stream was closed, per request id. */
  readonly cutAt: Map<unknown, number>;
  /** Open standalone GET responses. */
  readonly standalone: Set<ServerResponse>;
  forgetSessions(): void;
  notifyStandalone(message: unknown): void;
  close(): Promise<void>;
}

export interface MiniServerOptions {
  port?: number;
  /** Answer GET with 405 (no standalone stream). */
  noStandalone?: boolean;
  /** Behave as a legacy HTTP+SSE server (POST to the MCP URL → 405). */
  legacy?: boolean;
}

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text.length > 0 ? (JSON.parse(text) as unknown) : undefined);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    request.on('error', reject);
  });
}

function initializeResult(id: unknown, version: string): unknown {
  return { jsonrpc: '2.0', id, result: { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'mini', version: '1' } } };
}

export async function startMiniServer(options: MiniServerOptions = {}): Promise<MiniServer> {
  const log: MiniServerLog[] = [];
  const sessions = new Set<string>();
  const deletes: string[] = [];
  const cutAt = new Map<unknown, number>();
  const standalone = new Set<ServerResponse>();
  const resumable = new Map<string, PendingResume>();
  const legacyStreams = new Map<string, ServerResponse>();
  let eventCounter = 0;

  const handler = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const body = request.method === 'POST' ? await readBody(request) : undefined;
    log.push({ method: request.method ?? '', headers: request.headers, body, at: Date.now() });

    if (options.legacy === true) {
      if (url.pathname === '/mcp' && request.method === 'GET') {
        const id = randomUUID();
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        response.write(`event: endpoint\ndata: /messages?sessionId=${id}\n\n`);
        legacyStreams.set(id, response);
        request.on('close', () => legacyStreams.delete(id));
        return;
      }
      if (url.pathname === '/messages' && request.method === 'POST') {
        const stream = legacyStreams.get(url.searchParams.get('sessionId') ?? '');
        if (stream === undefined) {
          response.writeHead(404).end();
          return;
        }
        response.writeHead(202).end('Accepted');
        const message = body as { id?: unknown; method?: string };
        if (message.method === 'initialize') stream.write(`event: message\ndata: ${JSON.stringify(initializeResult(message.id, '2024-11-05'))}\n\n`);
        else if (message.id !== undefined && message.method !== undefined) {
          stream.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { legacy: true } })}\n\n`);
        }
        return;
      }
      response.writeHead(405).end();
      return;
    }

    const sessionId = request.headers['mcp-session-id'];
    if (request.method === 'DELETE') {
      if (typeof sessionId === 'string') {
        deletes.push(sessionId);
        sessions.delete(sessionId);
      }
      response.writeHead(200).end();
      return;
    }
    if (request.method === 'GET') {
      if (typeof sessionId !== 'string' || !sessions.has(sessionId)) {
        response.writeHead(typeof sessionId === 'string' ? 404 : 400).end();
        return;
      }
      const lastEventId = request.headers['last-event-id'];
      if (typeof lastEventId === 'string') {
        const pending = resumable.get(lastEventId.split(':')[0] ?? '');
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        if (pending !== undefined) {
          resumable.delete(pending.streamId);
          response.end(`id: ${pending.streamId}:${++eventCounter}\ndata: ${JSON.stringify(pending.response)}\n\n`);
        } else {
          response.end();
        }
        return;
      }
      if (options.noStandalone === true) {
        response.writeHead(405).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(': standalone\n\n');
      standalone.add(response);
      request.on('close', () => standalone.delete(response));
      return;
    }
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    const message = body as { id?: unknown; method?: string; params?: { name?: string; protocolVersion?: string } };
    if (message.method === 'initialize') {
      const id = randomUUID();
      sessions.add(id);
      response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': id });
      response.end(JSON.stringify(initializeResult(message.id, message.params?.protocolVersion ?? '2025-11-25')));
      return;
    }
    if (typeof sessionId !== 'string' || !sessions.has(sessionId)) {
      response.writeHead(typeof sessionId === 'string' ? 404 : 400).end();
      return;
    }
    if (message.id === undefined || message.method === undefined) {
      response.writeHead(202).end();
      return;
    }
    if (message.method === 'tools/call' && message.params?.name === 'test_reconnection') {
      const streamId = `s${++eventCounter}`;
      resumable.set(streamId, { streamId, response: { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'reconnected' }] } } });
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`id: ${streamId}:0\nretry: 500\ndata:\n\n`);
      setTimeout(() => {
        cutAt.set(message.id, Date.now());
        response.end();
      }, 20);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'ok' }] } }));
  };

  const server: Server = createServer((request, response) => {
    handler(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    log,
    sessions,
    deletes,
    cutAt,
    standalone,
    forgetSessions: () => sessions.clear(),
    notifyStandalone(message) {
      for (const response of standalone) response.write(`data: ${JSON.stringify(message)}\n\n`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of standalone) response.end();
        for (const response of legacyStreams.values()) response.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
