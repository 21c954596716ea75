/**
 * Wire helpers for the DNS-rebinding, path-confusion and WebSocket-auth checks: one HTTP
 * request with a request target and headers sent exactly as given (no URL normalization on the
 * client side), and a WebSocket upgrade attempt whose answer is read without upgrading.
 */
import { request as httpRequest } from 'node:http';

/** What a server answered: the status, the headers and the body text. */
export interface WireAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/** An `initialize` request body, the first POST of every Streamable HTTP session. */
export const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'security-suite', version: '1.0.0' } },
});

/** The headers a Streamable HTTP POST carries. */
export const POST_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
});

/**
 * Sends one request to `127.0.0.1:port` with `target` as the request-target, verbatim
 * (`//evil.example/mcp`, `http://other.example/mcp`, …) and `headers` as given (including `Host`).
 */
export function sendRaw(port: number, method: string, target: string, headers: Record<string, string>, body?: string): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: target, headers, agent: false, setHost: false });
    req.on('response', (response) => {
      if (response.headers['content-type']?.startsWith('text/event-stream') === true) {
        // An open event stream: the status is the answer; the stream is not read.
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: '' });
        response.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Attempts a WebSocket upgrade (subprotocol `mcp`) and reports the status: 101 when the
 * server upgraded (the socket is then closed at once), else the refusal's status and headers.
 */
export function tryUpgrade(port: number, target: string, headers: Record<string, string>): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path: target,
      agent: false,
      setHost: false,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-protocol': 'mcp',
        ...headers,
      },
    });
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body: '' });
    });
    req.on('error', reject);
    req.end();
  });
}
