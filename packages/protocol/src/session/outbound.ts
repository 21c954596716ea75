/**
 * Outbound requests: ids, the ledger record of each, its timeout (reset on progress under a
 * hard maximum), cancellation by signal, the responses and progress that come back, and the
 * reports of a transport that cannot deliver. Every outcome goes through the ledger's one
 * `settle()`.
 */
import {
  CapabilityNotSupportedError,
  InvalidResultError,
  InvalidStateError,
  JsonRpcError,
  NoReturnChannelError,
  RequestCancelledError,
  RequestTimeoutError,
  TransportError,
  type ConnectionClosedError,
} from '../errors/errors.js';
import { isJsonObject, type JsonObject, type JsonRpcErrorResponse, type JsonRpcRequest, type JsonRpcResultResponse, type RequestId } from '../jsonrpc/messages.js';
import type { PeerInfo, Role } from '../machines/connection-types.js';
import { capabilityFor, capabilityName, hasCapability } from '../capabilities/table.js';
import type { Revision } from '../revisions/types.js';
import type { Transport } from '../transport/transport.js';
import type { Clock } from './clock.js';
import type { OutboundRecord, ProgressUpdate, QueuedSend, RequestLedger } from './ledger.js';
import type { SessionObserver } from './observer.js';
import type { RequestOptions, SessionOptions } from './options.js';
import { TERMINAL_TASK_STATUSES } from './notifications.js';
import { formatIssues } from './validation.js';

const DEFAULT_TIMEOUT_MS = 60_000;

/** What the outbound side needs from its session. */
export interface OutboundHost {
  readonly role: Role;
  readonly clock: Clock;
  readonly ledger: RequestLedger;
  readonly observer: SessionObserver;
  readonly options: SessionOptions;
  revision(): Revision;
  peer(): PeerInfo | undefined;
  stateKind(): string;
  strict(): boolean;
  write(message: JsonRpcRequest, relatedRequestId: RequestId | undefined): Promise<void>;
  notify(method: string, params: JsonObject): Promise<void>;
  closedError(message: string): ConnectionClosedError;
  /** The error the connection is ending with (a failed handshake's), if any. */
  endError(): Error | undefined;
}

export class OutboundRequests {
  readonly #host: OutboundHost;
  #nextId = 0;
  /** Cancel notifications on their way out; the transport closes only once they are sent. */
  readonly #cancelsInFlight = new Set<Promise<void>>();

  constructor(host: OutboundHost) {
    this.#host = host;
  }

  /** Settles once every cancel notification sent so far has left. */
  cancelsSent(): Promise<unknown> {
    return Promise.allSettled([...this.#cancelsInFlight]);
  }

  /** Why `method` may not be sent on this connection, or undefined when it may. */
  refusal(method: string, options: RequestOptions, transport: Transport): Error | undefined {
    if (method === 'initialize' || method === 'ping') return undefined;
    const host = this.#host;
    const revision = host.revision();
    const spec = revision.requests[method];
    if (spec === undefined) {
      return new CapabilityNotSupportedError(method, `protocol revision ${revision.version}`, 'peer', {
        message: `${method} does not exist in the negotiated protocol revision ${revision.version}`,
      });
    }
    if (spec.direction !== 'both' && spec.direction !== (host.role === 'client' ? 'clientToServer' : 'serverToClient')) {
      return new InvalidStateError(`A ${host.role} cannot send ${method}`, host.stateKind());
    }
    if (host.role === 'server' && transport.canSendRequests === false) {
      return new NoReturnChannelError(`Cannot send ${method}: this transport has no channel for server-to-client requests`);
    }
    if (options.skipCapabilityCheck === true || !host.strict()) return undefined;
    const requirement = capabilityFor(method, revision.version, host.role === 'client' ? 'server' : 'client');
    if (requirement !== undefined && requirement.holder !== host.role && !hasCapability(host.peer()?.capabilities, requirement.path)) {
      return new CapabilityNotSupportedError(method, capabilityName(requirement.path), 'peer');
    }
    return undefined;
  }

  /** Why notification `method` may not be sent (unknown in the revision, or a capability this side lacks). */
  notificationRefusal(method: string): Error | undefined {
    if (method === 'notifications/cancelled' || method === 'notifications/initialized') return undefined;
    const host = this.#host;
    const revision = host.revision();
    if (revision.notifications[method] === undefined && !method.startsWith('notifications/experimental')) {
      return new CapabilityNotSupportedError(method, `protocol revision ${revision.version}`, 'local', {
        message: `${method} does not exist in protocol revision ${revision.version}`,
      });
    }
    const requirement = capabilityFor(method, revision.version, host.role === 'client' ? 'server' : 'client');
    if (host.strict() && requirement !== undefined && requirement.holder === host.role && !hasCapability(host.options.capabilities(), requirement.path)) {
      return new CapabilityNotSupportedError(method, capabilityName(requirement.path), 'local');
    }
    return undefined;
  }

  /**
   * Enters a request into the ledger, arms its timers and signal, and sends it — or, when
   * `queued`, leaves it waiting in state `created` for {@link dispatchQueued}. `keepAlive`
   * says whether its timers keep the process alive (false only for keep-alive pings).
   */
  send(method: string, params: JsonObject | undefined, options: RequestOptions, keepAlive: boolean, queued = false): Promise<JsonObject> {
    const host = this.#host;
    const id = ++this.#nextId;
    const progressToken = options.onProgress !== undefined ? id : undefined;
    let outParams: JsonObject | undefined = params;
    if (progressToken !== undefined) {
      const meta = isJsonObject(params?._meta) ? params._meta : {};
      outParams = { ...params, _meta: { ...meta, progressToken } };
    }
    const parent = options.relatedRequestId !== undefined ? host.ledger.inbound(options.relatedRequestId) : undefined;
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
        reject: release === undefined ? reject : (error) => (release(), reject(error)),
        progressToken,
        onProgress: options.onProgress,
        timeoutMs: options.timeoutMs ?? host.options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? host.options.maxTotalTimeoutMs,
        resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? host.options.resetTimeoutOnProgress ?? true,
        taskAugmented: isJsonObject(params?.task),
        keepAlive,
        timer: undefined,
        maxTimer: undefined,
        detach: undefined,
        queued: undefined,
      };
      host.ledger.addOutbound(record);
      host.observer.requestTransition(record, 'created', 'dispatch', true);
      if (parent !== undefined) {
        parent.waitingOn++;
        host.ledger.move(parent, 'awaitInput');
      }
      this.#armTimeout(record);
      if (record.maxTotalTimeoutMs !== undefined) {
        const max = record.maxTotalTimeoutMs;
        record.maxTimer = host.clock.setTimeout(() => this.#expire(record, max, true), max, { keepAlive });
      }
      const signal = options.signal;
      if (signal !== undefined) {
        const onAbort = () => this.#cancel(record, abortReason(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        record.detach = () => signal.removeEventListener('abort', onAbort);
      }
      const queuedSend = { params: outParams, relatedRequestId: options.relatedRequestId, skipCapabilityCheck: options.skipCapabilityCheck === true };
      if (queued) record.queued = queuedSend;
      else this.#dispatch(record, queuedSend);
    });
  }

  /**
   * The connection reached Operating: every request that waited in the ledger goes out, in the
   * order it was made, unless the negotiated revision or the server's capabilities refuse it
   * now (it then fails with that error, never sent).
   */
  dispatchQueued(transport: Transport): void {
    for (const record of this.#host.ledger.pendingOutbound()) {
      const queued = record.queued;
      if (queued === undefined) continue;
      record.queued = undefined;
      const refusal = this.refusal(record.method, { skipCapabilityCheck: queued.skipCapabilityCheck }, transport);
      if (refusal !== undefined) this.#host.ledger.settle(record, { event: 'fail', error: refusal });
      else this.#dispatch(record, queued);
    }
  }

  #dispatch(record: OutboundRecord, send: QueuedSend): void {
    const { id, method } = record;
    const message: JsonRpcRequest = { jsonrpc: '2.0', id, method };
    if (send.params !== undefined) message.params = send.params;
    this.#host.ledger.move(record, 'dispatch');
    this.#host.write(message, send.relatedRequestId).catch((error: unknown) => {
      this.#host.ledger.settle(record, {
        event: 'fail',
        error: new TransportError(`Failed to send ${method}: ${error instanceof Error ? error.message : String(error)}`, { cause: error }),
      });
    });
  }

  /**
   * Settles every pending request with connection-closed; `notify` sends `notifications/cancelled`
   * first. A request still waiting for the handshake gets the error the connection ends with
   * (the failed handshake's), since that is why it never went out.
   */
  settleAll(notify: boolean): void {
    const ledger = this.#host.ledger;
    for (const record of ledger.pendingOutbound()) {
      if (notify && cancellable(record)) this.#sendCancel(record.id, 'The connection is closing');
      const ending = record.queued !== undefined ? this.#host.endError() : undefined;
      ledger.settle(record, { event: 'abort', error: ending ?? this.#host.closedError(`${record.method} did not complete: the connection closed`) });
    }
    ledger.clearTaskProgress();
  }

  /**
   * The transport cannot deliver these requests, or their responses can no longer arrive:
   * each still pending settles with a local `TransportError` (category `interrupted`) whose
   * cause is the transport's error. Ids already settled or unknown are ignored.
   */
  undeliverable(ids: readonly RequestId[], error: Error): void {
    const ledger = this.#host.ledger;
    for (const id of ids) {
      const record = ledger.outbound(id);
      if (record === undefined) continue;
      ledger.settle(record, {
        event: 'abort',
        error: new TransportError(`${record.method} could not be delivered or answered: ${error.message}`, { cause: error }),
      });
    }
  }

  onResult(message: JsonRpcResultResponse): void {
    const { ledger, observer } = this.#host;
    const record = ledger.outbound(message.id);
    if (record === undefined) {
      if (!ledger.wasRecentlySettled(message.id)) observer.diagnostic(`dropped a response for unknown request id ${String(message.id)}`);
      return;
    }
    // initialize is validated by the handshake, against the revision the answer names.
    const spec = record.method === 'initialize' ? undefined : this.#host.revision().requests[record.method];
    if (spec === undefined) {
      ledger.settle(record, { event: 'complete', result: message.result });
      return;
    }
    const parsed = spec.result.safeParse(message.result);
    if (!parsed.success) {
      ledger.settle(record, { event: 'fail', error: new InvalidResultError(`Invalid result for ${record.method}: ${formatIssues(parsed.error)}`) });
      return;
    }
    const result = parsed.data as JsonObject;
    const task = result.task;
    if (record.taskAugmented && isJsonObject(task) && typeof task.taskId === 'string' && !TERMINAL_TASK_STATUSES.has(String(task.status))) {
      ledger.retainTaskProgress(record, task.taskId);
    }
    ledger.settle(record, { event: 'complete', result });
  }

  onErrorResponse(message: JsonRpcErrorResponse): void {
    const { ledger, observer } = this.#host;
    const id = message.id;
    if (id === null) {
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

  /** `notifications/progress` from the peer: moves the request, resets its timeout, delivers the update. */
  onProgress(params: JsonObject): void {
    const ledger = this.#host.ledger;
    const token = params.progressToken;
    if ((typeof token !== 'string' && typeof token !== 'number') || typeof params.progress !== 'number') return;
    const record = ledger.byProgressToken(token);
    if (record === undefined) {
      const retained = ledger.retainedTaskProgress(token);
      if (retained !== undefined) this.#deliverProgress(retained, params);
      return; // otherwise unknown or settled: dropped silently
    }
    ledger.move(record, 'progress');
    if (record.resetTimeoutOnProgress) this.#armTimeout(record);
    if (record.onProgress !== undefined) this.#deliverProgress(record.onProgress, params);
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

  #armTimeout(record: OutboundRecord): void {
    const clock = this.#host.clock;
    if (record.timer !== undefined) clock.clearTimeout(record.timer);
    record.timer = clock.setTimeout(() => this.#expire(record, record.timeoutMs, false), record.timeoutMs, { keepAlive: record.keepAlive });
  }

  #expire(record: OutboundRecord, ms: number, maximum: boolean): void {
    if (this.#host.ledger.outbound(record.id) !== record) return;
    if (cancellable(record)) this.#sendCancel(record.id, maximum ? `Timed out after the ${ms} ms maximum` : `Timed out after ${ms} ms`);
    this.#host.ledger.settle(record, { event: 'expire', error: new RequestTimeoutError(record.id, ms, { maximum }) });
  }

  #cancel(record: OutboundRecord, reason: string): void {
    if (this.#host.ledger.outbound(record.id) !== record) return;
    if (cancellable(record)) this.#sendCancel(record.id, reason);
    this.#host.ledger.settle(record, { event: 'cancel', error: new RequestCancelledError(`${record.method} was cancelled: ${reason}`, { reason }) });
  }

  #sendCancel(requestId: RequestId, reason: string): void {
    const sending = this.#host
      .notify('notifications/cancelled', { requestId, reason })
      .catch((error: unknown) => this.#host.observer.diagnostic('could not send notifications/cancelled', error))
      .finally(() => this.#cancelsInFlight.delete(sending));
    this.#cancelsInFlight.add(sending);
  }
}

/**
 * `initialize` is never cancelled (rule 25); task-augmented requests use `tasks/cancel` (rule
 * 43); a request still waiting for the handshake was never sent, so there is nothing to cancel.
 */
function cancellable(record: OutboundRecord): boolean {
  return record.method !== 'initialize' && !record.taskAugmented && record.queued === undefined;
}

export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message;
  if (typeof reason === 'string') return reason;
  return 'aborted by the caller';
}
