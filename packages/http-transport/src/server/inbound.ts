/**
 * The two front doors' common view of one HTTP request, so a single core serves both the
 * node:http handler and the fetch-style handler. The node view reads headers and the body
 * straight from `IncomingMessage` (no web-stream round trip) and only builds a `Request`
 * when an `authenticate` hook asks for one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLoopbackAddress } from './host-guard.js';

/** Outcome of reading a request body under a size limit. */
export type BodyRead = { ok: true; text: string } | { ok: false; tooLarge: true } | { ok: false; tooLarge: false; reason: string };

export interface InboundRequest {
  readonly method: string;
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
  /** A header value by lower-case name; repeated headers joined with `, `. */
  header(name: string): string | undefined;
  /** All headers, lower-case names. */
  headerRecord(): Record<string, string>;
  /** Reads the whole body as UTF-8, refusing more than `limit` bytes. */
  readBody(limit: number): Promise<BodyRead>;
  /** True when the request arrived on a loopback address; `undefined` when unknown. */
  readonly loopbackBind: boolean | undefined;
  /** A web `Request` for hooks (headers and URL; the body is not included for node requests). */
  toRequest(): Request;
  /** Aborted when the client goes away before the answer was written. */
  readonly signal: AbortSignal | undefined;
}

const decoder = new TextDecoder();

function safeUrl(raw: string, host: string | undefined): URL {
  try {
    return new URL(raw, `http://${host ?? 'localhost'}`);
  } catch {
    return new URL(raw.startsWith('/') ? raw : '/', 'http://localhost');
  }
}

/** Wraps a fetch-API `Request`. The bind is unknown, so the Host guard treats it as loopback. */
export function fromFetchRequest(request: Request, loopbackBind?: boolean): InboundRequest {
  const url = safeUrl(request.url, undefined);
  return {
    method: request.method.toUpperCase(),
    pathname: url.pathname,
    searchParams: url.searchParams,
    // Runtimes build `request.url` from the Host header; use it when the header itself is absent.
    header: (name) => request.headers.get(name) ?? (name === 'host' ? url.host : undefined),
    headerRecord: () => {
      const record: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        record[name] = value;
      });
      return record;
    },
    readBody: async (limit) => {
      const declared = Number(request.headers.get('content-length') ?? Number.NaN);
      if (declared > limit) return { ok: false, tooLarge: true };
      if (request.body === null) return { ok: true, text: '' };
      const reader = request.body.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > limit) {
            await reader.cancel().catch(() => undefined);
            return { ok: false, tooLarge: true };
          }
          chunks.push(value);
        }
      } catch (error) {
        return { ok: false, tooLarge: false, reason: error instanceof Error ? error.message : String(error) };
      }
      const whole = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        whole.set(chunk, offset);
        offset += chunk.byteLength;
      }
      return { ok: true, text: decoder.decode(whole) };
    },
    loopbackBind,
    toRequest: () => request,
    signal: request.signal,
  };
}

function joinHeader(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Wraps a node:http request; `loopbackBind` comes from the socket's local address. */
export function fromNodeRequest(req: IncomingMessage, res?: ServerResponse): InboundRequest {
  let signal: AbortSignal | undefined;
  if (res !== undefined) {
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    signal = controller.signal;
  }
  const host = joinHeader(req.headers.host);
  const url = safeUrl(req.url ?? '/', undefined);
  let request: Request | undefined;
  const inbound: InboundRequest = {
    method: (req.method ?? 'GET').toUpperCase(),
    pathname: url.pathname,
    searchParams: url.searchParams,
    header: (name) => joinHeader(req.headers[name]),
    headerRecord: () => {
      const record: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        const joined = joinHeader(value);
        if (joined !== undefined) record[name] = joined;
      }
      return record;
    },
    readBody: (limit) => readNodeBody(req, limit),
    signal,
    loopbackBind: req.socket.localAddress === undefined ? undefined : isLoopbackAddress(req.socket.localAddress),
    toRequest: () => {
      if (request === undefined) {
        const headers = new Headers();
        for (const [name, value] of Object.entries(inbound.headerRecord())) {
          try {
            headers.set(name, value);
          } catch {
            // a header value the fetch API refuses; hooks simply do not see it
          }
        }
        request = new Request(safeUrl(req.url ?? '/', host), { method: inbound.method, headers });
      }
      return request;
    },
  };
  return inbound;
}

async function readNodeBody(req: IncomingMessage & { body?: unknown }, limit: number): Promise<BodyRead> {
  // A framework body parser (e.g. `express.json()`) may have consumed the stream already.
  if (req.body !== undefined && req.readableEnded) {
    const text = typeof req.body === 'string' ? req.body : Buffer.isBuffer(req.body) ? req.body.toString('utf8') : JSON.stringify(req.body);
    return Buffer.byteLength(text) > limit ? { ok: false, tooLarge: true } : { ok: true, text };
  }
  // Past the limit the rest is read and discarded (up to a bound), so the 413 reaches a
  // client that is still uploading instead of a connection reset.
  const drainLimit = limit * 4 + 1024 * 1024;
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > drainLimit) return { ok: false, tooLarge: true };
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > drainLimit) return { ok: false, tooLarge: true };
      if (size <= limit) chunks.push(chunk);
    }
  } catch (error) {
    return { ok: false, tooLarge: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (size > limit) return { ok: false, tooLarge: true };
  return { ok: true, text: Buffer.concat(chunks, size).toString('utf8') };
}

/**
 * Writes a web `Response` to a node:http `ServerResponse`, streaming its body. When the
 * client goes away first, the body is cancelled, which is how SSE connections learn about
 * disconnects.
 */
export async function writeNodeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (response.status === 413) res.setHeader('connection', 'close');
  const body = response.body;
  if (body === null) {
    res.end();
    return;
  }
  const reader = body.getReader();
  if (res.destroyed || res.socket?.destroyed === true) {
    // The client left while the answer was being prepared: `close` has already fired.
    await reader.cancel().catch(() => undefined);
    return;
  }
  let finished = false;
  const onClose = (): void => {
    if (!finished) void reader.cancel().catch(() => undefined);
  };
  res.once('close', onClose);
  if (response.headers.get('content-type')?.startsWith('text/event-stream') === true) res.flushHeaders();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const settle = (): void => {
            res.off('drain', settle);
            res.off('close', settle);
            resolve();
          };
          res.on('drain', settle);
          res.on('close', settle);
        });
      }
    }
  } catch {
    // the body errored or was cancelled: end what we can
  } finally {
    finished = true;
    res.off('close', onClose);
    if (!res.destroyed) res.end();
  }
}
