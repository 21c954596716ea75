/**
 * Options and handler types of the session runner.
 */
import type { Requester } from './handler-context.js';
import type { InboundContext } from '../transport/transport.js';
import type { JsonObject, RequestId } from '../jsonrpc/messages.js';
import type { Role, CloseReason } from '../machines/connection-types.js';
import type { InspectListener } from '../observability/events.js';
import type { TraceContext, TraceContextProvider } from '../observability/trace-context.js';
import type { Clock } from './clock.js';
import type { CustomMethodTable, CustomNotificationSpec, CustomRequestSpec } from './custom-methods.js';
import type { ProgressUpdate } from './ledger.js';
import type { MiddlewareStack } from './middleware.js';

/** What a client sends in `initialize` (the runner fills in `protocolVersion` when absent). */
export interface InitializeParams {
  protocolVersion?: string;
  capabilities: JsonObject;
  clientInfo: { name: string; version: string } & JsonObject;
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** What a server answers to `initialize`. */
export interface InitializeResultShape {
  protocolVersion: string;
  capabilities: JsonObject;
  serverInfo: { name: string; version: string } & JsonObject;
  instructions?: string;
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** Options of a {@link Session}: its role, capabilities, handshake callbacks, timeouts, clock, inspection, limits. */
export interface SessionOptions {
  readonly role: Role;
  /** This side's declared capabilities; a function so servers can derive them from registrations. */
  readonly capabilities: () => JsonObject;
  /** Server: builds the InitializeResult for a negotiated version. Required for servers. */
  readonly onInitialize?: (params: InitializeParams, version: string, context: InboundContext | undefined) => InitializeResultShape | Promise<InitializeResultShape>;
  /** Protocol versions this side speaks (default: every legacy revision). */
  readonly supportedVersions?: readonly string[];
  /** Timer source; default the system clock. Tests pass a `SimulatedClock`. */
  readonly clock?: Clock;
  /** Default timeout of every outbound request, ms (default 60 000). */
  readonly defaultTimeoutMs?: number;
  /** Hard maximum per outbound request regardless of progress, ms (default: none). */
  readonly maxTotalTimeoutMs?: number;
  /** Progress resets a request's timeout (default true). */
  readonly resetTimeoutOnProgress?: boolean;
  /** Refuse methods the peer's (or this side's) capabilities do not allow (default true). */
  readonly strictCapabilities?: boolean;
  /** Server: refuse requests that arrive before `notifications/initialized` (default false). */
  readonly strictInitialized?: boolean;
  /** How long `close()` may take before the transport is closed forcefully, ms (default 10 000). */
  readonly closeDeadlineMs?: number;
  /** How many settled request ids to remember for dropping late messages (default 1024). */
  readonly settledMemory?: number;
  /** Receives every inspection event. */
  readonly inspect?: InspectListener;
  /** Label used in inspection events (default: a random id). */
  readonly sessionId?: string;
  /**
   * Periodic ping while operating (MCP 2025-11-25 basic/utilities/ping). After `maxFailures`
   * consecutive pings without
   * an answer within `timeoutMs`, the connection is treated as stale and closed with reason
   * `fatalError`. Off by default.
   */
  readonly keepAlive?: { readonly intervalMs: number; readonly timeoutMs?: number; readonly maxFailures?: number };
  /** Called once when the session reaches Terminated. */
  readonly onclose?: (info: CloseInfo) => void;
  /**
   * The custom (non-spec) methods and notifications this side answers, with their schemas.
   * A registered handler for a method absent from both the revision and this table is never
   * reached: the peer gets -32601.
   */
  readonly customMethods?: CustomMethodTable;
  /**
   * Handlers this session shares with others (a server's, one table for all its connections):
   * asked for a method this session has no handler of its own for. A session's own
   * `setRequestHandler` takes precedence, and its `removeRequestHandler` hides the shared one.
   * Saves every session a handler map and a closure per method.
   */
  readonly handlers?: HandlerLookup;
  /**
   * Supplies the W3C trace context (`traceparent`, `tracestate`, `baggage`) of each outbound
   * request that does not carry its own, e.g. from the active OpenTelemetry span. It is
   * validated; what is invalid is dropped, never sent.
   */
  readonly traceContext?: TraceContextProvider;
  /**
   * Client, modern era: how many `input_required` rounds one request may take before it fails
   * with `InputRoundsExceededError` (Multi Round-Trip Requests; default 8).
   */
  readonly maxInputRounds?: number;
  /**
   * Client, modern era: answer the input requests of one `input_required` round all at once
   * instead of one after the other (the default, since a person may be asked). A gateway sets
   * it so a round of its upstream reaches its own caller as one round.
   */
  readonly concurrentInputs?: boolean;
  /**
   * Client: how long `negotiate()` waits for `server/discover` before it takes the server for a
   * legacy one, ms (default 10 000; the call's own `timeoutMs` wins).
   */
  readonly discoveryTimeoutMs?: number;
  /**
   * Middleware wrapping every request and notification this session handles or sends (see
   * `MiddlewareStack`): a server's or a client's, shared by all its sessions.
   */
  readonly middleware?: MiddlewareStack;
}

/** Per-request options for outbound requests. */
export interface RequestOptions {
  /**
   * Timeout in ms (default: the session's default). `Infinity` arms no timer: for a request
   * that stays open by design (`subscriptions/listen`), ended by its signal or by the peer.
   */
  readonly timeoutMs?: number;
  /** Hard maximum in ms, even with progress. */
  readonly maxTotalTimeoutMs?: number;
  /** Whether progress resets the timeout (default: the session's setting). */
  readonly resetTimeoutOnProgress?: boolean;
  /** Aborting it cancels the request (a `notifications/cancelled` goes out). */
  readonly signal?: AbortSignal;
  /** Receives progress; a progress token is generated when set. */
  readonly onProgress?: (progress: ProgressUpdate) => void;
  /**
   * Client: when the handshake has not finished, wait in the ledger (state `created`, visible
   * in `pendingRequests()` and `inspect`, timeout and signal live) and go out once Operating,
   * instead of being refused. A failed handshake rejects it with the handshake's error.
   */
  readonly waitForOperating?: boolean;
  /** The inbound request this one is made on behalf of (routes HTTP streams; marks the handler waiting). */
  readonly relatedRequestId?: RequestId;
  /** Skip checking the peer's capabilities for this call. */
  readonly skipCapabilityCheck?: boolean;
  /**
   * Called with the request's JSON-RPC id as soon as it is assigned, before anything is
   * written (a `subscriptions/listen` caller demultiplexes its stream by that id).
   */
  readonly onRequestId?: (id: RequestId) => void;
  /**
   * Sends a method outside the specification: its params are validated before sending, its
   * result on arrival, and the peer must have declared its opt-in (see `CustomRequestSpec`).
   * Without it a method the negotiated revision lacks is refused.
   */
  readonly custom?: CustomRequestSpec;
  /**
   * The W3C trace context to carry in this request's `_meta` (validated; invalid parts are
   * dropped). Wins over trace keys in `params._meta`, the session's provider, and the context
   * of the request this one is made on behalf of.
   */
  readonly traceContext?: TraceContext;
  /**
   * Request metadata for a transport that routes by headers (see `SendOptions.headers`): a
   * client passes a 2026-07-28 `tools/call`'s `Mcp-Param-*` here. Every round of the request
   * carries them.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Client, modern era: called with the round number (1, 2, …) each time the server answers
   * this request `input_required` (Multi Round-Trip Requests), before its input is gathered.
   * A response cache uses it to keep the result of a retried request out (MCP 2026-07-28
   * basic/patterns/mrtr).
   */
  readonly onInputRound?: (round: number) => void;
}

/** Options for outbound notifications. */
export interface NotificationOptions {
  readonly relatedRequestId?: RequestId;
  /** Sends a notification outside the specification (params validated, peer opt-in checked; see `CustomNotificationSpec`). */
  readonly custom?: CustomNotificationSpec;
}

/** What a request handler gets besides its params. */
export interface RequestContext {
  readonly requestId: RequestId;
  readonly method: string;
  /** Aborted when the peer cancels, the connection closes, or the session shuts down. */
  readonly signal: AbortSignal;
  /** The request's `_meta`, if any. */
  readonly meta: JsonObject | undefined;
  /**
   * The W3C trace context the request carried in `_meta`, validated (an invalid `traceparent`
   * is dropped with its `tracestate`). Requests sent through `sendRequest` carry it on unless
   * they are given their own.
   */
  readonly traceContext: TraceContext | undefined;
  /** Authentication result from the transport, if any. */
  readonly authInfo: unknown;
  /** Transport context (HTTP headers, session id). */
  readonly transportContext: InboundContext | undefined;
  /** The negotiated protocol version (modern era: the version the request names in its `_meta`). */
  readonly protocolVersion: string;
  /**
   * Who sent the request and what it declared: per request from its `_meta` in the 2026-07-28
   * era (never inferred from earlier requests), from the handshake in the legacy era;
   * undefined before a legacy handshake.
   */
  readonly requester: Requester | undefined;
  /**
   * Reports progress to the caller. Only sends when the caller supplied a progress token;
   * `progress` must increase with every call (an `InvalidArgumentError` otherwise); calls after
   * the reply was sent are dropped.
   */
  sendProgress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Keeps this request's progress token usable after the reply (2025-11-25 tasks: the
   * original token stays valid until the task is terminal, MCP 2025-11-25 basic/utilities/tasks).
   * Returns undefined
   * when the caller supplied no token. Values must still increase; `release()` ends it.
   */
  retainProgress(): ProgressHandle | undefined;
  /** Sends a notification related to this request. */
  sendNotification(method: string, params?: JsonObject): Promise<void>;
  /** Sends a request to the peer on behalf of this request (sampling, elicitation, roots, …). */
  sendRequest(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject>;
  /**
   * Server, 2026-07-28+: marks this request `waitingForInput` in the request machine (visible in
   * `inspect`): a Multi Round-Trip round ends it with an `InputRequiredResult` and the client's
   * retry resumes the work as a new request. `inputKeys`, the keys of the round's
   * `inputRequests`, show in the request's `inspect` events. Optional: contexts without a
   * ledger record omit it.
   */
  markWaitingForInput?(inputKeys?: readonly string[]): void;
  /**
   * Client, 2026-07-28+: the key of the Multi Round-Trip input request this handler answers
   * (its key in the server's `inputRequests`, MCP 2026-07-28, Multi Round-Trip Requests);
   * undefined for a request the server sent on its own.
   */
  readonly inputKey?: string | undefined;
}

/** A progress channel that outlives the reply (see `RequestContext.retainProgress`). */
export interface ProgressHandle {
  /** Sends `notifications/progress` (progress must increase); dropped after `release()`. */
  send(progress: number, total?: number, message?: string): Promise<void>;
  /** Stops the channel; later `send` calls are dropped. */
  release(): void;
}

/** Where a session finds the handlers it shares with other sessions (`SessionOptions.handlers`). */
export interface HandlerLookup {
  /** The handler answering requests for `method`, if any. */
  requestHandler(method: string): RequestHandler | undefined;
  /** The handler of the notification `method`, if any. */
  notificationHandler(method: string): NotificationHandler | undefined;
}

/** Answers one inbound request: its result, or a thrown `JsonRpcError` for an error response. */
export type RequestHandler = (params: JsonObject, context: RequestContext) => JsonObject | Promise<JsonObject>;

/** What a notification handler gets besides its params. */
export interface NotificationContext {
  readonly method: string;
  readonly authInfo: unknown;
  readonly transportContext: InboundContext | undefined;
}

/** Handles one inbound notification. */
export type NotificationHandler = (params: JsonObject, context: NotificationContext) => void | Promise<void>;

/** How and why a session ended. */
export interface CloseInfo {
  readonly reason: CloseReason;
  readonly error?: Error;
  readonly details?: Readonly<Record<string, unknown>>;
}
