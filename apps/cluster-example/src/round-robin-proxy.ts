/**
 * A small round-robin HTTP proxy on 127.0.0.1: request n goes to target n mod N, with no sticky
 * sessions, so consecutive requests of one MCP session land on different instances. That is the
 * point of the example: the instances' shared state (the `cluster` relay over Redis) must make
 * any instance serve any request.
 *
 * It streams both ways (a request body reaches the target as it arrives; a response, SSE
 * included, reaches the client chunk by chunk, unbuffered), forwards every method (POST, GET,
 * DELETE, …) and every end-to-end header unchanged (`Host`, `Mcp-Session-Id`, `Last-Event-ID`,
 * `Authorization`), and drops only the hop-by-hop ones (RFC 9110 §7.6.1). A client that goes
 * away aborts the forwarded request; a target that cannot be reached is answered 502.
 *
 * ```
 *  client ──▶ proxy ──▶ instance[0]   request 1
 *                   ──▶ instance[1]   request 2
 *                   ──▶ instance[2]   request 3
 *                   ──▶ instance[0]   request 4 …
 * ```
 */
import { createServer, request as forward, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

/** Options of {@link startRoundRobinProxy}. */
export interface RoundRobinProxyOptions {
  /** The base URLs requests are spread over (scheme, host and port are used; the path is kept from the request). */
  readonly targets: readonly URL[];
  /** Port to listen on (default 0: a free port). */
  readonly port?: number;
  /** Called once per forwarded request with the index of the target chosen (tests, logs). */
  readonly onForward?: (target: number, request: ForwardedRequest) => void;
}

/** What {@link RoundRobinProxyOptions.onForward} learns of a forwarded request. */
export interface ForwardedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

/** A listening proxy. */
export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly url: URL;
  /** Stops accepting, ends open streams, resolves once closed. Idempotent. */
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1), never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = new Set((headers.connection ?? '').split(',').map((name) => name.trim().toLowerCase()));
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HOP_BY_HOP.has(name) && !named.has(name) && value !== undefined) kept[name] = value;
  }
  return kept;
}

function badGateway(response: ServerResponse, message: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(502, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message } }));
}

/** Starts the proxy on 127.0.0.1. */
export async function startRoundRobinProxy(options: RoundRobinProxyOptions): Promise<RoundRobinProxy> {
  if (options.targets.length === 0) throw new RangeError('a round-robin proxy needs at least one target');
  const targets = [...options.targets];
  let next = 0;

  const relay = (incoming: IncomingMessage, response: ServerResponse): void => {
    const index = next;
    next = (next + 1) % targets.length;
    const target = targets[index] as URL;
    const path = incoming.url ?? '/';
    const method = incoming.method ?? 'GET';
    options.onForward?.(index, { method, path, headers: incoming.headers });
    const outgoing = forward({ host: target.hostname, port: target.port, method, path, headers: endToEnd(incoming.headers) }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
      // Server-sent events must not wait in a buffer: send the head now, every chunk as it comes.
      response.flushHeaders();
      answer.pipe(response);
      answer.once('error', () => response.destroy());
      answer.once('aborted', () => response.destroy());
    });
    outgoing.once('error', (error) => badGateway(response, `proxy: target ${target.host} failed: ${error.message}`));
    // The client went away before the answer ended: abort the forwarded request too.
    response.once('close', () => {
      if (!response.writableFinished) outgoing.destroy();
    });
    incoming.pipe(outgoing);
  };

  const server = createServer(relay);
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: new URL(`http://127.0.0.1:${port}`),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
