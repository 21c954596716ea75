/**
 * Which downstream request an upstream's server-to-client request belongs to. An upstream
 * asks for sampling, elicitation or roots while it serves a call the gateway forwarded; the
 * question must reach the client that made that call, in that call's context (its stream,
 * its capabilities, its Multi Round-Trip rounds).
 *
 * Every forwarded request runs inside {@link CallRouting.run}, which remembers the downstream
 * request's `RequestExtra`; the upstream client's outbound middleware attaches the upstream
 * request (its id, read live: a Multi Round-Trip retry goes out under a new id). Then:
 *
 * - 2026-07-28 upstream: input requests come inside the call's own `InputRequiredResult`
 *   (MCP 2026-07-28, Multi Round-Trip Requests) or in the `inputRequests` of the upstream task
 *   the call drives (tasks extension), and the gateway's client answers them inside the call —
 *   an exact match.
 * - legacy upstream: a server request carries no link to the request it serves on the wire
 *   (stdio has no stream per request), so it goes to the call in flight to that upstream, the
 *   most recent one when several are.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ErrorCode, JsonRpcError, TASKS_EXTENSION_ID, type Middleware, type RequestId } from '@statemcp/protocol';
import { declaresTasksExtension } from '@statemcp/protocol/internal';
import type { RequestExtra } from '../request-extra.js';
import type { ClientCapabilities } from '../wire-types.js';

/** The client capabilities whose requests the gateway forwards to its caller. */
const FORWARDED_CAPABILITIES = ['sampling', 'elicitation', 'roots'] as const;

/** A downstream request and the upstream request that forwards it (`ComposeOptions.onForward`). */
export interface ForwardedRequest {
  /** The mount's prefix. */
  readonly prefix: string;
  /** The upstream method (`tools/call`, `resources/read`, …). */
  readonly method: string;
  /** The downstream request: the gateway connection's id and the request's JSON-RPC id. */
  readonly downstream: { readonly connectionId: string; readonly requestId: RequestId };
  /** The upstream request: the gateway client's session label and the JSON-RPC id it went out with. */
  readonly upstream: { readonly sessionId: string; readonly requestId: RequestId };
}

/** A downstream request being forwarded to one upstream. */
interface ForwardedCall {
  readonly extra: RequestExtra;
  /** The live id of the upstream request, once the upstream client sent it. */
  upstreamId: (() => RequestId) | undefined;
}

/** The forwarded calls of one upstream, and the routing of its requests back to them. */
export class CallRouting {
  readonly #current = new AsyncLocalStorage<ForwardedCall>();
  /** In start order: the last is the most recent. */
  readonly #inFlight = new Set<ForwardedCall>();
  readonly #prefix: string;
  readonly #onForward: ((request: ForwardedRequest) => void) | undefined;

  constructor(prefix: string, onForward?: (request: ForwardedRequest) => void) {
    this.#prefix = prefix;
    this.#onForward = onForward;
  }

  /** Runs `forward` as a call on behalf of the downstream request of `extra`. */
  async run<T>(extra: RequestExtra, forward: () => Promise<T>): Promise<T> {
    const call: ForwardedCall = { extra, upstreamId: undefined };
    this.#inFlight.add(call);
    try {
      return await this.#current.run(call, forward);
    } finally {
      this.#inFlight.delete(call);
    }
  }

  /**
   * Runs `work` outside any forwarded call: what the gateway asks the upstream for itself (a
   * relisting after a list change that arrived during a call) states the gateway's own
   * capabilities, not those of the call's caller.
   */
  outside<T>(work: () => T): T {
    return this.#current.exit(work);
  }

  /** The upstream client's middleware: links each outbound request to the forwarded call it runs in. */
  readonly outbound: Middleware = (context, next) => {
    if (context.direction === 'outbound' && context.kind === 'request') {
      const call = this.#current.getStore();
      if (call !== undefined && call.upstreamId === undefined) {
        call.upstreamId = () => context.id;
        const { extra } = call;
        this.#onForward?.({
          prefix: this.#prefix,
          method: context.method,
          downstream: { connectionId: extra.connection.id, requestId: extra.requestId },
          upstream: { sessionId: context.sessionId, requestId: context.id },
        });
      }
    }
    return next();
  };

  /** The downstream request of the forwarded call this async context runs in, if any. */
  current(): RequestExtra | undefined {
    return this.#current.getStore()?.extra;
  }

  /** The downstream request of the most recent forwarded call still in flight, if any. */
  latest(): RequestExtra | undefined {
    let found: ForwardedCall | undefined;
    for (const call of this.#inFlight) found = call;
    return found?.extra;
  }

  /**
   * The capabilities an upstream request states for the caller it forwards for (2026-07-28:
   * per request, `io.modelcontextprotocol/clientCapabilities`, MCP 2026-07-28, Lifecycle): the
   * caller's own `sampling`, `elicitation` and `roots` — the server-to-client requests the
   * gateway passes on — so the upstream asks only for what the caller can answer; and the tasks
   * extension when the call can surface an upstream task — the caller declared it, or the call
   * runs as a (legacy) task of the gateway already (see upstream-task.ts). Undefined outside a
   * forwarded call (the gateway's declared capabilities apply).
   */
  requestCapabilities(): ClientCapabilities | undefined {
    const extra = this.current();
    if (extra === undefined) return undefined;
    const declared = extra.clientCapabilities;
    const stated: Record<string, unknown> = {};
    for (const name of FORWARDED_CAPABILITIES) if (declared[name] !== undefined) stated[name] = declared[name];
    if (declaresTasksExtension(declared) || extra.task !== undefined) stated.extensions = { [TASKS_EXTENSION_ID]: {} };
    return stated;
  }

  /**
   * The downstream request an upstream request belongs to: when `exact` (a 2026-07-28 upstream),
   * the call whose own code asks — the gateway's client answers a Multi Round-Trip round, or an
   * input request of an upstream task it drives (named by the task, not the call), inside that
   * call — else the call by id; otherwise the most recent call in flight. A JSON-RPC error (sent
   * back upstream) when there is none.
   */
  extraFor(requestId: RequestId, exact: boolean): RequestExtra {
    const own = this.#current.getStore();
    if (exact && own !== undefined && this.#inFlight.has(own)) return own.extra;
    let found: ForwardedCall | undefined;
    for (const call of this.#inFlight) {
      if (exact ? call.upstreamId?.() === requestId : true) found = call;
    }
    if (found === undefined) throw new JsonRpcError(ErrorCode.InvalidRequest, 'No downstream request is in flight to forward this request to');
    return found.extra;
  }
}
