/**
 * Requests this side sends: ids, the ledger record, timeouts that reset on progress under a
 * hard maximum, cancellation by signal (with `notifications/cancelled`), correlation of
 * results, errors and progress, the rounds of a modern-era Multi Round-Trip Request, and the
 * settling of everything when the connection ends. Every outbound request settles in the
 * ledger's one `settle()`; this module decides with what. Every request is written in one
 * place (`#write`), which adds its `_meta` (`request-meta.ts`).
 */
import {
  InputRoundsExceededError,
  InvalidResultError,
  JsonRpcError,
  RequestCancelledError,
  RequestTimeoutError,
  SessionExpiredError,
  TransportError,
  type ConnectionClosedError,
} from '../errors/errors.js';
import { isJsonObject, type JsonObject, type JsonRpcErrorResponse, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResultResponse, type RequestId } from '../jsonrpc/messages.js';
import { hasTraceKeys, outboundTraceContext, withoutTraceKeys, type TraceContext } from '../observability/trace-context.js';
import type { Clock } from './clock.js';
import { validateCustom } from './custom-methods.js';
import type { DeadlineExpiry } from './deadlines.js';
import type { HeldMessage, OutboundRecord, ProgressUpdate, RequestLedger } from './ledger.js';
import type { MiddlewareSession } from './middleware-context.js';
import { OutboundGate, sendThroughMiddleware, watchedBy } from './outbound-middleware.js';
import { requestSpec } from './method-policy.js';
import type { RefusalContext } from './method-refusals.js';
import type { SessionObserver } from './observer.js';
import { DEFAULT_MAX_INPUT_ROUNDS, INPUT_REQUIRED_METHODS, gatherInputResponses, inputRequestContext, isInputRequired, readResultType, retryParams, type InputAnswerer } from './input-rounds.js';
import type { RequestOptions, SessionOptions } from './options.js';
import { stampRequestMeta, type RequestIdentity } from './request-meta.js';
import { formatIssues } from './validation.js';

const DEFAULT_TIMEOUT_MS = 60_000;
const TERMINAL_TASK_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);
/**
 * Timers that stand for work a caller awaits (a request's timeout and its maximum) keep the
 * process alive until they fire or are cleared, so a script whose only pending work is a call
 * gets its answer or its RequestTimeoutError instead of exiting early.
 */

/** What outbound requests need from their session (the method policy and its refusals read it too). */
export interface OutboundHost extends RefusalContext, MiddlewareSession {
  readonly clock: Clock;
  readonly ledger: RequestLedger;
  readonly observer: SessionObserver;
  readonly options: SessionOptions;
  write(message: JsonRpcMessage, relatedRequestId: RequestId | undefined): Promise<void>;
  /** Asks the machine again about a message the transport bounced (the server forgot the session): held, sent again, or neither. */
  bounced(method: string, kind: 'request' | 'notification'): 'hold' | 'send' | undefined;
  /** Sends `notifications/cancelled` through the session's gate. */
  sendNotification(method: string, params: JsonObject): Promise<void>;
  closedError(message: string): ConnectionClosedError;
  /** Why the connection is ending, when it ends with an error (a failed handshake, a fatal error). */
  endError(): Error | undefined;
  /** What a modern-era client states in every request's `_meta`; undefined when the revision has no per-request `_meta`. */
  requestIdentity(): RequestIdentity | undefined;
  /** Answers an input request of a Multi Round-Trip Request through this side's handler for its method. */
  readonly answerInput: InputAnswerer;
}

/** What a request that may need input rounds remembers between them. */
interface Rounds {
  /** The params the caller passed (each retry starts from them). */
  readonly params: JsonObject | undefined;
  count: number;
  /** The caller's `RequestOptions.onInputRound`. */
  readonly onRound: ((round: number) => void) | undefined;
}

export class OutboundRequests implements DeadlineExpiry<OutboundRecord> {
  readonly #host: OutboundHost;
  #nextId = 0;
  /**
   * Cancel notifications on their way out; the transport closes only once they are sent.
   * Created on first use, as `#rounds`: most sessions never cancel nor send an input round.
   */
  #cancelsInFlight: Set<Promise<void>> | undefined;
  /** Requests that may answer `input_required` (digest §6.6), with what their retries need. */
  #rounds: WeakMap<OutboundRecord, Rounds> | undefined;
  /** While the transport authorizes: the requests whose timeout waits for it to end. */
  #paused: Set<OutboundRecord> | undefined;
  /** When an authorization last ended and restarted the pending timeouts (`-Infinity` if none has). */
  timeoutsRestartedAt = Number.NEGATIVE_INFINITY;

  constructor(host: OutboundHost) {
    this.#host = host;
    host.ledger.deadlines.onExpire(this);
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
    const rounds = this.#rounds?.get(record);
    if (rounds !== undefined) this.#rounds?.set(record, { ...rounds, params });
  }

  #open(method: string, params: JsonObject | undefined, options: RequestOptions, held: boolean, awaited: boolean, gate: OutboundGate | undefined): Promise<JsonObject> {
    const host = this.#host;
    const id = ++this.#nextId;
    options.onRequestId?.(id);
    const progressToken = options.onProgress !== undefined ? id : undefined;
    const parent = options.relatedRequestId !== undefined ? host.ledger.inbound(options.relatedRequestId) : undefined;
    const ownMeta = isJsonObject(params?._meta) ? params._meta : undefined;
    const trace = outboundTraceContext(options.traceContext, ownMeta, () => this.#providedTrace(method), parent?.trace);
    let outParams: JsonObject | undefined = params;
    // The trace keys are settled here; the progress token and the modern era's identity are added where it is written (#write).
    if (trace !== undefined || (ownMeta !== undefined && hasTraceKeys(ownMeta))) {
      outParams = { ...params, _meta: { ...withoutTraceKeys(ownMeta), ...trace } };
    }
    return new Promise<JsonObject>((resolve, reject) => {
      // A nested request marks its parent handler as waiting for input until it settles.
      const release =
        parent === undefined
          ? undefined
          : () => {
              parent.waitingOn--;
              if (parent.waitingOn === 0) host.ledger.move(parent, 'inputReceived');
            };
      const record: OutboundRecord = {
        direction: 'outbound',
        id,
        method,
        startedAt: host.clock.now(),
        state: 'created',
        resolve: release === undefined ? resolve : (result) => (release(), resolve(result)),
        reject: watchedBy(gate, release === undefined ? reject : (error) => (release(), reject(error))),
        progressToken,
        onProgress: options.onProgress,
        timeoutMs: options.timeoutMs ?? host.options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? host.options.maxTotalTimeoutMs,
        resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? host.options.resetTimeoutOnProgress ?? true,
        taskAugmented: isJsonObject(params?.task),
        trace,
        awaited,
        customResult: options.custom?.result,
        timeoutAt: Number.POSITIVE_INFINITY,
        maxAt: Number.POSITIVE_INFINITY,
        timeoutSeq: 0,
        maxSeq: 0,
        slot: -1,
        detach: undefined,
      };
      host.ledger.addOutbound(record);
      host.observer.request(record, 'created', 'dispatch', true);
      if (parent !== undefined) {
        parent.waitingOn++;
        host.ledger.move(parent, 'awaitInput');
      }
      this.#armTimeout(record, record.startedAt);
      if (record.maxTotalTimeoutMs !== undefined) host.ledger.deadlines.setMaximum(record, record.startedAt + record.maxTotalTimeoutMs);
      const signal = options.signal;
      if (signal !== undefined) {
        const onAbort = (): void => this.cancel(record, abortReason(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        record.detach = () => signal.removeEventListener('abort', onAbort);
      }
      const message: JsonRpcRequest = { jsonrpc: '2.0', id, method };
      if (outParams !== undefined) message.params = outParams;
      // Only a revision with Multi Round-Trip Requests answers input_required (a held request's revision is not settled yet).
      if (INPUT_REQUIRED_METHODS.has(method) && (held || host.revision().features.multiRoundTrip)) {
        (this.#rounds ??= new WeakMap()).set(record, { params: outParams, count: 0, onRound: options.onInputRound });
      }
      if (gate !== undefined) gate.open(record, message, options, held); // the chain's next() starts it
      else if (held) host.ledger.hold({ kind: 'request', record, message, options, relatedRequestId: options.relatedRequestId });
      else this.#dispatch(record, message, options);
    });
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
    if (refusal !== undefined) ledger.settle(record, { event: 'fail', error: refusal });
    else if (options === undefined) this.#write(record, message, entry.relatedRequestId);
    else this.#dispatch(record, message, options);
  }

  #dispatch(record: OutboundRecord, message: JsonRpcRequest, options: RequestOptions): void {
    this.#host.ledger.move(record, 'dispatch');
    this.#write(record, message, options.relatedRequestId);
  }

  /** The one place a request is written: its `_meta` is completed here (`request-meta.ts`). */
  #write(record: OutboundRecord, message: JsonRpcRequest, relatedRequestId: RequestId | undefined): void {
    const host = this.#host;
    const stamped = stampRequestMeta(message, record.progressToken, host.role === 'client' ? host.requestIdentity() : undefined);
    host.write(stamped, relatedRequestId).catch((error: unknown) => {
      // The server forgot the session: the machine holds the request for the new one, sends it on one already up, or ends the connection.
      const again = error instanceof SessionExpiredError && host.ledger.outbound(record.id) === record ? host.bounced(record.method, 'request') : undefined;
      if (again === 'hold') return host.ledger.hold({ kind: 'request', record, message, options: undefined, relatedRequestId });
      if (again === 'send') return this.#write(record, message, relatedRequestId);
      host.ledger.settle(record, {
        event: 'fail',
        error: new TransportError(`Failed to send ${record.method}: ${error instanceof Error ? error.message : String(error)}`, { cause: error }),
      });
    });
  }

  /** Cancels a pending request by the caller's wish (its signal aborted). */
  cancel(record: OutboundRecord, reason: string): void {
    if (this.#host.ledger.outbound(record.id) !== record) return;
    if (cancellable(record) && !this.#host.ledger.isHeld(record)) this.#sendCancel(record.id, reason);
    this.#host.ledger.settle(record, { event: 'cancel', error: new RequestCancelledError(`${record.method} was cancelled: ${reason}`, { reason }) });
  }

  /** The transport could not deliver these requests, or their answers can no longer arrive. */
  undeliverable(ids: readonly RequestId[], cause: Error): void {
    const ledger = this.#host.ledger;
    for (const id of ids) {
      const record = ledger.outbound(id);
      if (record === undefined) continue;
      ledger.settle(record, { event: 'fail', error: new TransportError(`${record.method} could not be delivered: ${cause.message}`, { cause }) });
    }
  }

  /**
   * The connection is ending: every pending request rejects; `notify` sends their cancellations
   * first. One still held in the ledger (never sent, or bounced by the transport) rejects with
   * why the connection ended (a failed handshake's error) and needs no cancellation.
   */
  settleAll(notify: boolean): void {
    const host = this.#host;
    for (const record of host.ledger.pendingOutbound()) {
      const waiting = record.state === 'created' || host.ledger.isHeld(record);
      if (notify && !waiting && cancellable(record)) this.#sendCancel(record.id, 'The connection is closing');
      const ended = waiting ? host.endError() : undefined;
      host.ledger.settle(record, { event: 'abort', error: ended ?? host.closedError(`${record.method} did not complete: the connection closed`) });
    }
    for (const held of host.ledger.takeHeld()) if (held.kind === 'notification') held.reject(host.endError() ?? host.closedError(`${held.message.method} was not sent: the connection closed`));
    host.ledger.deadlines.stop();
  }

  onResult(message: JsonRpcResultResponse): void {
    const { ledger, observer } = this.#host;
    const record = ledger.outbound(message.id);
    if (record === undefined) {
      if (!ledger.wasRecentlySettled(message.id)) observer.diagnostic(`dropped a response for unknown request id ${String(message.id)}`);
      return;
    }
    if (record.customResult !== undefined) {
      validateCustom(record.customResult, message.result, (validation) => {
        if (validation.ok) ledger.settle(record, { event: 'complete', result: validation.value as JsonObject });
        else ledger.settle(record, { event: 'fail', error: new InvalidResultError(`Invalid result for ${record.method}: ${validation.message}`) });
      });
      return;
    }
    const revision = this.#host.revision();
    const spec = record.method === 'initialize' ? undefined : requestSpec(revision, record.method);
    if (spec === undefined) {
      ledger.settle(record, { event: 'complete', result: message.result });
      return;
    }
    const typed = readResultType(revision, record.method, message.result);
    if (typed instanceof Error) {
      ledger.settle(record, { event: 'fail', error: typed });
      return;
    }
    const parsed = spec.result.safeParse(typed);
    if (!parsed.success) {
      ledger.settle(record, { event: 'fail', error: new InvalidResultError(`Invalid result for ${record.method}: ${formatIssues(parsed.error)}`) });
      return;
    }
    const result = parsed.data as JsonObject;
    if (isInputRequired(revision, result)) {
      void this.#nextRound(record, result);
      return;
    }
    this.#retainTaskProgress(record, result);
    ledger.settle(record, { event: 'complete', result });
  }

  /**
   * One Multi Round-Trip round (digest §6.6): the request waits for input (`waitingForInput`,
   * its timeout paused, its maximum and signal live) while every input request is answered
   * through this side's handlers, then goes out again under a new id with the original
   * params, `inputResponses` keyed like the input requests, and `requestState` echoed as sent.
   * Past `maxInputRounds` rounds it fails with {@link InputRoundsExceededError}.
   */
  async #nextRound(record: OutboundRecord, result: JsonObject): Promise<void> {
    const host = this.#host;
    const { ledger } = host;
    const rounds = this.#rounds?.get(record) ?? { params: undefined, count: 0, onRound: undefined };
    const max = host.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    if (++rounds.count > max) {
      ledger.settle(record, { event: 'fail', error: new InputRoundsExceededError(`${record.method} still needed input after ${max} rounds; giving up`) });
      return;
    }
    const asked = result.inputRequests;
    record.input = { round: rounds.count, keys: isJsonObject(asked) ? Object.keys(asked) : [], firstId: record.input?.firstId ?? record.id };
    ledger.move(record, 'awaitInput');
    try {
      rounds.onRound?.(rounds.count);
    } catch (error) {
      host.observer.diagnostic('onInputRound threw', error);
    }
    ledger.deadlines.setTimeout(record, Number.POSITIVE_INFINITY);
    // Settling the request (cancel, maximum, close) aborts the handlers still answering.
    const controller = new AbortController();
    const detach = record.detach;
    record.detach = () => {
      controller.abort(new RequestCancelledError(`${record.method} ended while its input was being gathered`));
      detach?.();
    };
    const version = host.revision().version;
    let responses: JsonObject | undefined;
    try {
      const inputRequests = result.inputRequests;
      responses = isJsonObject(inputRequests)
        ? await gatherInputResponses(inputRequests, host.answerInput, (method) => inputRequestContext(record.id, method, version, controller.signal))
        : undefined;
    } catch (error) {
      ledger.settle(record, { event: 'fail', error: error instanceof Error ? error : new Error(String(error)) });
      return;
    }
    if (ledger.outbound(record.id) !== record) return; // settled while the input was gathered
    record.detach = detach;
    const id = ++this.#nextId;
    ledger.reissue(record, id);
    ledger.move(record, 'inputReceived');
    this.#armTimeout(record);
    this.#write(record, { jsonrpc: '2.0', id, method: record.method, params: retryParams(rounds.params, result, responses) }, undefined);
  }

  onErrorResponse(message: JsonRpcErrorResponse): void {
    const { ledger, observer } = this.#host;
    const id = message.id;
    if (id === undefined || id === null) {
      observer.diagnostic(`the peer reported an error without a request id: ${message.error.message}`, message.error);
      return;
    }
    const record = ledger.outbound(id);
    if (record === undefined) {
      if (!ledger.wasRecentlySettled(id)) observer.diagnostic(`dropped an error response for unknown request id ${String(id)}`);
      return;
    }
    ledger.settle(record, { event: 'fail', error: JsonRpcError.fromObject(message.error) });
  }

  /** `notifications/progress` for one of our requests: back to processing, timeout reset, callback. */
  onProgress(params: JsonObject): void {
    const token = params.progressToken;
    const progress = params.progress;
    if ((typeof token !== 'string' && typeof token !== 'number') || typeof progress !== 'number') return;
    const ledger = this.#host.ledger;
    const record = ledger.byProgressToken(token);
    if (record === undefined) {
      const retained = ledger.retainedProgress(token);
      if (retained !== undefined) this.#deliverProgress(retained, params);
      return; // otherwise unknown or settled: dropped silently
    }
    ledger.move(record, 'progress');
    if (record.resetTimeoutOnProgress) this.#armTimeout(record);
    if (record.onProgress !== undefined) this.#deliverProgress(record.onProgress, params);
  }

  /** `notifications/tasks/status`: a terminal status ends the progress a task kept (rule 49). */
  onTaskStatus(params: JsonObject): void {
    if (typeof params.taskId === 'string' && TERMINAL_TASK_STATUSES.has(String(params.status))) this.#host.ledger.releaseTask(params.taskId);
  }

  #deliverProgress(onProgress: (update: ProgressUpdate) => void, params: JsonObject): void {
    const update: ProgressUpdate = {
      progress: params.progress as number,
      ...(typeof params.total === 'number' ? { total: params.total } : {}),
      ...(typeof params.message === 'string' ? { message: params.message } : {}),
    };
    try {
      onProgress(update);
    } catch (error) {
      this.#host.observer.diagnostic('onProgress threw', error);
    }
  }

  /** Task-augmented requests (2025-11-25) keep their progress token after the CreateTaskResult until the task is terminal (rule 49). */
  #retainTaskProgress(record: OutboundRecord, result: JsonObject): void {
    if (!record.taskAugmented || record.progressToken === undefined || record.onProgress === undefined) return;
    const task = result.task;
    if (!isJsonObject(task) || typeof task.taskId !== 'string' || TERMINAL_TASK_STATUSES.has(String(task.status))) return;
    this.#host.ledger.retainProgress(record.progressToken, task.taskId, record.onProgress);
  }

  /**
   * The transport is authorizing (`true`) or done (`false`), see `TransportSink.onAuthorizing`:
   * the pending requests' timeouts stop, then each starts over in full. The maximum total
   * timeout (`maxTotalTimeoutMs`) keeps running: it is the caller's hard limit.
   */
  pauseTimeouts(active: boolean): void {
    const ledger = this.#host.ledger;
    if (active) {
      if (this.#paused !== undefined) return;
      const paused = (this.#paused = new Set());
      for (const record of ledger.pendingOutbound()) {
        if (record.timeoutAt === Number.POSITIVE_INFINITY) continue;
        ledger.deadlines.setTimeout(record, Number.POSITIVE_INFINITY);
        paused.add(record);
      }
      return;
    }
    const paused = this.#paused;
    this.#paused = undefined;
    this.timeoutsRestartedAt = this.#host.clock.now();
    for (const record of paused ?? []) {
      // Settled meanwhile, or between input rounds (the next round arms its own timer): nothing to restart.
      if (ledger.outbound(record.id) === record && record.state !== 'waitingForInput') this.#armTimeout(record);
    }
  }

  /** (Re)starts the request's timeout: `timeoutMs` from now, unless it has none or authorization pauses it. */
  #armTimeout(record: OutboundRecord, now?: number): void {
    const { clock, ledger } = this.#host;
    let at = Number.POSITIVE_INFINITY; // open by design (a listen stream): no timeout
    if (record.timeoutMs !== Infinity) {
      if (this.#paused === undefined) at = (now ?? clock.now()) + record.timeoutMs;
      else this.#paused.add(record); // armed once the authorization ends
    }
    ledger.deadlines.setTimeout(record, at);
  }

  /** A request's deadline passed (the ledger's deadlines call this); `maximum`: its hard maximum. */
  deadlineExpired(record: OutboundRecord, maximum: boolean): void {
    this.#expire(record, maximum ? (record.maxTotalTimeoutMs as number) : record.timeoutMs, maximum);
  }

  #expire(record: OutboundRecord, ms: number, maximum: boolean): void {
    if (this.#host.ledger.outbound(record.id) !== record) return;
    if (cancellable(record)) this.#sendCancel(record.id, maximum ? `Timed out after the ${ms} ms maximum` : `Timed out after ${ms} ms`);
    this.#host.ledger.settle(record, { event: 'expire', error: new RequestTimeoutError(record.id, ms, { maximum }) });
  }

  #sendCancel(requestId: RequestId, reason: string): void {
    const sending = this.#host
      .sendNotification('notifications/cancelled', { requestId, reason })
      .catch((error: unknown) => this.#host.observer.diagnostic('could not send notifications/cancelled', error))
      .finally(() => this.#cancelsInFlight?.delete(sending));
    (this.#cancelsInFlight ??= new Set()).add(sending);
  }
}

/**
 * `initialize` is never cancelled (rule 25); task-augmented requests use `tasks/cancel` (rule
 * 43); a request still held back was never sent, and one between input rounds was answered,
 * so there is nothing to cancel on the wire.
 */
function cancellable(record: OutboundRecord): boolean {
  // waitingForInput (an outbound request between Multi Round-Trip rounds): the server already answered its id.
  return record.method !== 'initialize' && !record.taskAugmented && record.state !== 'created' && record.state !== 'waitingForInput';
}

/** The reason an AbortSignal carries, as text. */
export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message;
  if (typeof reason === 'string') return reason;
  return 'aborted by the caller';
}
