/**
 * Everything the peer sends: the one envelope check per message, the connection machine's
 * gate, requests dispatched to their handler (one ledger record each, one settle path),
 * notifications, batches where the revision has them, and the messages the machine held back
 * during a server's handshake, replayed in arrival order. Nothing a peer sends may throw out
 * of here. Replies, and the answer of a handler's outcome, are written by `inbound-replies.ts`.
 */
import { InvalidArgumentError, JsonRpcError, RequestCancelledError } from '../errors/errors.js';
import {
  ErrorCode,
  classifyMessage,
  errorResponse,
  isJsonObject,
  isRequestId,
  requestOf,
  resultOf,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResultResponse,
  type RequestId,
} from '../jsonrpc/messages.js';
import { capabilityName } from '../capabilities/table.js';
import { batchRefusal, initializeInBatch, nestedBatch, requestIdInUse } from '../jsonrpc/envelope-rules.js';
import type { ConnectionEffect, ConnectionEvent, PeerInfo, Role } from '../machines/connection-types.js';
import { inboundRequestEvent } from '../machines/connection-steps.js';
import { readTraceContext } from '../observability/trace-context.js';
import { hasFeature } from '../revisions/registry.js';
import type { Revision } from '../revisions/types.js';
import type { InboundContext } from '../transport/transport.js';
import type { Clock } from './clock.js';
import { validateCustom, validateCustomAsync, withoutMeta, type CustomRequestSpec } from './custom-methods.js';
import { HandlerContext, type HandlerContextHost } from './handler-context.js';
import type { InboundRecord, RequestLedger } from './ledger.js';
import { InboundReplies } from './inbound-replies.js';
import { runMiddleware, type Middleware, type MiddlewareNext } from './middleware.js';
import { InboundRequestMiddlewareContext, NotificationMessageContext, type MiddlewareSession } from './middleware-context.js';
import { notificationSpec, requestSpec, requestVerdict, type MethodPolicyContext } from './method-policy.js';
import type { SessionObserver } from './observer.js';
import { declaredVersionOf } from './request-meta.js';
import type { HandlerLookup, NotificationHandler, NotificationOptions, RequestHandler, RequestOptions, SessionOptions } from './options.js';
import type { OutboundAnswers } from './outbound-answers.js';
import { acceptsNoParams, formatIssues } from './validation.js';
import { parseUnlessPassed } from './schema-verdict.js';

/** What a delivered notification's chain resolves with. */
const NOTHING: JsonObject = Object.freeze({});

/** Inbound messages held back while the server answers `initialize`; beyond it requests get -32600. */
const MAX_DEFERRED_INBOUND = 1024;

/** Every side answers `ping` unless its shared handlers say otherwise. */
const answerPing: RequestHandler = () => ({});

/** The shared handler of `method` (`SessionOptions.handlers`), else the built-in `ping`. */
export function sharedRequestHandler(handlers: HandlerLookup | undefined, method: string): RequestHandler | undefined {
  return handlers?.requestHandler(method) ?? (method === 'ping' ? answerPing : undefined);
}

/** What inbound dispatch needs from its session. */
export interface InboundHost extends MethodPolicyContext, MiddlewareSession {
  readonly role: Role;
  readonly clock: Clock;
  readonly ledger: RequestLedger;
  readonly observer: SessionObserver;
  readonly options: SessionOptions;
  /** Where the peer's answers to this side's own requests go (a request served without a session sends none). */
  readonly outbound: { readonly answers: Pick<OutboundAnswers, 'onResult' | 'onErrorResponse' | 'onProgress' | 'onTaskStatus'> };
  revision(): Revision;
  protocolVersion(): string | undefined;
  /** What the peer declared in the handshake (legacy era), once known. */
  peer(): PeerInfo | undefined;
  /** True while a reply can still be written (connected and not terminated). */
  canReply(): boolean;
  /** True once the session reached Terminated. */
  isTerminated(): boolean;
  /** True while the machine holds inbound messages back (a server answering initialize). */
  isHoldingBack(): boolean;
  /** Runs an event through the connection machine and returns the gate's effects. */
  dispatch(event: ConnectionEvent): readonly ConnectionEffect[];
  write(message: JsonRpcMessage, relatedRequestId: RequestId | undefined): Promise<void>;
  requestHandler(method: string): RequestHandler | undefined;
  notificationHandler(method: string): NotificationHandler | undefined;
  answerInitialize(message: JsonRpcRequest, context: InboundContext | undefined): void;
  notify(method: string, params: JsonObject | undefined, options: NotificationOptions): Promise<void>;
  request(method: string, params: JsonObject | undefined, options: RequestOptions): Promise<JsonObject>;
}

export class InboundDispatcher implements HandlerContextHost {
  readonly #host: InboundHost;
  /** Replies, and the one place a handler's outcome is answered. */
  readonly #replies: InboundReplies;
  /** Messages the machine held back, in arrival order (made at first use: most handshakes hold none back). */
  #deferred: Array<{ message: JsonRpcRequest | JsonRpcNotification; context: InboundContext | undefined }> | undefined;

  constructor(host: InboundHost) {
    this.#host = host;
    this.#replies = new InboundReplies(host);
  }

  // ---------------------------------------------------------------- HandlerContextHost
  // The dispatcher is the host every handler context of its session shares: methods on it,
  // not an object of seven closures per session that an idle session kept for its life.

  isLive(record: InboundRecord): boolean {
    return this.#host.ledger.inbound(record.id) === record;
  }

  isTerminated(): boolean {
    return this.#host.isTerminated();
  }

  peer(): PeerInfo | undefined {
    return this.#host.peer();
  }

  emitProgress(record: InboundRecord, progress: number, total: number | undefined, message: string | undefined): Promise<void> {
    return this.#emitProgress(record, progress, total, message);
  }

  notify(method: string, params: JsonObject | undefined, relatedRequestId: RequestId): Promise<void> {
    return this.#host.notify(method, params, { relatedRequestId });
  }

  request(method: string, params: JsonObject | undefined, options: RequestOptions): Promise<JsonObject> {
    return this.#host.request(method, params, options);
  }

  awaitInput(record: InboundRecord, inputKeys: readonly string[] | undefined): void {
    if (inputKeys !== undefined) record.input = { keys: [...inputKeys] };
    this.#host.ledger.move(record, 'awaitInput');
  }

  /** A parsed value from the transport: classified once, then routed. Never throws. */
  receive(value: unknown, context: InboundContext | undefined): void {
    const host = this.#host;
    try {
      host.observer.messageIn(value);
      // Most of what a client receives: a reply settles its request from the parsed value (no copy).
      const result = resultOf(value);
      if (result !== undefined) {
        host.outbound.answers.onResult((value as JsonRpcResultResponse).id, result);
        return;
      }
      // Most of what a server receives: a request, without `classifyMessage`'s wrapper.
      const request = requestOf(value);
      if (request !== undefined) {
        this.#onRequest(request, context);
        return;
      }
      const classified = classifyMessage(value);
      switch (classified.kind) {
        case 'request':
          this.#onRequest(classified.message, context);
          return;
        case 'notification':
          this.#onNotification(classified.message, context);
          return;
        case 'result':
          host.outbound.answers.onResult(classified.message.id, classified.message.result);
          return;
        case 'error':
          host.outbound.answers.onErrorResponse(classified.message);
          return;
        case 'batch':
          this.#onBatch(classified.items, context);
          return;
        case 'invalid':
          if (classified.reply) this.#reply(errorResponse(classified.id, { code: classified.code, message: `Invalid request: ${classified.reason}` }), undefined);
          else host.observer.diagnostic(`dropped an invalid message: ${classified.reason}`, value);
          return;
      }
    } catch (error) {
      host.observer.diagnostic('unexpected error while handling an inbound message', error);
    }
  }

  /** A frame that was not JSON: -32700 with `"id": null`. */
  receiveMalformed(text: string, reason: string): void {
    this.#host.observer.messageIn(text);
    this.#reply(errorResponse(null, { code: ErrorCode.ParseError, message: `Parse error: ${reason}` }), undefined);
  }

  /** Handles the held-back messages in order; stops if the machine holds back again (another handshake). */
  replayDeferred(): void {
    while (this.#deferred !== undefined && this.#deferred.length > 0 && !this.#host.isHoldingBack() && !this.#host.isTerminated()) {
      const next = this.#deferred.shift();
      if (next === undefined) break;
      if ('id' in next.message) this.#onRequest(next.message, next.context);
      else this.#onNotification(next.message, next.context);
    }
  }

  /** The connection ended: what was held back is not handled any more. */
  dropDeferred(): void {
    const dropped = this.#deferred?.length ?? 0;
    if (dropped > 0) this.#host.observer.diagnostic(`${dropped} message(s) that arrived during the handshake were not handled: the connection closed`);
    this.#deferred = undefined;
  }

  /** Aborts every running handler; their replies are suppressed. */
  abortAll(reason: () => Error): void {
    const ledger = this.#host.ledger;
    if (ledger.inboundCount === 0) return; // no handler running (the usual close): no copy to walk
    for (const record of ledger.pendingInbound()) ledger.settleInbound(record, { event: 'abort', reason: reason() });
  }

  /** Answers a request with an error (used by the handshake too). */
  replyError(id: RequestId, code: number, message: string, data?: unknown): void {
    this.#replies.replyError(id, code, message, data);
  }

  /** Answers a request with a result. */
  replyResult(id: RequestId, result: JsonObject): void {
    this.#replies.replyResult(id, result);
  }

  #reply(message: JsonRpcMessage, relatedRequestId: RequestId | undefined): void {
    this.#replies.reply(message, relatedRequestId);
  }

  #onBatch(items: unknown[], context: InboundContext | undefined): void {
    const refusal = batchRefusal(items, this.#host.protocolVersion());
    if (refusal !== undefined) {
      this.#reply(errorResponse(null, refusal), undefined);
      return;
    }
    for (const item of items) {
      if (isJsonObject(item) && item.method === 'initialize') {
        this.#reply(errorResponse(isRequestId(item.id) ? item.id : null, initializeInBatch()), undefined);
      } else if (Array.isArray(item)) {
        this.#reply(errorResponse(null, nestedBatch()), undefined);
      } else {
        this.receive(item, context);
      }
    }
  }

  #defer(message: JsonRpcRequest | JsonRpcNotification, context: InboundContext | undefined): void {
    const deferred = (this.#deferred ??= []);
    if (deferred.length < MAX_DEFERRED_INBOUND) {
      deferred.push({ message, context });
    } else if ('id' in message) {
      this.replyError(message.id, ErrorCode.InvalidRequest, `Too many messages (over ${MAX_DEFERRED_INBOUND}) before initialization completed`);
    } else {
      this.#host.observer.diagnostic(`dropped ${message.method}: too many messages before initialization completed`);
    }
  }

  #onRequest(message: JsonRpcRequest, context: InboundContext | undefined): void {
    const host = this.#host;
    const { id, method } = message;
    if (host.ledger.hasInbound(id)) {
      this.#reply(errorResponse(id, requestIdInUse(id)), id);
      return;
    }
    if (method === 'server/discover' && host.role === 'server' && host.requestHandler(method) === undefined) {
      // A server that cannot answer discovery is a legacy server to a probing client (MCP
      // 2026-07-28 basic/versioning §Backward Compatibility):
      // -32601, before the machine sees the request, so the probe does not start a modern
      // connection and the client's fallback handshake still finds Uninitialized.
      this.replyError(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
      return;
    }
    const declaredVersion = declaredVersionOf(message.params);
    for (const effect of host.dispatch(inboundRequestEvent(method, declaredVersion))) {
      if (effect.type === 'deferInbound') return this.#defer(message, context);
      if (effect.type === 'rejectInbound') return this.replyError(id, effect.code, effect.message, effect.data);
      if (effect.type === 'dropInbound') return host.observer.diagnostic(`dropped request ${method}: ${effect.reason}`);
    }
    if (method === 'initialize' && host.role === 'server') {
      host.answerInitialize(message, context);
      return;
    }
    const spec = requestSpec(host.revision(), method);
    const custom = spec === undefined ? host.options.customMethods?.request(method) : undefined;
    if (custom !== undefined) return this.#onCustomRequest(message, custom, context);
    const verdict = requestVerdict(host, method, 'receive', true);
    if (spec === undefined || verdict.kind !== 'allowed') {
      const undeclared = verdict.kind === 'undeclared' ? ` (the ${capabilityName(verdict.path)} capability was not declared)` : '';
      this.replyError(id, ErrorCode.MethodNotFound, `Method not found: ${method}${undeclared}`);
      return;
    }
    const handler = host.requestHandler(method);
    if (handler === undefined) {
      this.replyError(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
      return;
    }
    const params = message.params ?? {};
    const parsed = parseUnlessPassed(spec.params, params);
    if (parsed !== undefined && !parsed.success) {
      this.replyError(id, ErrorCode.InvalidParams, `Invalid params for ${method}: ${formatIssues(parsed.error)}`);
      return;
    }
    this.#runHandler(message, parsed === undefined ? params : (parsed.data as JsonObject), handler, context);
  }

  /**
   * A custom request this side registered: the same ledger record and settle path as a spec
   * method; its params (without `_meta`) are checked before the handler (-32602) and its
   * result after (-32603).
   */
  #onCustomRequest(message: JsonRpcRequest, custom: CustomRequestSpec, context: InboundContext | undefined): void {
    const { id, method } = message;
    const handler = this.#host.requestHandler(method);
    if (handler === undefined) {
      this.replyError(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
      return;
    }
    const checked: RequestHandler = async (params, ctx) => {
      let input = withoutMeta(params);
      if (custom.params !== undefined) {
        const validation = await validateCustomAsync(custom.params, input);
        if (!validation.ok) throw new JsonRpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${validation.message}`);
        input = validation.value as JsonObject;
      }
      const result = await handler(input, ctx);
      if (custom.result === undefined) return result;
      const validation = await validateCustomAsync(custom.result, result);
      if (!validation.ok) throw new Error(`The handler for ${method} returned an invalid result: ${validation.message}`);
      return validation.value as JsonObject;
    };
    this.#runHandler(message, message.params ?? {}, checked, context);
  }

  #runHandler(message: JsonRpcRequest, params: JsonObject, handler: RequestHandler, context: InboundContext | undefined): void {
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
      controller: undefined,
      abortReason: undefined,
      progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined,
      trace: meta === undefined ? undefined : readTraceContext(meta),
      lastProgress: undefined,
      waitingOn: 0,
    };
    host.ledger.addInbound(record);
    host.observer.request(record, 'created', 'dispatch', true);
    host.ledger.move(record, 'dispatch');
    const revision = host.revision();
    const ctx = new HandlerContext(this, record, context, meta, host.protocolVersion() ?? revision.version, revision.features.perRequestMeta);
    host.ledger.move(record, 'process');
    const chain = host.options.middleware?.for(method);
    let outcome: unknown;
    if (chain !== undefined && chain.length > 0) {
      outcome = this.#throughMiddleware(chain, handler, params, ctx, record);
    } else {
      try {
        outcome = handler(params, ctx);
      } catch (error) {
        outcome = Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    // A value or a promise: answered where a reaction to `Promise.resolve(outcome)` would run (inbound-replies.ts).
    this.#replies.answer(outcome, record, revision);
  }

  /** The chain runs inside the record: its time is the request's, its signal the record's. */
  #throughMiddleware(chain: readonly Middleware[], handler: RequestHandler, params: JsonObject, ctx: HandlerContext, record: InboundRecord): Promise<JsonObject> {
    const terminal: MiddlewareNext = () => Promise.resolve(handler(params, ctx));
    return runMiddleware(chain, new InboundRequestMiddlewareContext(this.#host, params, ctx, record, record.startedAt), terminal);
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
    await this.#host.notify('notifications/progress', params, live ? { relatedRequestId: record.id } : {});
  }

  #onNotification(message: JsonRpcNotification, context: InboundContext | undefined): void {
    const host = this.#host;
    const { method } = message;
    for (const effect of host.dispatch({ type: 'inboundNotification', method })) {
      if (effect.type === 'deferInbound') return this.#defer(message, context);
      if (effect.type === 'dropInbound') return host.observer.diagnostic(`dropped notification ${method}: ${effect.reason}`);
    }
    const params = message.params ?? {};
    const spec = notificationSpec(host.revision(), method);
    const custom = spec === undefined ? host.options.customMethods?.notification(method) : undefined;
    if (custom?.params !== undefined) {
      validateCustom(custom.params, withoutMeta(params), (validation) => {
        if (validation.ok) this.#deliverNotification(method, validation.value as JsonObject, context);
        else host.observer.diagnostic(`dropped ${method} with invalid params: ${validation.message}`);
      });
      return;
    }
    if (custom !== undefined) return this.#deliverNotification(method, withoutMeta(params), context);
    if (spec !== undefined && !(message.params === undefined && acceptsNoParams(spec.params))) {
      const parsed = parseUnlessPassed(spec.params, params);
      if (parsed !== undefined && !parsed.success) {
        host.observer.diagnostic(`dropped ${method} with invalid params: ${formatIssues(parsed.error)}`);
        return;
      }
    }
    if (method === 'notifications/cancelled') this.#onPeerCancel(params);
    else if (method === 'notifications/progress') host.outbound.answers.onProgress(params);
    else if (method === 'notifications/tasks/status') host.outbound.answers.onTaskStatus(params);
    this.#deliverNotification(method, params, context);
  }

  #deliverNotification(method: string, params: JsonObject, context: InboundContext | undefined): void {
    const host = this.#host;
    const handler = host.notificationHandler(method);
    const chain = host.options.middleware?.for(method);
    if (chain !== undefined && chain.length > 0) {
      const terminal: MiddlewareNext = () => {
        if (handler === undefined) return Promise.resolve(NOTHING);
        return Promise.resolve(handler(params, { method, authInfo: context?.authInfo, transportContext: context })).then(() => NOTHING);
      };
      const version = host.protocolVersion() ?? host.revision().version;
      runMiddleware(chain, new NotificationMessageContext(host, 'inbound', method, params, version, context), terminal).catch((error: unknown) =>
        host.observer.diagnostic(`notification ${method} failed in its middleware or handler`, error),
      );
      return;
    }
    if (handler === undefined) return;
    try {
      const done = handler(params, { method, authInfo: context?.authInfo, transportContext: context });
      if (done instanceof Promise) done.catch((error: unknown) => host.observer.diagnostic(`notification handler for ${method} failed`, error));
    } catch (error) {
      host.observer.diagnostic(`notification handler for ${method} threw`, error);
    }
  }

  #onPeerCancel(params: JsonObject): void {
    const requestId = params.requestId;
    if (!isRequestId(requestId)) return;
    const record = this.#host.ledger.inbound(requestId);
    if (record === undefined || record.method === 'initialize') return; // unknown, finished, or uncancellable: ignore
    const reason = typeof params.reason === 'string' ? params.reason : 'cancelled by the peer';
    this.#host.ledger.settleInbound(record, { event: 'cancel', reason: new RequestCancelledError(`${record.method} was cancelled by the peer: ${reason}`, { reason }) });
  }
}

