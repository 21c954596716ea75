/**
 * The contexts middleware receive (see `middleware.ts`), one class per kind of message. They
 * are built only when a chain runs, and read what they expose from the request's own records
 * (its handler context, its ledger record) instead of copying it.
 */
import { InvalidStateError } from '../errors/errors.js';
import type { JsonObject, RequestId } from '../jsonrpc/messages.js';
import type { RequestStateKind } from '../machines/request.js';
import type { TraceContext } from '../observability/trace-context.js';
import { getRevision } from '../revisions/registry.js';
import type { HttpRequestInfo, InboundContext } from '../transport/transport.js';
import type { ProtocolEra } from '../versions.js';
import type { Requester } from './handler-context.js';
import type { JsonRpcNotification } from '../jsonrpc/messages.js';
import type { Clock } from './clock.js';
import { answerInput } from './input-rounds.js';
import type { InboundRecord, OutboundRecord } from './ledger.js';
import { runMiddleware, type Middleware, type NotificationMiddlewareContext, type RequestMiddlewareContext } from './middleware.js';
import type { MiddlewareStack } from './middleware.js';
import type { RequestContext, RequestHandler } from './options.js';

/** Where a session is: what every context reads from it. */
export interface MiddlewareSession {
  readonly sessionId: string;
  readonly transportSessionId: string | undefined;
  /** The negotiated protocol version, once known. */
  protocolVersion(): string | undefined;
}

function eraOf(version: string | undefined): ProtocolEra | undefined {
  return version === undefined ? undefined : getRevision(version)?.era;
}

/** A request the peer sent, on its way to this side's handler. */
export class InboundRequestMiddlewareContext implements RequestMiddlewareContext {
  readonly kind = 'request';
  readonly direction = 'inbound';
  readonly params: JsonObject;
  readonly startedAt: number;
  readonly #session: MiddlewareSession;
  readonly #handler: RequestContext;
  readonly #record: InboundRecord | undefined;

  constructor(session: MiddlewareSession, params: JsonObject, handler: RequestContext, record: InboundRecord | undefined, startedAt: number) {
    this.#session = session;
    this.params = params;
    this.#handler = handler;
    this.#record = record;
    this.startedAt = startedAt;
  }

  get sessionId(): string {
    return this.#session.sessionId;
  }

  get transportSessionId(): string | undefined {
    return this.#handler.transportContext?.sessionId ?? this.#session.transportSessionId;
  }

  get method(): string {
    return this.#handler.method;
  }

  get id(): RequestId {
    return this.#handler.requestId;
  }

  get inputKey(): string | undefined {
    return this.#handler.inputKey;
  }

  get protocolVersion(): string {
    return this.#handler.protocolVersion;
  }

  get era(): ProtocolEra | undefined {
    return eraOf(this.#handler.protocolVersion);
  }

  get authInfo(): unknown {
    return this.#handler.authInfo;
  }

  get transportContext(): InboundContext | undefined {
    return this.#handler.transportContext;
  }

  get http(): HttpRequestInfo | undefined {
    return this.#handler.transportContext?.http;
  }

  get traceContext(): TraceContext | undefined {
    return this.#handler.traceContext;
  }

  get signal(): AbortSignal {
    return this.#handler.signal;
  }

  get state(): RequestStateKind | undefined {
    return this.#record?.state;
  }

  get requester(): Requester | undefined {
    return this.#handler.requester;
  }

  propagate(): void {
    throw new InvalidStateError('propagate() sets the trace context of an outbound request; this one is inbound', 'inbound');
  }
}

/** What an outbound request's context needs from the request it wraps. */
export interface OutboundRequestHandle {
  readonly record: OutboundRecord;
  readonly signal: AbortSignal;
  readonly protocolVersion: string | undefined;
  /** Sets the trace context the request will carry (before it is written). */
  propagate(trace: TraceContext): void;
}

/** A request this side sends, on its way to the transport. */
export class OutboundRequestMiddlewareContext implements RequestMiddlewareContext {
  readonly kind = 'request';
  readonly direction = 'outbound';
  readonly sessionId: string;
  readonly transportSessionId: string | undefined;
  readonly params: JsonObject;
  readonly authInfo: unknown = undefined;
  readonly transportContext: InboundContext | undefined = undefined;
  readonly http: HttpRequestInfo | undefined = undefined;
  readonly requester: Requester | undefined = undefined;
  readonly #handle: OutboundRequestHandle;

  constructor(session: MiddlewareSession, params: JsonObject, handle: OutboundRequestHandle) {
    this.sessionId = session.sessionId;
    this.transportSessionId = session.transportSessionId;
    this.params = params;
    this.#handle = handle;
  }

  get method(): string {
    return this.#handle.record.method;
  }

  get id(): RequestId {
    return this.#handle.record.id;
  }

  get protocolVersion(): string | undefined {
    return this.#handle.protocolVersion;
  }

  get era(): ProtocolEra | undefined {
    return eraOf(this.#handle.protocolVersion);
  }

  get traceContext(): TraceContext | undefined {
    return this.#handle.record.trace;
  }

  get signal(): AbortSignal {
    return this.#handle.signal;
  }

  get state(): RequestStateKind {
    return this.#handle.record.state;
  }

  get startedAt(): number {
    return this.#handle.record.startedAt;
  }

  propagate(trace: TraceContext): void {
    this.#handle.propagate(trace);
  }
}

/** A notification, either way. */
export class NotificationMessageContext implements NotificationMiddlewareContext {
  readonly kind = 'notification';
  readonly sessionId: string;
  readonly transportSessionId: string | undefined;
  readonly era: ProtocolEra | undefined;
  readonly authInfo: unknown;
  readonly http: HttpRequestInfo | undefined;
  readonly traceContext: TraceContext | undefined = undefined;

  constructor(
    session: MiddlewareSession,
    readonly direction: 'inbound' | 'outbound',
    readonly method: string,
    readonly params: JsonObject,
    readonly protocolVersion: string | undefined,
    readonly transportContext: InboundContext | undefined,
  ) {
    this.sessionId = session.sessionId;
    this.transportSessionId = transportContext?.sessionId ?? session.transportSessionId;
    this.era = eraOf(protocolVersion);
    this.authInfo = transportContext?.authInfo;
    this.http = transportContext?.http;
  }
}

/** What a written notification's chain resolves with. */
const WRITTEN: JsonObject = Object.freeze({});

/** Writes an outbound notification through `chain` (`write` is the terminal step). */
export async function notifyThroughMiddleware(chain: readonly Middleware[], session: MiddlewareSession, message: JsonRpcNotification, protocolVersion: string | undefined, write: () => Promise<void>): Promise<void> {
  const context = new NotificationMessageContext(session, 'outbound', message.method, message.params ?? {}, protocolVersion, undefined);
  await runMiddleware(chain, context, () => write().then(() => WRITTEN));
}

/**
 * A Multi Round-Trip input request reaches `handler` through the middleware, as a legacy
 * server's request of the same method would (it has no ledger record: `state` is undefined).
 */
export function answerInputThroughMiddleware(
  host: MiddlewareSession & { readonly options: { readonly middleware?: MiddlewareStack }; readonly clock: Clock },
  handler: RequestHandler | undefined,
  method: string,
  params: JsonObject,
  context: RequestContext,
): Promise<JsonObject> {
  const chain = host.options.middleware?.for(method);
  if (chain === undefined || chain.length === 0) return answerInput(handler, method, params, context);
  return runMiddleware(chain, new InboundRequestMiddlewareContext(host, params, context, undefined, host.clock.now()), () => answerInput(handler, method, params, context));
}
