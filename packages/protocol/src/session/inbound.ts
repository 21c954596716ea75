/**
 * Inbound requests: method and capability checks after the connection machine's gate, params
 * validated once, the handler run with its context, and ONE settle path
 * ({@link InboundRequests.settle}) for every outcome — completed, failed, cancelled by the
 * peer, aborted by the connection's end — which moves the ledger record and either sends the
 * one reply or aborts the handler's signal (never both, never twice).
 */
import { InvalidArgumentError, RequestCancelledError, toWireError } from '../errors/errors.js';
import {
  ErrorCode,
  errorResponse,
  isJsonObject,
  isRequestId,
  type JsonObject,
  type JsonRpcErrorResponse,
  type JsonRpcRequest,
  type JsonRpcResultResponse,
  type RequestId,
} from '../jsonrpc/messages.js';
import type { Role } from '../machines/connection-types.js';
import { capabilityFor, capabilityName, hasCapability } from '../capabilities/table.js';
import { hasFeature } from '../revisions/registry.js';
import type { Revision } from '../revisions/types.js';
import type { InboundContext } from '../transport/transport.js';
import type { Clock } from './clock.js';
import { HandlerContext, type HandlerContextHost } from './handler-context.js';
import type { InboundRecord, RequestLedger } from './ledger.js';
import type { SessionObserver } from './observer.js';
import type { RequestHandler, RequestOptions, SessionOptions } from './options.js';
import { formatIssues } from './validation.js';

/** What the inbound side needs from its session. */
export interface InboundHost {
  readonly role: Role;
  readonly clock: Clock;
  readonly ledger: RequestLedger;
  readonly observer: SessionObserver;
  readonly options: SessionOptions;
  revision(): Revision;
  protocolVersion(): string | undefined;
  strict(): boolean;
  isTerminated(): boolean;
  reply(message: JsonRpcResultResponse | JsonRpcErrorResponse, relatedRequestId: RequestId | undefined): void;
  notify(method: string, params: JsonObject, relatedRequestId: RequestId | undefined): Promise<void>;
  request(method: string, params: JsonObject | undefined, options: RequestOptions): Promise<JsonObject>;
}

/** How an inbound request ends. Only `complete` and `fail` are answered. */
export type InboundOutcome =
  | { readonly event: 'complete'; readonly result: unknown }
  | { readonly event: 'fail'; readonly error: unknown }
  | { readonly event: 'cancel' | 'abort'; readonly error: Error };

export class InboundRequests {
  readonly #host: InboundHost;
  readonly #handlers = new Map<string, RequestHandler>();
  /** Shared by every handler context of this session (see `HandlerContext`). */
  readonly #contextHost: HandlerContextHost;

  constructor(host: InboundHost) {
    this.#host = host;
    this.#contextHost = {
      isLive: (record) => host.ledger.inbound(record.id) === record,
      isTerminated: () => host.isTerminated(),
      emitProgress: (record, progress, total, message) => this.#emitProgress(record, progress, total, message),
      sendNotification: (method, params, relatedRequestId) => host.notify(method, params ?? {}, relatedRequestId),
      sendRequest: (method, params, options) => host.request(method, params, options),
    };
  }

  setHandler(method: string, handler: RequestHandler): void {
    this.#handlers.set(method, handler);
  }

  removeHandler(method: string): void {
    this.#handlers.delete(method);
  }

  /** Answers a request with an error without entering it into the ledger (it never reached a handler). */
  replyError(id: RequestId, code: number, message: string, data?: unknown): void {
    this.#host.reply(errorResponse(id, data === undefined ? { code, message } : { code, message, data }), id);
  }

  /** A request the connection machine accepted: check, validate, and run its handler. */
  handle(message: JsonRpcRequest, context: InboundContext | undefined): void {
    const host = this.#host;
    const { id, method } = message;
    const revision = host.revision();
    const spec = revision.requests[method];
    const inbound = host.role === 'server' ? 'clientToServer' : 'serverToClient';
    if (spec === undefined || (spec.direction !== 'both' && spec.direction !== inbound)) {
      this.replyError(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
      return;
    }
    const requirement = capabilityFor(method, revision.version, host.role);
    if (host.strict() && requirement !== undefined && requirement.holder === host.role && !hasCapability(host.options.capabilities(), requirement.path)) {
      this.replyError(id, ErrorCode.MethodNotFound, `Method not found: ${method} (the ${capabilityName(requirement.path)} capability was not declared)`);
      return;
    }
    const handler = this.#handlers.get(method);
    if (handler === undefined) {
      this.replyError(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
      return;
    }
    const parsed = spec.params.safeParse(message.params ?? {});
    if (!parsed.success) {
      this.replyError(id, ErrorCode.InvalidParams, `Invalid params for ${method}: ${formatIssues(parsed.error)}`);
      return;
    }
    this.#run(message, parsed.data as JsonObject, handler, context);
  }

  #run(message: JsonRpcRequest, params: JsonObject, handler: RequestHandler, context: InboundContext | undefined): void {
    const host = this.#host;
    const { id, method } = message;
    const meta = isJsonObject(params._meta) ? params._meta : undefined;
    const token = meta?.progressToken;
    const record: InboundRecord = {
      direction: 'inbound',
      id,
      method,
      startedAt: host.clock.now(),
      state: 'created',
      controller: new AbortController(),
      progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined,
      lastProgress: undefined,
      waitingOn: 0,
    };
    host.ledger.addInbound(record);
    host.observer.requestTransition(record, 'created', 'dispatch', true);
    host.ledger.move(record, 'dispatch');
    const ctx = new HandlerContext(this.#contextHost, record, context, meta, host.protocolVersion() ?? host.revision().version);
    host.ledger.move(record, 'process');
    let outcome: Promise<JsonObject>;
    try {
      outcome = Promise.resolve(handler(params, ctx));
    } catch (error) {
      outcome = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    outcome.then(
      (result) => this.settle(record, { event: 'complete', result }),
      (error: unknown) => this.settle(record, { event: 'fail', error }),
    );
  }

  /**
   * The one place an inbound request settles: moves its record to the terminal state (the
   * ledger forgets it), then sends the reply (`complete`, `fail`) or aborts the handler's
   * signal (`cancel`, `abort`: no reply). Returns false if it had already settled.
   */
  settle(record: InboundRecord, outcome: InboundOutcome): boolean {
    if (!this.#host.ledger.move(record, outcome.event)) return false;
    const { id, method } = record;
    switch (outcome.event) {
      case 'complete':
        if (isJsonObject(outcome.result)) this.#host.reply({ jsonrpc: '2.0', id, result: outcome.result }, id);
        else this.replyError(id, ErrorCode.InternalError, `Handler for ${method} returned a non-object result`);
        break;
      case 'fail': {
        const wire = toWireError(outcome.error);
        this.replyError(id, wire.code, wire.message, wire.data);
        break;
      }
      case 'cancel':
      case 'abort':
        record.controller.abort(outcome.error);
        break;
    }
    return true;
  }

  /** Aborts every running handler (the connection is ending); their replies are suppressed. */
  abortAll(error: () => Error): void {
    for (const record of this.#host.ledger.pendingInbound()) this.settle(record, { event: 'abort', error: error() });
  }

  /** `notifications/cancelled` from the peer: cancel that handler (never `initialize`). */
  onPeerCancel(params: JsonObject): void {
    const requestId = params.requestId;
    if (!isRequestId(requestId)) return;
    const record = this.#host.ledger.inbound(requestId);
    if (record === undefined || record.method === 'initialize') return; // unknown, finished, or uncancellable: ignore
    const reason = typeof params.reason === 'string' ? params.reason : 'cancelled by the peer';
    this.settle(record, { event: 'cancel', error: new RequestCancelledError(`${record.method} was cancelled by the peer: ${reason}`, { reason }) });
  }

  /** Sends one progress notification for an inbound request: only with a token, strictly increasing. */
  async #emitProgress(record: InboundRecord, progress: number, total: number | undefined, message: string | undefined): Promise<void> {
    if (record.progressToken === undefined) return;
    if (!Number.isFinite(progress) || (record.lastProgress !== undefined && progress <= record.lastProgress)) {
      throw new InvalidArgumentError(`Progress must increase with every notification (last ${String(record.lastProgress)}, got ${progress})`);
    }
    record.lastProgress = progress;
    const params: JsonObject = { progressToken: record.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && hasFeature(this.#host.protocolVersion(), 'progressMessage')) params.message = message;
    const live = this.#host.ledger.inbound(record.id) === record;
    await this.#host.notify('notifications/progress', params, live ? record.id : undefined);
  }
}
