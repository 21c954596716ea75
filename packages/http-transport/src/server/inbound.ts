/**
 * The two front doors' common view of one HTTP request, so a single core serves both the
 * node:http handler and the fetch-style handler. The node view reads headers and the body
 * straight from `IncomingMessage` (no web-stream round trip) and only builds a `Request`
 * when an `authenticate` hook asks for one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRequestInfo, InboundContext } from '@statemcp/protocol';
import { isLoopbackAddress } from './host-guard.js';
import { unreadBodyText } from './http-response.js';
import { readRequestTarget, type RequestTarget } from './request-target.js';
import type { HandleRequestOptions } from './server-options.js';

/**
 * The context every message of one HTTP request reaches its handlers with: the request's
 * headers and `http` view (both built on first read: most handlers never look at them), the
 * caller's auth info and the session's id.
 */
export function inboundContextOf(inbound: InboundRequest, authInfo: unknown, sessionId: string | undefined): InboundContext {
  return new HttpInboundContext(inbound, authInfo, sessionId);
}

/** {@link inboundContextOf}'s context: a class, so its two getters are built once, not per request. */
class HttpInboundContext implements InboundContext {
  declare authInfo?: unknown;
  declare sessionId?: string;
  readonly #inbound: InboundRequest;

  constructor(inbound: InboundRequest, authInfo: unknown, sessionId: string | undefined) {
    this.#inbound = inbound;
    if (authInfo !== undefined) this.authInfo = authInfo;
    if (sessionId !== undefined) this.sessionId = sessionId;
  }

  get headers(): Readonly<Record<string, string>> {
    return this.#inbound.headerRecord();
  }

  get http(): HttpRequestInfo {
    return this.#inbound.requestInfo();
  }
}

/**
 * Outcome of reading a request body under a size limit: its text, or the JSON value a
 * framework's body parser already produced (`parsed`).
 */
export type BodyRead =
  | { ok: true; text: string }
  | { ok: true; parsed: unknown }
  | { ok: false; tooLarge: true }
  | { ok: false; tooLarge: false; reason: string };

export interface InboundRequest {
  readonly method: string;
  /** The request-target's path, verbatim (`//x/mcp` is not `/mcp`); `''` when the target is refused. */
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
  /** Why the request-target is refused (answered 400), or `undefined` when it was read. */
  readonly targetRefusal: string | undefined;
  /** The address the request arrived on, when known. */
  readonly localAddress: string | undefined;
  /** A header value by lower-case name; repeated headers joined with `, `. */
  header(name: string): string | undefined;
  /** All headers, lower-case names (built once, frozen). */
  headerRecord(): Readonly<Record<string, string>>;
  /** The lower-case names of the headers present, without building {@link headerRecord}. */
  headerNames(): Iterable<string>;
  /** Reads the whole body as UTF-8, refusing more than `limit` bytes. */
  readBody(limit: number): Promise<BodyRead>;
  /** True when the request arrived on a loopback address; `undefined` when unknown. */
  readonly loopbackBind: boolean | undefined;
  /** A web `Request` for hooks (headers and URL; the body is not included for node requests). */
  toRequest(): Request;
  /** The read-only view handlers get as `context.http` (built once, frozen). */
  requestInfo(): HttpRequestInfo;
  /** Aborted when the client goes away before the answer was written. */
  readonly signal: AbortSignal | undefined;
  /**
   * Calls `listener` once if the client goes away before the answer was written: what
   * {@link signal} tells, without an AbortController per request.
   */
  onClientGone(listener: () => void): void;
}

/** The options of a request handled without any: one shared object, not a literal per request. */
const NO_REQUEST_OPTIONS: HandleRequestOptions = Object.freeze({});

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The parts of a read target, with a refused one standing for no path at all. */
function partsOf(target: RequestTarget): { pathname: string; search: string } {
  return target.ok ? target : { pathname: '', search: '' };
}

/**
 * The absolute URL hooks and handlers see: the `Host` header's authority (`localhost` when it
 * has none that parses) joined to the path as a string, so a path such as `//x/y` stays a path.
 */
function absoluteUrl(host: string | undefined, pathname: string, search: string): URL {
  return new URL(`${host === undefined ? 'http://localhost' : originOf(host)}${pathname === '' ? '/' : pathname}${search}`);
}

/** The last `Host` header {@link originOf} parsed and its origin: a client sends the same one on every request. */
let lastHost: { readonly host: string; readonly origin: string } | undefined;

/** The origin of a `Host` header's authority, `http://localhost` when it has none that parses; one URL parse per new header. */
function originOf(host: string): string {
  if (lastHost?.host === host) return lastHost.origin;
  let origin = 'http://localhost';
  try {
    const url = new URL(`http://${host.trim()}`);
    if (url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '') origin = url.origin;
  } catch {
    // not an authority: keep localhost
  }
  lastHost = { host, origin };
  return origin;
}

/** Builds a frozen {@link HttpRequestInfo}. */
function freezeRequestInfo(method: string, url: string, headers: Readonly<Record<string, string>>, remoteAddress: string | undefined): HttpRequestInfo {
  return Object.freeze({ method, url, headers, remoteAddress });
}

/**
 * A body a framework parsed before the request reached us (`express.json()`, Fastify's or
 * Hono's parser): text and bytes are read as the body; any other value is the parsed JSON,
 * measured against the limit by its declared `Content-Length` (or, without one, its JSON size).
 */
export function preParsedBody(body: unknown, declaredLength: string | null | undefined, limit: number): BodyRead {
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const bytes = typeof body === 'string' ? encoder.encode(body) : body;
    return bytes.byteLength > limit ? { ok: false, tooLarge: true } : { ok: true, text: decoder.decode(bytes) };
  }
  const declared = Number(declaredLength ?? Number.NaN);
  const size = Number.isFinite(declared) ? declared : encoder.encode(JSON.stringify(body) ?? '').byteLength;
  return size > limit ? { ok: false, tooLarge: true } : { ok: true, parsed: body };
}

/**
 * Wraps a fetch-API `Request`. Without `localAddress` the bind is unknown, so the Host guard
 * treats it as loopback.
 */
export function fromFetchRequest(request: Request, options: HandleRequestOptions = NO_REQUEST_OPTIONS): InboundRequest {
  // The runtime built `request.url` from the wire (its authority from `Host`); a fragment never travels.
  const target = readRequestTarget(request.url.split('#')[0] ?? '', undefined);
  const { pathname, search } = partsOf(target);
  let url: URL | undefined;
  let headers: Readonly<Record<string, string>> | undefined;
  let info: HttpRequestInfo | undefined;
  const inbound: InboundRequest = {
    method: request.method.toUpperCase(),
    pathname,
    searchParams: new URLSearchParams(search),
    targetRefusal: target.ok ? undefined : target.reason,
    localAddress: options.localAddress,
    // Runtimes build `request.url` from the Host header; use it when the header itself is absent.
    header: (name) => request.headers.get(name) ?? (name === 'host' ? (url ??= new URL(request.url)).host : undefined),
    headerRecord: () => {
      if (headers === undefined) {
        // Header names are the client's: no prototype, so `constructor` is a header or nothing.
        const record = Object.create(null) as Record<string, string>;
        request.headers.forEach((value, name) => {
          record[name] = value;
        });
        headers = Object.freeze(record);
      }
      return headers;
    },
    headerNames: () => request.headers.keys(),
    readBody: async (limit) => {
      if (options.parsedBody !== undefined) return preParsedBody(options.parsedBody, request.headers.get('content-length'), limit);
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
    loopbackBind: options.localAddress === undefined ? undefined : isLoopbackAddress(options.localAddress),
    toRequest: () => request,
    requestInfo: () => (info ??= freezeRequestInfo(inbound.method, request.url, inbound.headerRecord(), options.remoteAddress)),
    signal: request.signal,
    onClientGone: (listener) => request.signal.addEventListener('abort', listener, { once: true }),
  };
  return inbound;
}

function joinHeader(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Wraps a node:http request; `loopbackBind` comes from the socket's local address. The path
 * is the request's `originalUrl` when a framework set one (Express strips a mount prefix from
 * `url`), so the `path` option and the legacy SSE routes see the full path.
 */
export function fromNodeRequest(req: IncomingMessage & { originalUrl?: unknown }, res?: ServerResponse, options: HandleRequestOptions = NO_REQUEST_OPTIONS): InboundRequest {
  return new NodeInbound(req, res, options);
}

/**
 * The node:http view: a class, so a request builds one object and no closures; the parts few
 * requests need (the signal, the header record, a `Request`, the request info) are built on
 * first read.
 */
class NodeInbound implements InboundRequest {
  readonly method: string;
  readonly pathname: string;
  readonly targetRefusal: string | undefined;
  readonly localAddress: string | undefined;
  readonly loopbackBind: boolean | undefined;
  readonly #search: string;
  #searchParams: URLSearchParams | undefined = undefined;
  readonly #req: IncomingMessage & { originalUrl?: unknown };
  readonly #res: ServerResponse | undefined;
  readonly #options: HandleRequestOptions;
  #controller: AbortController | undefined = undefined;
  #request: Request | undefined = undefined;
  #headers: Readonly<Record<string, string>> | undefined = undefined;
  #info: HttpRequestInfo | undefined = undefined;

  constructor(req: IncomingMessage & { originalUrl?: unknown }, res: ServerResponse | undefined, options: HandleRequestOptions) {
    this.#req = req;
    this.#res = res;
    this.#options = options;
    const target = readRequestTarget(typeof req.originalUrl === 'string' ? req.originalUrl : (req.url ?? '/'), joinHeader(req.headers.host) ?? '');
    const { pathname, search } = partsOf(target);
    this.method = (req.method ?? 'GET').toUpperCase();
    this.pathname = pathname;
    this.#search = search;
    this.targetRefusal = target.ok ? undefined : target.reason;
    const localAddress = options.localAddress ?? req.socket.localAddress;
    this.localAddress = localAddress;
    this.loopbackBind = localAddress === undefined ? undefined : isLoopbackAddress(localAddress);
  }

  /** Built on first read: only the legacy HTTP+SSE message path reads the query. */
  get searchParams(): URLSearchParams {
    return (this.#searchParams ??= new URLSearchParams(this.#search));
  }

  header(name: string): string | undefined {
    return joinHeader(this.#req.headers[name]);
  }

  headerRecord(): Readonly<Record<string, string>> {
    if (this.#headers === undefined) {
      // Header names are the client's: no prototype, so `constructor` is a header or nothing.
      const record = Object.create(null) as Record<string, string>;
      for (const [name, value] of Object.entries(this.#req.headers)) {
        const joined = joinHeader(value);
        if (joined !== undefined) record[name] = joined;
      }
      this.#headers = Object.freeze(record);
    }
    return this.#headers;
  }

  headerNames(): Iterable<string> {
    return Object.keys(this.#req.headers);
  }

  readBody(limit: number): Promise<BodyRead> {
    return readNodeBody(this.#req, limit, this.#options.parsedBody);
  }

  /**
   * Built on first read (only stateless and relayed requests use it): most requests never pay
   * for an AbortController and a `close` listener that would keep this whole view alive.
   */
  get signal(): AbortSignal | undefined {
    const response = this.#res;
    if (response === undefined) return undefined;
    if (this.#controller === undefined) {
      const created = new AbortController();
      this.#controller = created;
      if (response.destroyed) {
        if (!response.writableFinished) created.abort();
      } else {
        // `on`, not `once`: a response closes once, and `once` would wrap the listener per request.
        response.on('close', () => {
          if (!response.writableFinished) created.abort();
        });
      }
    }
    return this.#controller.signal;
  }

  onClientGone(listener: () => void): void {
    const response = this.#res;
    if (response === undefined) return;
    if (this.#controller !== undefined) {
      this.#controller.signal.addEventListener('abort', listener, { once: true });
    } else if (response.destroyed) {
      if (!response.writableFinished) listener();
    } else {
      response.on('close', () => {
        if (!response.writableFinished) listener();
      });
    }
  }

  toRequest(): Request {
    if (this.#request === undefined) {
      const fetchHeaders = new Headers();
      for (const [name, value] of Object.entries(this.headerRecord())) {
        try {
          fetchHeaders.set(name, value);
        } catch {
          // a header value the fetch API refuses; hooks simply do not see it
        }
      }
      this.#request = new Request(this.#absoluteUrl(), { method: this.method, headers: fetchHeaders });
    }
    return this.#request;
  }

  requestInfo(): HttpRequestInfo {
    this.#info ??= freezeRequestInfo(this.method, this.#absoluteUrl().href, this.headerRecord(), this.#options.remoteAddress ?? this.#req.socket.remoteAddress);
    return this.#info;
  }

  #absoluteUrl(): URL {
    const absolute = absoluteUrl(joinHeader(this.#req.headers.host), this.pathname, this.#search);
    if ((this.#req.socket as { encrypted?: boolean }).encrypted === true) absolute.protocol = 'https:';
    return absolute;
  }
}

/**
 * The body of a node:http request, read with `'data'` and `'end'` listeners: no async
 * iterator (with its generator, `finished` listeners and a promise per chunk) per request.
 */
function readNodeBody(req: IncomingMessage & { body?: unknown }, limit: number, parsedBody: unknown): Promise<BodyRead> {
  const declared = joinHeader(req.headers['content-length']);
  if (parsedBody !== undefined) return Promise.resolve(preParsedBody(parsedBody, declared, limit));
  // A framework body parser (e.g. `express.json()`) may have consumed the stream already.
  if (req.body !== undefined && req.readableEnded) return Promise.resolve(preParsedBody(req.body, declared, limit));
  // Past the limit the rest is read and discarded (up to a bound), so the 413 reaches a
  // client that is still uploading instead of a connection reset.
  const drainLimit = limit * 4 + 1024 * 1024;
  if (Number(declared ?? Number.NaN) > drainLimit) return Promise.resolve({ ok: false, tooLarge: true });
  if (req.readableEnded) return Promise.resolve({ ok: true, text: '' });
  if (req.destroyed) return Promise.resolve({ ok: false, tooLarge: false, reason: 'Premature close' });
  return new Promise<BodyRead>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // 'error' stays listened to after settling: a request destroyed with an error later must
    // not emit an unhandled 'error'.
    const settle = (read: BodyRead): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      resolve(read);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size > drainLimit) {
        settle({ ok: false, tooLarge: true });
        req.destroy();
        return;
      }
      if (size <= limit) chunks.push(chunk);
    };
    // A small body arrives in one chunk: decoded as it is, without a copy.
    const textOf = (): string => (chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks, size).toString('utf8'));
    const onEnd = (): void => settle(size > limit ? { ok: false, tooLarge: true } : { ok: true, text: textOf() });
    const onError = (error: Error): void => settle({ ok: false, tooLarge: false, reason: error.message });
    const onClose = (): void => settle({ ok: false, tooLarge: false, reason: 'Premature close' });
    req.on('data', onData);
    req.once('end', onEnd);
    req.on('error', onError);
    req.once('close', onClose);
  });
}

/**
 * Writes a web `Response` to a node:http `ServerResponse`: a JSON answer's kept text in one
 * `end()` with its length, any other body streamed. When the client goes away first, a
 * streamed body is cancelled, which is how SSE connections learn about disconnects.
 */
export async function writeNodeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (response.status === 413) res.setHeader('connection', 'close');
  const text = unreadBodyText(response);
  if (text !== undefined) {
    // The client may have left while the answer was prepared: `end` on a destroyed response is a no-op.
    res.setHeader('content-length', Buffer.byteLength(text));
    res.end(text);
    return;
  }
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
