/**
 * A hostile MCP server for the client-buffering checks: a `node:http` server on 127.0.0.1 that
 * does the Streamable HTTP handshake properly (so a real `Client` connects), then answers every
 * other request with a body that never ends — an endless JSON document, an SSE event whose
 * line never ends, or an SSE event whose blank line never comes. It writes as fast as the
 * client reads, up to a safety cap, and records how much it wrote and whether the client cut
 * the connection.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server answers to a request other than the handshake. */
export type HostileBody =
  /** `200 application/json`: `{"jsonrpc":"2.0","id":…,"result":{"pad":"xxxx…` forever. */
  | 'json'
  /** `200 text/event-stream`: `data: xxxx…` forever, no line end. */
  | 'sse-line'
  /** `200 text/event-stream`: `data: x…\n` lines forever, never the blank line that ends the event. */
  | 'sse-event'
  /** `500 text/plain`: an error page that never ends. */
  | 'error-page';

/** One endless answer as the server saw it end. */
export interface EndlessAnswer {
  /** Bytes written before the client hung up (or the cap was reached). */
  readonly written: number;
  /** True when the client closed the connection before the cap. */
  readonly cutByClient: boolean;
}

export interface HostileServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Resolves with the first endless answer once it ended. */
  readonly firstAnswer: Promise<EndlessAnswer>;
  close(): Promise<void>;
}

/** The most one endless answer writes: far past every bound under test, so a client without one still ends. */
export const SAFETY_CAP_BYTES = 48 * 1024 * 1024;
const CHUNK = 64 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** Writes `head`, then `filler` chunks as fast as the peer reads, until it hangs up or the cap. */
export function writeEndless(res: ServerResponse, head: string, filler: string): Promise<EndlessAnswer> {
  return new Promise((resolve) => {
    let written = 0;
    let done = false;
    const finish = (cutByClient: boolean): void => {
      if (done) return;
      done = true;
      resolve({ written, cutByClient });
    };
    res.on('close', () => finish(!res.writableFinished));
    const pump = (): void => {
      while (!done && written < SAFETY_CAP_BYTES) {
        const chunk = written === 0 ? head : filler;
        written += Buffer.byteLength(chunk);
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!done) res.end(() => finish(false));
    };
    pump();
  });
}

const FILLER_X = 'x'.repeat(CHUNK);
const FILLER_LINES = 'data: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n'.repeat(CHUNK / 72);

/** Starts the server; `body` is what every request after the handshake gets. */
export async function startHostileServer(body: HostileBody, path = '/mcp'): Promise<HostileServer> {
  let first: ((answer: EndlessAnswer) => void) | undefined;
  const firstAnswer = new Promise<EndlessAnswer>((resolve) => (first = resolve));
  const report = (answer: Promise<EndlessAnswer>): void => {
    void answer.then((value) => {
      first?.(value);
      first = undefined;
    });
  };
  const server = createServer((req, res) => {
    void readBody(req).then((text) => {
      if (req.method === 'GET') {
        res.writeHead(405).end();
        return;
      }
      if (req.method === 'DELETE') {
        res.writeHead(200).end();
        return;
      }
      const message = text === '' ? {} : (JSON.parse(text) as { id?: unknown; method?: string; params?: { protocolVersion?: string } });
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (message.method === 'initialize') {
        const result = { protocolVersion: message.params?.protocolVersion ?? '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1' } };
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'hostile-session' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
        return;
      }
      if (message.method !== 'tools/call' && message.method !== 'ping') {
        // Anything else of the handshake era choice (server/discover): not offered.
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }));
        return;
      }
      report(answerEndless(res, body, JSON.stringify(message.id)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    firstAnswer,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}

function answerEndless(res: ServerResponse, body: HostileBody, id: string): Promise<EndlessAnswer> {
  switch (body) {
    case 'json':
      res.writeHead(200, { 'content-type': 'application/json' });
      return writeEndless(res, `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`, FILLER_X);
    case 'sse-line':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return writeEndless(res, 'data: ', FILLER_X);
    case 'sse-event':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return writeEndless(res, 'event: message\n', FILLER_LINES);
    case 'error-page':
      res.writeHead(500, { 'content-type': 'text/plain' });
      return writeEndless(res, 'Internal error: ', FILLER_X);
  }
}
