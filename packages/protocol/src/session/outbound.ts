/**
 * Requests this side sends: ids, the ledger record, the requests held back until Operating,
 * cancellation by signal or deadline (with `notifications/cancelled`), and the settling of
 * everything when the connection ends. Its parts: `outbound-timeouts.ts` (timeouts, paused
 * while the transport authorizes), `outbound-answers.ts` (what the peer answers) and
 * `outbound-rounds.ts` (Multi Round-Trip Requests). Every request is written in one place
 * (`#write`), which adds its `_meta` (`request-meta.ts`). A notification is written, held or
 * sent again after a bounce by `sendNotification`, through the same ledger queue.
 */
import { RequestCancelledError, RequestTimeoutError, SessionExpiredError, TransportError, type ConnectionClosedError } from '../errors/errors.js';
import { isJsonObject, type JsonObject, type JsonRpcMessage, type JsonRpcNotification, type JsonRpcRequest, type RequestId } from '../jsonrpc/messages.js';
import { hasTraceKeys, outboundTraceContext, withoutTraceKeys, type TraceContext } from '../observability/trace-context.js';
import type { Clock } from './clock.js';
import type { DeadlineExpiry } from './deadlines.js';
import type { HeldMessage, InboundRecord, OutboundRecord, RequestLedger } from './ledger.js';
import type { MiddlewareSession } from './middleware-context.js';
import { OutboundGate, sendThroughMiddleware, watchedBy } from './outbound-middleware.js';
import type { RefusalContext } from './method-refusals.js';
import type { SessionObserver } from './observer.js';
import { INPUT_REQUIRED_METHODS } from './input-rounds.js';
import { OutboundAnswers } from './outbound-answers.js';
import { InputRoundTrips, type Resender } from './outbound-rounds.js';
import { RequestTimeouts } from './outbound-timeouts.js';
import type { RequestContext, RequestOptions, SessionOptions } from './options.js';
import { stampRequestMeta, type RequestIdentity } from './request-meta.js';

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The record whose promise is being created: {@link bindSettlers}, the promise's executor, runs
 * synchronously inside `new Promise` and stores the resolving functions on it, so opening a
 * request allocates no executor closure.
 */
let binding: OutboundRecord | undefined;

function bindSettlers(resolve: (result: JsonObject) => void, reject: (error: Error) => void): void {
  if (binding === undefined) return;
  binding.resolve = resolve;
  binding.reject = reject;
}

/** A record's resolving functions before {@link bindSettlers} sets them (never called). */
function settlerUnbound(): void {
  throw new Error('A request record was settled before its promise existed');
}

/** The request written: `params` only when there are some. */
function requestMessage(id: number, method: string, params: JsonObject | undefined): JsonRpcRequest {
  const written: JsonRpcRequest = { jsonrpc: '2.0', id, method };
  if (params !== undefined) written.params = params;
  return written;
}

/** A nested request's settling also releases its parent handler, which waits for input until then. */
function releasesParent(record: OutboundRecord, parent: InboundRecord, ledger: RequestLedger): void {
  const { resolve, reject } = record;
  const release = (): void => {
    parent.waitingOn--;
    if (parent.waitingOn === 0) ledger.move(parent, 'inputReceived');
  };
  record.resolve = (result: JsonObject) => (release(), resolve(result));
  record.reject = (error: Error) => (release(), reject(error));
}

/** What outbound requests need from their session (the method policy and its refusals read it too). */
export interface OutboundHost extends RefusalContext, MiddlewareSession {
  readonly clock: Clock;
  readonly ledger: RequestLedger;
  readonly observer: SessionObserver;
  readonly options: SessionOptions;
  write(message: JsonRpcMessage, relatedRequestId: RequestId | undefined, headers?: Readonly<Record<string, string>>): Promise<void>;
  /** Asks the transport to cancel request `id` by its own means (`Transport.cancelRequest`): true when it did. */
  cancelAtTransport(id: RequestId): boolean;
  /** Asks the machine again about a message the transport bounced (the server forgot the session): held, sent again, or neither. */
  bounced(method: string, kind: 'request' | 'notification'): 'hold' | 'send' | undefined;
  /** Sends a notification (`notifications/cancelled`) through the session's gate. */
  notify(method: string, params: JsonObject): Promise<void>;
  closedError(message: string): ConnectionClosedError;
  /** Why the connection is ending, when it ends with an error (a failed handshake, a fatal error). */
  endError(): Error | undefined;
  /** What a modern-era client states in every request's `_meta`; undefined when the revision has no per-request `_meta`. */
  requestIdentity(): RequestIdentity | undefined;
  /** Answers an input request of a Multi Round-Trip Request through this side's handler for its method. */
  answerInput(method: string, params: JsonObject, context: RequestContext): Promise<JsonObject>;
}

export class OutboundRequests implements DeadlineExpiry<OutboundRecord>, Resender {
  readonly #host: OutboundHost;
  #nextId = 0;
  /**
   * Cancel notifications on their way out; the transport closes only once they are sent.
   * Created on first use, as `#rounds`: most sessions never cancel nor send an input round.
   */
  #cancelsInFlight: Set<Promise<void>> | undefined;
  readonly timeouts: RequestTimeouts;
  readonly #rounds: InputRoundTrips;
  /** What the peer answers to these requests (the inbound side hands it results, errors and progress). */
  readonly answers: OutboundAnswers;
  /** The transport's promise for the last request written, while its reaction has not run ({@link #write}). */
  #writing: Promise<void> | undefined;
  /** The first request written into {@link #writing}: later ones join it (`joined`). */
  #writingFirst: OutboundRecord | undefined;

  constructor(host: OutboundHost) {
    this.#host = host;
    host.ledger.expireWith(this);
    const timeouts = (this.timeouts = new RequestTimeouts(host.ledger, host.clock));
    const rounds = (this.#rounds = new InputRoundTrips(host, timeouts, this));
    this.answers = new OutboundAnswers(host, timeouts, rounds);
  }

  /** Cancellations still being written (the close waits for them, bounded by its deadline). */
  cancelsInFlight(): Promise<unknown> {
    return Promise.allSettled(this.#cancelsInFlight === undefined ? [] : [...this.#cancelsInFlight]);
  }

  /**
   * Puts a request in the ledger, arms its timers and writes it; the gate has already passed.
   * `held`: the machine held it back until Operating — it waits in the ledger's queue (state
   * `created`, timers and signal live) until {@link releaseHeld}. `awaited`: its timers keep the
   * process alive (false only for keep-alive pings, which are housekeeping).
   */
  send(method: string, params: JsonObject | undefined, options: RequestOptions, held = false, awaited = true): Promise<JsonObject> {
    const chain = this.#host.options.middleware?.for(method);
    if (chain === undefined || chain.length === 0) return this.#open(method, params, options, held, awaited, undefined);
    const gate = new OutboundGate(this, this.#host.protocolVersion());
    return sendThroughMiddleware(chain, this.#host, gate, this.#open(method, params, options, held, awaited, gate), params);
  }

  /** Writes (or holds) a request that entered the ledger, unless it settled meanwhile. */
  start(record: OutboundRecord, message: JsonRpcRequest, options: RequestOptions, held: boolean): void {
    if (this.#host.ledger.outbound(record.id) !== record) return;
    if (held) this.#host.ledger.hold({ kind: 'request', record, message, options, relatedRequestId: options.relatedRequestId });
    else this.#dispatch(record, message, options);
  }

  /** A middleware chose the request's trace context before it was written: its retries carry the new params too. */
  retrace(record: OutboundRecord, params: JsonObject): void {
    this.#rounds.retrace(record, params);
  }

  /**
   * Opens a request: its record in the ledger, its timers, its signal, then written (or held,
   * or handed to the middleware's gate). No closure over this frame: on the common path (no
   * parent, signal, gate or trace context) a request costs its record, its message and the
   * promise, which {@link bindSettlers} ties to the record.
   */
  #open(method: string, params: JsonObject | undefined, options: RequestOptions, held: boolean, awaited: boolean, gate: OutboundGate | undefined): Promise<JsonObject> {
    const host = this.#host;
    const id = ++this.#nextId;
    options.onRequestId?.(id);
    const progressToken = options.onProgress !== undefined ? id : undefined;
    const parent = options.relatedRequestId !== undefined ? host.ledger.inbound(options.relatedRequestId) : undefined;
    const ownMeta = isJsonObject(params?._meta) ? params._meta : undefined;
    const traced = options.traceContext !== undefined || ownMeta !== undefined || host.options.traceContext !== undefined;
    const trace = traced ? this.#traceOf(method, options.traceContext, ownMeta, parent?.trace) : parent?.trace;
    let outParams: JsonObject | undefined = params;
    // The trace keys are settled here; the progress token and the modern era's identity are added where it is written (#write).
    if (trace !== undefined || (ownMeta !== undefined && hasTraceKeys(ownMeta))) {
      outParams = { ...params, _meta: { ...withoutTraceKeys(ownMeta), ...trace } };
    }
    const record: OutboundRecord = {
      direction: 'outbound',
      id,
      method,
      startedAt: host.clock.now(),
      state: 'created',
      resolve: settlerUnbound,
      reject: settlerUnbound,
      progressToken,
      onProgress: options.onProgress,
      timeoutMs: options.timeoutMs ?? host.options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? host.options.maxTotalTimeoutMs,
      resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? host.options.resetTimeoutOnProgress ?? true,
      taskAugmented: isJsonObject(params?.task),
      trace,
      awaited,
      customResult: options.custom?.result,
      rounds: undefined,
      headers: options.headers,
      timeoutAt: Number.POSITIVE_INFINITY,
      maxAt: Number.POSITIVE_INFINITY,
      timeoutSeq: 0,
      maxSeq: 0,
      slot: -1,
      detach: undefined,
      joined: undefined,
    };
    binding = record;
    const promise = new Promise<JsonObject>(bindSettlers);
    binding = undefined;
    const reject = record.reject;
    try {
      this.#start(record, requestMessage(id, method, outParams), options, held, gate, parent);
    } catch (error) {
      // What the promise's executor did when the request was opened inside it: a throw rejects the call.
      reject(error instanceof Error ? error : new Error(String(error)));
    }
    return promise;
  }

  /** The rest of {@link #open}: the record enters the ledger, its timers are armed, then it is written, held or gated. */
  #start(record: OutboundRecord, message: JsonRpcRequest, options: RequestOptions, held: boolean, gate: OutboundGate | undefined, parent: InboundRecord | undefined): void {
    const host = this.#host;
    // A nested request marks its parent handler as waiting for input until it settles.
    if (parent !== undefined) releasesParent(record, parent, host.ledger);
    if (gate !== undefined) record.reject = watchedBy(gate, record.reject);
    host.ledger.addOutbound(record);
    host.observer.request(record, 'created', 'dispatch', true);
    if (parent !== undefined) {
      parent.waitingOn++;
      host.ledger.move(parent, 'awaitInput');
    }
    this.timeouts.arm(record, record.startedAt);
    if (record.maxTotalTimeoutMs !== undefined) host.ledger.deadlines.setMaximum(record, record.startedAt + record.maxTotalTimeoutMs);
    if (options.signal !== undefined) this.#follow(record, options.signal);
    // Only a revision with Multi Round-Trip Requests answers input_required (a held request's revision is not settled yet).
    if (INPUT_REQUIRED_METHODS.has(record.method) && (held || host.revision().features.multiRoundTrip)) {
      this.#rounds.track(record, message.params, options.onInputRound);
    }
    if (gate !== undefined) gate.open(record, message, options, held); // the chain's next() starts it
    else if (held) host.ledger.hold({ kind: 'request', record, message, options, relatedRequestId: options.relatedRequestId });
    else this.#dispatch(record, message, options);
  }

  /** The request's trace context: the caller's, its own `_meta`'s, the session's provider's, else its parent's. */
  #traceOf(method: string, explicit: TraceContext | undefined, ownMeta: JsonObject | undefined, inherited: TraceContext | undefined): TraceContext | undefined {
    return outboundTraceContext(explicit, ownMeta, () => this.#providedTrace(method), inherited);
  }

  /** The caller's signal cancels the request; the listener goes when the request settles (`detach`). */
  #follow(record: OutboundRecord, signal: AbortSignal): void {
    const onAbort = (): void => this.cancel(record, abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    record.detach = () => signal.removeEventListener('abort', onAbort);
  }

  /** The session's trace context provider for `method`; one that throws supplies none (and is reported). */
  #providedTrace(method: string): TraceContext | undefined {
    const provider = this.#host.options.traceContext;
    if (provider === undefined) return undefined;
    try {
      return provider({ method });
    } catch (error) {
      this.#host.observer.diagnostic('the traceContext provider threw; the request goes without trace context', error);
      return undefined;
    }
  }

  /**
   * The connection is Operating: a held request still pending is checked again (the peer's
   * capabilities are known now; one the transport bounced was admitted already) and sent.
   */
  releaseHeld(entry: Extract<HeldMessage, { kind: 'request' }>, admit: (method: string, options: RequestOptions) => Error | undefined): void {
    const { record, message, options } = entry;
    const ledger = this.#host.ledger;
    if (ledger.outbound(record.id) !== record) return; // cancelled or timed out while it waited
    const refusal = options === undefined ? undefined : admit(record.method, options);
    if (refusal !== undefined) ledger.settle(record, 'fail', refusal);
    else if (options === undefined) this.#write(record, message, entry.relatedRequestId);
    else this.#dispatch(record, message, options);
  }

  #dispatch(record: OutboundRecord, message: JsonRpcRequest, options: RequestOptions): void {
    this.#host.ledger.move(record, 'dispatch');
    this.#write(record, message, options.relatedRequestId);
  }

  /**
   * The one place a request is written: its `_meta` is completed here (`request-meta.ts`). A
   * transport may return one promise for the messages it writes together (the stdio transports
   * do, per batch): requests written into a promise whose reaction has not run yet join its
   * group, so a batch costs one reaction rather than one per request. The group closes when its
   * reaction runs, so a promise returned again later (a shared settled one) gets a group of its own.
   */
  #write(record: OutboundRecord, message: JsonRpcRequest, relatedRequestId: RequestId | undefined): void {
    const host = this.#host;
    const stamped = stampRequestMeta(message, record.progressToken, host.role === 'client' ? host.requestIdentity() : undefined);
    const sent = host.write(stamped, relatedRequestId, record.headers);
    const first = this.#writingFirst;
    if (first !== undefined && sent === this.#writing) {
      (first.joined ??= []).push(record, message, relatedRequestId);
      return;
    }
    this.#writing = sent;
    this.#writingFirst = record;
    record.joined = undefined; // a request written again heads a new group
    // The first request's own three values are the reaction's context, as a lone request's always were.
    sent.then(this.#closeGroup, (error: unknown) => {
      const joined = record.joined;
      record.joined = undefined;
      this.#closeGroup();
      this.#writeFailed(record, message, relatedRequestId, error);
      if (joined === undefined) return;
      for (let i = 0; i < joined.length; i += 3) this.#writeFailed(joined[i] as OutboundRecord, joined[i + 1] as JsonRpcRequest, joined[i + 2] as RequestId | undefined, error);
    });
  }

  /**
   * A group's reaction ran: later writes open a new one (made once per session, not per group;
   * when a newer group was open, it just closes early). A written group's `joined` goes with its
   * first record.
   */
  readonly #closeGroup = (): void => {
    this.#writing = undefined;
    this.#writingFirst = undefined;
  };

  #writeFailed(record: OutboundRecord, message: JsonRpcRequest, relatedRequestId: RequestId | undefined, error: unknown): void {
    const host = this.#host;
    // The server forgot the session: the machine holds the request for the new one, sends it on one already up, or ends the connection.
    const again = error instanceof SessionExpiredError && host.ledger.outbound(record.id) === record ? host.bounced(record.method, 'request') : undefined;
    if (again === 'hold') return host.ledger.hold({ kind: 'request', record, message, options: undefined, relatedRequestId });
    if (again === 'send') return this.#write(record, message, relatedRequestId);
    host.ledger.settle(record, 'fail', new TransportError(`Failed to send ${record.method}: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
  }

  /** Cancels a pending request by the caller's wish (its signal aborted). */
  cancel(record: OutboundRecord, reason: string): void {
    if (this.#host.ledger.outbound(record.id) !== record) return;
    if (cancellable(record) && !this.#host.ledger.isHeld(record)) this.#sendCancel(record.id, reason);
    this.#host.ledger.settle(record, 'cancel', new RequestCancelledError(`${record.method} was cancelled: ${reason}`, { reason }));
  }

  /** The transport could not deliver these requests, or their answers can no longer arrive. */
  undeliverable(ids: readonly RequestId[], cause: Error): void {
    const ledger = this.#host.ledger;
    for (const id of ids) {
      const record = ledger.outbound(id);
      if (record === undefined) continue;
      ledger.settle(record, 'fail', new TransportError(`${record.method} could not be delivered: ${cause.message}`, { cause }));
    }
  }

  /**
   * The connection is ending: every pending request rejects; `notify` sends their cancellations
   * first. One still held in the ledger (never sent, or bounced by the transport) rejects with
   * why the connection ended (a failed handshake's error) and needs no cancellation.
   */
  settleAll(notify: boolean): void {
    const host = this.#host;
    // Nothing in flight or held (the usual close): no copies of the tables to walk.
    if (host.ledger.outboundCount === 0 && !host.ledger.holding) {
      host.ledger.stopDeadlines();
      return;
    }
    for (const record of host.ledger.pendingOutbound()) {
      const waiting = record.state === 'created' || host.ledger.isHeld(record);
      if (notify && !waiting && cancellable(record)) this.#sendCancel(record.id, 'The connection is closing');
      const ended = waiting ? host.endError() : undefined;
      host.ledger.settle(record, 'abort', ended ?? host.closedError(`${record.method} did not complete: the connection closed`));
    }
    for (const held of host.ledger.takeHeld()) if (held.kind === 'notification') held.reject(host.endError() ?? host.closedError(`${held.message.method} was not sent: the connection closed`));
    host.ledger.stopDeadlines();
  }

  /** The next round of a Multi Round-Trip Request: the same request under a new id (`outbound-rounds.ts` calls it). */
  resend(record: OutboundRecord, params: JsonObject): void {
    const ledger = this.#host.ledger;
    const id = ++this.#nextId;
    ledger.reissue(record, id);
    ledger.move(record, 'inputReceived');
    this.timeouts.arm(record);
    this.#write(record, { jsonrpc: '2.0', id, method: record.method, params }, undefined);
  }

  /** A request's deadline passed (the ledger's deadlines call this); `maximum`: its hard maximum. */
  deadlineExpired(record: OutboundRecord, maximum: boolean): void {
    this.#expire(record, maximum ? (record.maxTotalTimeoutMs as number) : record.timeoutMs, maximum);
  }

  #expire(record: OutboundRecord, ms: number, maximum: boolean): void {
    if (this.#host.ledger.outbound(record.id) !== record) return;
    if (cancellable(record)) this.#sendCancel(record.id, maximum ? `Timed out after the ${ms} ms maximum` : `Timed out after ${ms} ms`);
    this.#host.ledger.settle(record, 'expire', new RequestTimeoutError(record.id, ms, { maximum }));
  }

  /** Cancels a request on the wire: by the transport's own means where it has one, else with `notifications/cancelled`. */
  #sendCancel(requestId: RequestId, reason: string): void {
    if (this.#host.cancelAtTransport(requestId)) return;
    const sending = this.#host
      .notify('notifications/cancelled', { requestId, reason })
      .catch((error: unknown) => this.#host.observer.diagnostic('could not send notifications/cancelled', error))
      .finally(() => this.#cancelsInFlight?.delete(sending));
    (this.#cancelsInFlight ??= new Set()).add(sending);
  }
}

/**
 * `initialize` is never cancelled (MCP 2025-11-25, Utilities §Cancellation); task-augmented
 * requests use `tasks/cancel` (MCP 2025-11-25, Tasks); a request still held back was never sent, and one between input rounds was answered,
 * so there is nothing to cancel on the wire.
 */
function cancellable(record: OutboundRecord): boolean {
  // waitingForInput (an outbound request between Multi Round-Trip rounds): the server already answered its id.
  return record.method !== 'initialize' && !record.taskAugmented && record.state !== 'created' && record.state !== 'waitingForInput';
}

/**
 * Writes a notification, or holds it in the ledger when the machine said so. One the
 * transport bounced because the server forgot the session goes back through the machine:
 * held while the session is being replaced, sent again once it is, else the sender hears why.
 */
export function sendNotification(host: OutboundHost, message: JsonRpcNotification, relatedRequestId: RequestId | undefined, held: boolean): Promise<void> {
  if (held) return new Promise((resolve, reject) => host.ledger.hold({ kind: 'notification', message, relatedRequestId, resolve, reject }));
  // Only a client's transport bounces (a server's sessions are its own): no promise of ours per notification on a server.
  if (host.role === 'server') return host.write(message, relatedRequestId);
  return host.write(message, relatedRequestId).catch((error: unknown) => {
    const again = error instanceof SessionExpiredError ? host.bounced(message.method, 'notification') : undefined;
    if (again === undefined) throw error;
    return sendNotification(host, message, relatedRequestId, again === 'hold');
  });
}

/** The reason an AbortSignal carries, as text. */
export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message;
  if (typeof reason === 'string') return reason;
  return 'aborted by the caller';
}
