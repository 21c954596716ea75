/**
 * Middleware: functions registered on a server or a client that wrap every request and
 * notification a session handles or sends, in both eras and on every transport. The session
 * runs the chain in the one place each message passes — an inbound request inside its ledger
 * record (between the gate and the handler, with the record's abort signal), an outbound
 * request inside its own record (before it is written; `next()` writes it), a notification
 * where it is delivered or written — so the ledger, timeouts, cancellation and `inspect` count
 * middleware time as the request's.
 *
 * Order is the onion of registration: the first middleware registered is the outermost; it
 * runs first before `next()` and last after it.
 *
 * ```
 * use(a); use(b)    a ─▶ b ─▶ handler ─▶ b ─▶ a
 * ```
 *
 * A session with no middleware registered takes the path it took before middleware existed:
 * `MiddlewareStack.for` returns one shared empty list, and nothing is allocated.
 */
import { InvalidArgumentError, InvalidStateError } from '../errors/errors.js';
import type { JsonObject, RequestId } from '../jsonrpc/messages.js';
import type { RequestStateKind } from '../machines/request.js';
import type { TraceContext } from '../observability/trace-context.js';
import type { ProtocolEra } from '../versions.js';
import type { HttpRequestInfo, InboundContext } from '../transport/transport.js';
import type { Requester } from './handler-context.js';

/** What every middleware context carries, whichever the message. */
interface MiddlewareContextBase {
  /** `inbound`: the peer sent it and this side handles it; `outbound`: this side sends it. */
  readonly direction: 'inbound' | 'outbound';
  readonly method: string;
  /** The message's params (`{}` when it had none); for a spec request, as validated against the revision. */
  readonly params: JsonObject;
  /** The session's label (`Session.id`; a server connection's id). */
  readonly sessionId: string;
  /** The transport's session id (HTTP `Mcp-Session-Id`), when the transport has one. */
  readonly transportSessionId: string | undefined;
  /** The protocol version this message is handled or sent under, once one is known. */
  readonly protocolVersion: string | undefined;
  /** The era of that version: `legacy` (a handshake) or `modern` (2026-07-28+). */
  readonly era: ProtocolEra | undefined;
  /** Inbound: what the transport's auth hook produced for the sender (its principal), if anything. */
  readonly authInfo: unknown;
  /** Inbound: what the transport attached (headers, session id, the HTTP request). */
  readonly transportContext: InboundContext | undefined;
  /** Inbound over HTTP: the request that carried the message (`undefined` on stdio and in memory). */
  readonly http: HttpRequestInfo | undefined;
  /** The W3C trace context the message carries in `_meta`, validated. */
  readonly traceContext: TraceContext | undefined;
}

/** The context of a request passing through middleware. */
export interface RequestMiddlewareContext extends MiddlewareContextBase {
  readonly kind: 'request';
  /**
   * The JSON-RPC id. Outbound it is the id the request is written with (a modern-era request
   * that takes Multi Round-Trip rounds goes out again under a new id: this reads the current one).
   */
  readonly id: RequestId;
  /**
   * Aborted when the request ends without an answer: cancelled (by the peer inbound, by the
   * caller's signal outbound), timed out, or its connection closed. A middleware that waits
   * should stop when it aborts.
   */
  readonly signal: AbortSignal;
  /** The request's state in its session's ledger now (`processing`, `waitingForInput`, …); undefined for an MRTR input request, which has no record. */
  readonly state: RequestStateKind | undefined;
  /** When the request entered the ledger, in the session clock's ms. */
  readonly startedAt: number;
  /** Inbound: who sent the request and what it declared (see `RequestContext.requester`). */
  readonly requester: Requester | undefined;
  /** Inbound, client, 2026-07-28+: the key of the Multi Round-Trip input request (see `RequestContext.inputKey`). */
  readonly inputKey?: string | undefined;
  /**
   * Outbound, before `next()`: the W3C trace context to carry in this request's `_meta`
   * instead of the one chosen so far (validated; an invalid one is dropped, never sent). A
   * tracing middleware passes the span it opened. Inbound it throws `InvalidStateError`.
   */
  propagate(trace: TraceContext): void;
}

/** The context of a notification passing through middleware. */
export interface NotificationMiddlewareContext extends MiddlewareContextBase {
  readonly kind: 'notification';
}

/** The context a middleware receives: `kind` tells a request from a notification. */
export type MiddlewareContext = RequestMiddlewareContext | NotificationMiddlewareContext;

/**
 * Runs the rest of the chain (the next middleware, then the handler or the write) and resolves
 * with its result: a request's result object, or `{}` once a notification was delivered or
 * written. It rejects with what the rest threw (a `JsonRpcError` for an error response). Call
 * it at most once.
 */
export type MiddlewareNext = () => Promise<JsonObject>;

/**
 * One middleware. For a request, what it returns (or throws) is the request's outcome:
 * return `next()`'s result to pass it on, another object to replace it, or throw a
 * `JsonRpcError` (or return without calling `next()`) to short-circuit. Anything else thrown
 * becomes a -32603 error for that request alone. For a notification the return value is
 * ignored; not calling `next()` drops it.
 *
 * @example
 * ```ts
 * server.use(async (context, next) => {
 *   const started = performance.now();
 *   try {
 *     return await next();
 *   } finally {
 *     console.log(context.method, performance.now() - started);
 *   }
 * });
 * ```
 */
export type Middleware = (context: MiddlewareContext, next: MiddlewareNext) => JsonObject | Promise<JsonObject>;

interface StackEntry {
  readonly methods: ReadonlySet<string> | undefined;
  readonly middleware: Middleware;
}

const NO_MIDDLEWARE: readonly Middleware[] = Object.freeze([]);

/**
 * The middleware of one server or client, shared by all its sessions (`SessionOptions.middleware`).
 * `for(method)` is what a session asks per message: the chain for that method, cached until
 * the next `use()`.
 */
export class MiddlewareStack {
  #entries: readonly StackEntry[] = [];
  #byMethod = new Map<string, readonly Middleware[]>();

  /** How many middleware are registered. */
  get size(): number {
    return this.#entries.length;
  }

  /**
   * Adds `middleware` innermost of those registered so far. With `methods` (one name or a
   * list), it runs only for messages of those methods.
   */
  use(middleware: Middleware): this;
  use(methods: string | readonly string[], middleware: Middleware): this;
  use(first: Middleware | string | readonly string[], second?: Middleware): this {
    const middleware = typeof first === 'function' ? first : second;
    if (typeof middleware !== 'function') throw new InvalidArgumentError('use() needs a middleware function');
    let methods: ReadonlySet<string> | undefined;
    if (typeof first === 'string') methods = new Set([first]);
    else if (Array.isArray(first)) methods = new Set(first as readonly string[]);
    if (methods !== undefined && (methods.size === 0 || [...methods].some((method) => typeof method !== 'string' || method === ''))) {
      throw new InvalidArgumentError('use(methods, middleware) needs at least one method name');
    }
    this.#entries = [...this.#entries, { methods, middleware }];
    this.#byMethod = new Map();
    return this;
  }

  /** The chain for messages of `method`, outermost first (one shared empty list when there is none). */
  for(method: string): readonly Middleware[] {
    const entries = this.#entries;
    if (entries.length === 0) return NO_MIDDLEWARE;
    let chain = this.#byMethod.get(method);
    if (chain === undefined) {
      const matching = entries.filter((entry) => entry.methods === undefined || entry.methods.has(method)).map((entry) => entry.middleware);
      chain = matching.length === 0 ? NO_MIDDLEWARE : Object.freeze(matching);
      this.#byMethod.set(method, chain);
    }
    return chain;
  }
}

/**
 * Runs `chain` around `terminal` for one message. Whatever a middleware throws, synchronously
 * or not, rejects the returned promise (the caller turns it into that request's error).
 */
export function runMiddleware(chain: readonly Middleware[], context: MiddlewareContext, terminal: MiddlewareNext): Promise<JsonObject> {
  const step = (index: number): Promise<JsonObject> => {
    const middleware = chain[index];
    if (middleware === undefined) return invoke(terminal);
    let called = false;
    const next: MiddlewareNext = () => {
      if (called) return Promise.reject(new InvalidStateError(`A middleware called next() twice for ${context.method}`, 'middleware'));
      called = true;
      return step(index + 1);
    };
    try {
      return Promise.resolve(middleware(context, next));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
  return step(0);
}

function invoke(terminal: MiddlewareNext): Promise<JsonObject> {
  try {
    return terminal();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
