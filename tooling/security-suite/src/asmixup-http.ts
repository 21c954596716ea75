/**
 * Real HTTP servers on 127.0.0.1 for the authorization-server mix-up tests: each route answers
 * from a handler, and every request (method, path, query, headers, form or JSON body) is
 * recorded, so a test can say what reached which server and what did not.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a server saw it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw body text. */
  readonly body: string;
  /** The body as form parameters (empty unless it was a form). */
  readonly form: URLSearchParams;
}

/** What a route handler answers. */
export interface RouteAnswer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly json?: unknown;
  readonly text?: string;
}

export type RouteHandler = (request: RecordedRequest) => RouteAnswer | Promise<RouteAnswer>;

/** A listening recording server. */
export interface RecordingServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly origin: string;
  /** Every request, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Sets (or replaces) the handler of `METHOD /path`. */
  route(method: string, path: string, handler: RouteHandler): void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function answer(response: ServerResponse, reply: RouteAnswer): void {
  const headers: Record<string, string> = { ...reply.headers };
  let body = reply.text ?? '';
  if (reply.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(reply.json);
  }
  response.writeHead(reply.status ?? 200, headers).end(body);
}

/** Starts a recording server on 127.0.0.1 (port 0); unknown routes answer 404. */
export async function startRecordingServer(): Promise<RecordingServer> {
  const routes = new Map<string, RouteHandler>();
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const body = await readBody(request);
      const form = String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') ? new URLSearchParams(body) : new URLSearchParams();
      const recorded: RecordedRequest = { method: request.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: request.headers, body, form };
      requests.push(recorded);
      const handler = routes.get(`${recorded.method} ${recorded.path}`);
      answer(response, handler === undefined ? { status: 404, json: { error: 'not_found' } } : await handler(recorded));
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    route: (method, path, handler) => routes.set(`${method.toUpperCase()} ${path}`, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** True when `request` carries `secret` anywhere: a header, the query or the body. */
export function carries(request: RecordedRequest, secret: string): boolean {
  const basic = String(request.headers.authorization ?? '');
  const decoded = basic.startsWith('Basic ') ? Buffer.from(basic.slice(6), 'base64').toString('utf8') : '';
  const inHeaders = Object.values(request.headers).some((value) => String(value).includes(secret));
  return inHeaders || decoded.includes(encodeURIComponent(secret)) || decoded.includes(secret) || request.body.includes(secret) || request.query.toString().includes(secret);
}

/** Walks `error` and its `cause` chain for an error with `code`. */
export function findCause(error: unknown, code: string): (Error & Record<string, unknown>) | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 10; current = current.cause, depth++) {
    if ((current as { code?: unknown }).code === code) return current as Error & Record<string, unknown>;
  }
  return undefined;
}
