/**
 * A `fetch`-compatible function on `node:http` / `node:https` with keep-alive agents, the
 * default of the HTTP client transports on Node when no `fetch` or `requestInit` is given.
 * The global `fetch` (undici) costs about three times more CPU per request than `node:http`
 * for the small POSTs MCP sends (see docs/benchmarks.md); the transports only use the part
 * of `fetch` this covers: string or byte bodies, headers, an AbortSignal, a streamed body.
 * Anything else (a `Request` object, stream or form bodies, non-HTTP URLs) goes to the global
 * `fetch`, and so does everything outside Node.
 *
 * Redirects follow the SDK's one policy (`guardRedirects` of `@statemcp/protocol`, mode
 * `'same-origin'`), not `fetch`'s: a redirect to another origin or from `https:` to `http:`
 * rejects with `RedirectRefusedError` and nothing is sent to its `Location`; a same-origin one
 * is followed (at most 5 hops; 307/308 keep the method and body) without `Authorization`,
 * `DPoP`, `Cookie`, `Mcp-Session-Id` or any custom header. `redirect: 'manual'` gives the
 * redirect as it came, `redirect: 'error'` refuses every one.
 *
 * Idle keep-alive sockets are unref'd by Node's agent, so they never keep a process alive.
 *
 * The default agents have no cap on sockets per host: every session of an MCP client holds a
 * socket for its standalone GET stream, and a cap (Node's pool queues requests past it) would
 * make the next session's `initialize` wait silently behind streams that never end. Only idle
 * sockets are bounded (`maxFreeSockets`). Pass agents of your own to
 * {@link createNodeHttpFetch} to pool differently (a proxy agent, TLS options, a cap).
 */
import { guardRedirects, isRedirectStatus } from '@statemcp/protocol/internal';
import { abortError } from './abort-error.js';
import type { PostExchange } from './http-answer.js';
import { incomingHeader } from './incoming-body.js';
import { nodePostExchange } from './node-http-post.js';
import type * as Http from 'node:http';
import type { Readable as NodeReadable } from 'node:stream';

type HttpModule = typeof Http;

interface Modules {
  readonly http: HttpModule;
  readonly https: HttpModule;
  readonly Readable: typeof NodeReadable;
  readonly agents: { readonly http: Http.Agent; readonly https: Http.Agent };
}

/** Options of {@link createNodeHttpFetch}. */
export interface NodeHttpFetchOptions {
  /** The agent for `http:` URLs. Default: keep-alive, no cap on sockets, at most 256 idle ones. */
  readonly httpAgent?: Http.Agent;
  /** The agent for `https:` URLs (an `https.Agent`). Default: as for `httpAgent`. */
  readonly httpsAgent?: Http.Agent;
}

/** Idle keep-alive sockets kept per host by the default agents. */
const MAX_FREE_SOCKETS = 256;

const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

let modules: Modules | undefined;

/**
 * `node:http`, `node:https` and `node:stream` with the default agents, loaded on first use
 * through `process.getBuiltinModule` — never at import, and invisible to bundlers, so the
 * client bundles for browsers and workers with no Node built-in in it.
 */
function load(): Modules {
  if (modules !== undefined) return modules;
  const http: HttpModule = process.getBuiltinModule('node:http');
  const https = process.getBuiltinModule('node:https') as unknown as HttpModule;
  const stream: { Readable: typeof NodeReadable } = process.getBuiltinModule('node:stream');
  modules = {
    http,
    https,
    Readable: stream.Readable,
    agents: {
      http: new http.Agent({ keepAlive: true, maxFreeSockets: MAX_FREE_SOCKETS }),
      https: new https.Agent({ keepAlive: true, maxFreeSockets: MAX_FREE_SOCKETS }),
    },
  };
  return modules;
}

/** True when this runtime is Node (or a Node-compatible one) with `node:http`. */
export function isNodeRuntime(): boolean {
  return (
    typeof process !== 'undefined' &&
    typeof process.versions === 'object' &&
    typeof process.versions.node === 'string' &&
    typeof (process as { getBuiltinModule?: unknown }).getBuiltinModule === 'function'
  );
}

/** The request headers for `node:http`, which validates their names and values itself. */
function headerRecord(headers: ConstructorParameters<typeof Headers>[0]): Record<string, string> {
  // A plain record with lower-case names (what the transports pass) goes through as it is.
  if (isLowerCaseRecord(headers)) return headers;
  const record: Record<string, string> = {};
  // A `Headers` is already validated and lower-cased: no copy.
  (headers instanceof Headers ? headers : new Headers(headers)).forEach((value, key) => {
    record[key] = value;
  });
  return record;
}

function isLowerCaseRecord(headers: ConstructorParameters<typeof Headers>[0]): headers is Record<string, string> {
  if (typeof headers !== 'object' || headers === null) return false;
  // Only a plain object: a `Headers`, an array or another iterable of pairs goes through `Headers`.
  const prototype: unknown = Object.getPrototypeOf(headers);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const name of Object.keys(headers)) {
    if (name !== name.toLowerCase() || typeof (headers as Record<string, unknown>)[name] !== 'string') return false;
  }
  return true;
}

function responseHeaders(raw: Http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(key, item);
    else headers.set(key, value);
  }
  return headers;
}

/**
 * The `Response` of `nodeHttpFetch` for a response with a body: a real `Response` whose body
 * is node's `IncomingMessage`, turned into a web `ReadableStream` (`Readable.toWeb`) only when
 * something asks for `body`, a body reader such as `text()`, or `clone()`. The transports
 * read the SSE and JSON answers of their POSTs straight off the `IncomingMessage`
 * ({@link claimNodeBody}): no web stream, reader or promise per chunk on the path every call
 * takes. The headers are converted to `Headers` on first read as well.
 */
class NodeHttpResponse extends Response {
  readonly #incoming: Http.IncomingMessage;
  readonly #readable: typeof NodeReadable;
  #headers: Headers | undefined;
  /** The web view of the body, built on first use; every body reader goes through it. */
  #web: Response | undefined;
  #claimed = false;

  constructor(incoming: Http.IncomingMessage, readable: typeof NodeReadable, status: number, statusText: string) {
    super(null, { status, statusText });
    this.#incoming = incoming;
    this.#readable = readable;
  }

  static {
    // The lib types declare `Response`'s members as properties, so the overrides are put on
    // the prototype here; each one reads the body through the web view built on first use.
    const web = (response: NodeHttpResponse): Response => response.#webResponse();
    const methods = ['arrayBuffer', 'blob', 'bytes', 'formData', 'json', 'text', 'clone'].filter((name) => name in Response.prototype);
    const overrides: PropertyDescriptorMap = {
      headers: {
        configurable: true,
        get(this: NodeHttpResponse): Headers {
          return this.#headerView();
        },
      },
      body: {
        configurable: true,
        get(this: NodeHttpResponse): ReadableStream<Uint8Array> | null {
          return web(this).body;
        },
      },
      bodyUsed: {
        configurable: true,
        get(this: NodeHttpResponse): boolean {
          return this.#claimed || (this.#web?.bodyUsed ?? false);
        },
      },
    };
    for (const name of methods) {
      overrides[name] = {
        value(this: NodeHttpResponse): unknown {
          const target = web(this) as unknown as Record<string, () => unknown>;
          return (target[name] as () => unknown).call(target);
        },
        writable: true,
        configurable: true,
      };
    }
    Object.defineProperties(this.prototype, overrides);
  }

  /** The `IncomingMessage`, once, for a reader that consumes it directly; `undefined` if the web body was used. */
  claim(): Http.IncomingMessage | undefined {
    if (this.#claimed || this.#web !== undefined) return undefined;
    this.#claimed = true;
    return this.#incoming;
  }

  /** One response header (a lower-case name), read off the `IncomingMessage` until `headers` is built. */
  header(name: string): string | null {
    return this.#headers !== undefined ? this.#headers.get(name) : incomingHeader(this.#incoming, name);
  }

  #headerView(): Headers {
    this.#headers ??= responseHeaders(this.#incoming.headers);
    return this.#headers;
  }

  #webResponse(): Response {
    this.#web ??= new Response(this.#readable.toWeb(this.#incoming) as ReadableStream<Uint8Array>, {
      status: this.status,
      statusText: this.statusText,
      headers: this.#headerView(),
    });
    return this.#web;
  }
}

/**
 * The body of a `nodeHttpFetch` response as node's `IncomingMessage`, for a reader that
 * consumes it directly; `undefined` for any other `Response` (the global `fetch`, a
 * middleware's own) or one whose web body was already touched. The body is claimed: call
 * it once, right before reading.
 */
export function claimNodeBody(response: Response): Http.IncomingMessage | undefined {
  return response instanceof NodeHttpResponse ? response.claim() : undefined;
}

/**
 * One header of `response` (`name` in lower case), as `response.headers.get(name)` returns it;
 * for a `nodeHttpFetch` response it is read without building the `Headers`.
 */
export function responseHeader(response: Response, name: string): string | null {
  return response instanceof NodeHttpResponse ? response.header(name) : response.headers.get(name);
}

/** True when `response` carries a body, without building a web stream for a `nodeHttpFetch` body. */
export function hasBody(response: Response): boolean {
  return response instanceof NodeHttpResponse || response.body !== null;
}

/**
 * A `fetch` on `node:http` with the given agents. Falls back to the global `fetch` for what it
 * does not cover.
 *
 * @example
 * ```ts
 * import { Agent } from 'node:http';
 * const fetch = createNodeHttpFetch({ httpAgent: new Agent({ keepAlive: true, maxSockets: 1024 }) });
 * const transport = new StreamableHttpClientTransport(url, { fetch });
 * ```
 */
export function createNodeHttpFetch(options: NodeHttpFetchOptions = {}): typeof fetch {
  return guardRedirects(singleRequestFetch(options), 'same-origin');
}

/**
 * The fetch under {@link createNodeHttpFetch}'s redirect policy: one request, never following a
 * redirect (it answers as `redirect: 'manual'` does).
 */
function singleRequestFetch(options: NodeHttpFetchOptions): typeof fetch {
  // The modules with this fetch's agents, made on its first request (not per request).
  let bound: Modules | undefined;
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
    const body = init?.body;
    const simpleBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
    if (url === undefined || !simpleBody || !/^https?:/i.test(url) || (modules === undefined && !isNodeRuntime())) return globalThis.fetch(input, { ...init, redirect: 'manual' });
    if (bound === undefined) {
      const loaded = load();
      bound = { ...loaded, agents: { http: options.httpAgent ?? loaded.agents.http, https: options.httpsAgent ?? loaded.agents.https } };
    }
    return request(bound, requestTarget(url), init ?? {}, body ?? undefined);
  };
}

/** Where a request goes, as `node:http` takes it: what `urlToHttpOptions` makes of the URL. */
interface RequestTarget {
  readonly secure: boolean;
  readonly protocol: string;
  readonly hostname: string;
  readonly port: string;
  readonly path: string;
  readonly auth: string | undefined;
}

/** Targets of recently requested URLs: a transport POSTs to one URL all its life. */
const targets = new Map<string, RequestTarget>();
const MAX_TARGETS = 64;

/**
 * The target of `href`, parsed once per URL instead of once per request (a `URL` and node's
 * `urlToHttpOptions` cost ≈1 % of a client's CPU per call). Userinfo goes on as `auth`, as
 * `node:http` does with a `URL`.
 */
function requestTarget(href: string): RequestTarget {
  const known = targets.get(href);
  if (known !== undefined) return known;
  const url = new URL(href);
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const auth = url.username === '' && url.password === '' ? undefined : `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  const target: RequestTarget = { secure: url.protocol === 'https:', protocol: url.protocol, hostname, port: url.port, path: `${url.pathname}${url.search}`, auth };
  if (targets.size >= MAX_TARGETS) targets.clear();
  targets.set(href, target);
  return target;
}

/**
 * `fetch` on `node:http` with the default agents (keep-alive, no cap on sockets per host).
 *
 * @example
 * ```ts
 * const transport = new StreamableHttpClientTransport(url, { fetch: nodeHttpFetch });
 * ```
 */
// Pure: a bundle that never uses it leaves the node:http client out.
export const nodeHttpFetch: typeof fetch = /* @__PURE__ */ createNodeHttpFetch();

/** `nodeHttpFetch` without its redirect policy, for the transports, which put their own (stricter) one around it. */
const nodeSingleRequest = /* @__PURE__ */ singleRequestFetch({});

function request(loaded: Modules, target: RequestTarget, init: RequestInit, body: string | Uint8Array | undefined, retried = false): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted === true) return Promise.reject(abortError(signal));
  const { secure } = target;
  const module = secure ? loaded.https : loaded.http;
  const method = (init.method ?? 'GET').toUpperCase();
  return new Promise<Response>((resolve, reject) => {
    // One abort listener for the whole exchange: before the response it fails the request,
    // after it the body stream carries the abort (destroying it errors the reader).
    let answer: Http.IncomingMessage | undefined;
    const onAbort = () => {
      const reason = signal === undefined ? new DOMException('This operation was aborted', 'AbortError') : abortError(signal);
      if (answer !== undefined) {
        answer.destroy(reason);
        return;
      }
      outgoing.destroy(reason);
      reject(reason);
    };
    const outgoing = module.request(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        path: target.path,
        auth: target.auth,
        method,
        headers: headerRecord(init.headers),
        agent: secure ? loaded.agents.https : loaded.agents.http,
      },
      (incoming) => {
        const status = incoming.statusCode ?? 0;
        const statusText = incoming.statusMessage ?? '';
        // A redirect's own body is never read: drained here, so its keep-alive socket goes back to the pool.
        const redirect = isRedirectStatus(status) && incoming.headers.location !== undefined;
        if (NULL_BODY_STATUSES.has(status) || method === 'HEAD' || redirect) {
          incoming.resume();
          signal?.removeEventListener('abort', onAbort);
          resolve(new Response(null, { status, statusText, headers: responseHeaders(incoming.headers) }));
          return;
        }
        if (signal !== undefined) {
          answer = incoming;
          // 'close' comes once: `on` spares the wrapper `once` builds.
          incoming.on('close', () => signal.removeEventListener('abort', onAbort));
        }
        resolve(new NodeHttpResponse(incoming, loaded.Readable, status, statusText));
      },
    );
    // Removed when the exchange ends; an abort fires once anyway (no `{ once }` options to read per request).
    signal?.addEventListener('abort', onAbort);
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // After the response, its body's 'close' removes the listener.
      if (answer === undefined) signal?.removeEventListener('abort', onAbort);
      // A pooled keep-alive socket the server closed while idle fails before the request
      // reached the server: the one case Node's documentation says to retry (once).
      if (outgoing.reusedSocket && error.code === 'ECONNRESET' && !retried && signal?.aborted !== true) {
        resolve(request(loaded, target, init, body, true));
        return;
      }
      reject(new TypeError('fetch failed', { cause: error }));
    });
    outgoing.end(body);
  });
}

/**
 * The transports' default on Node: `nodeHttpFetch`'s single requests (under the transport's own
 * redirect policy); `undefined` elsewhere (the global `fetch` then). Reached through
 * `#node-http-fetch`, whose `browser` variant (`node-http-absent.ts`) leaves this file out of
 * browser bundles.
 */
export function nodeDefaultFetch(): typeof fetch | undefined {
  return isNodeRuntime() ? nodeSingleRequest : undefined;
}

/**
 * The Streamable HTTP transport's own POSTs to `url` on `node:http` with `nodeHttpFetch`'s
 * default agents (`node-http-post.ts`), for a transport on its default `fetch`; `undefined`
 * outside Node or for a URL that is not `http:`/`https:` (the transport then POSTs with `fetch`).
 */
export function nodeDefaultPost(url: URL): PostExchange | undefined {
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || (modules === undefined && !isNodeRuntime())) return undefined;
  const loaded = load();
  const target = requestTarget(url.href);
  return target.secure ? nodePostExchange(loaded.https, loaded.agents.https, target, url) : nodePostExchange(loaded.http, loaded.agents.http, target, url);
}
