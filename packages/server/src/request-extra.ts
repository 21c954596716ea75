/**
 * What every `McpServer` callback (tool, resource, prompt, completer) gets besides its
 * arguments: the request's abort signal and id, the HTTP request that carried it, progress reporting, notifications and
 * requests tied to the current request (routed with `relatedRequestId`, so Streamable HTTP
 * sends them on the request's own stream), and the server-to-client requests
 * (sampling, elicitation, roots) with their local capability checks.
 */
import { ErrorCode, JsonRpcError, LOG_LEVEL_META_KEY, hasCapability, hasFeature, isAuthInfo, type AuthInfo, type HttpRequestInfo, type JsonObject, type JsonValue, type RequestId, type RequestOptions, type TraceContext } from '@statemcp/protocol';
import { createMessageParams, elicitParams, type PeerView } from './client-requests.js';
import { inputRoundOf } from './input-round.js';
import { isLoggingLevel, passesLevel } from './logging-levels.js';
import type { ServerRequestContext } from './server.js';
import type { ServerConnection } from './server-connection.js';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ClientCapabilities,
  Implementation,
  ListRootsResult,
  LoggingLevel,
} from './wire-types.js';

/** Options of requests made from inside a handler (the relation to the current request is set for you). */
export type RelatedRequestOptions = Omit<RequestOptions, 'relatedRequestId'>;

/**
 * Options of `elicit`, `createMessage` and `listRoots`. In the 2026-07-28 era the request
 * travels in an `InputRequiredResult` under `inputKey` (default: the method's short name and
 * the request's position in the handler, e.g. `elicitation-1`); the client's answer comes back
 * under the same key when it retries.
 */
export interface InputRequestOptions extends RelatedRequestOptions {
  /** The key of this input request in `inputRequests` (2026-07-28+; unique within the request). */
  readonly inputKey?: string;
}

/**
 * The task a handler runs as. Tasks extension tasks (2026-07-28) also get the re-execution
 * members: a task run by an executor (`@statemcp/task-queue`) runs at least once and may run
 * again from its last checkpoint after a crash, a drain or a retry.
 */
export interface TaskContext {
  readonly taskId: string;
  /** Which attempt this is (1 first; an in-process task always has 1). */
  readonly attempt?: number;
  /** Stable across every attempt of the task: the key for side effects that must happen once. */
  readonly idempotencyKey?: string;
  /** The state saved last with {@link checkpoint} by an earlier attempt, if any. */
  readonly lastCheckpoint?: JsonValue | undefined;
  /** Saves `state` (JSON): a later attempt starts with it as {@link lastCheckpoint}. */
  checkpoint?(state: JsonValue): Promise<void>;
  /** Sets the task's `statusMessage` (seen by `tasks/get` and `notifications/tasks`). */
  setStatusMessage?(message: string): Promise<void>;
}

/** What every tool, resource and prompt handler receives besides its arguments: the request's signal and metadata, progress, logging, and requests to the client. */
export interface RequestExtra {
  /**
   * Aborted when the client cancels, the connection closes, or (tasks) the task is cancelled;
   * 2026-07-28, in `tools/call`, `prompts/get` and `resources/read`: also when the attempt ends
   * with an `InputRequiredResult` (a `RequestCancelledError` with reason `inputRequired`: the
   * handler runs again on the retry, if the client sends one).
   */
  readonly signal: AbortSignal;
  /** The JSON-RPC id of the request being handled. */
  readonly requestId: RequestId;
  /** The negotiated protocol version. */
  readonly protocolVersion: string;
  /** Authentication info from the transport, if any. */
  readonly authInfo: unknown;
  /**
   * The verified OAuth principal (token, client, subject, scopes) when the request came through
   * an authorization layer (`@statemcp/http-transport/auth`); `undefined` otherwise.
   */
  readonly auth: AuthInfo | undefined;
  /**
   * The HTTP request that carried this call (method, URL, headers, remote address; frozen):
   * the POST on Streamable HTTP, the upgrade request on WebSocket. `undefined` on transports
   * without HTTP (stdio, in-memory).
   */
  readonly http: HttpRequestInfo | undefined;
  /** The request's `_meta`, if any. */
  readonly meta: JsonObject | undefined;
  /**
   * The W3C trace context (`traceparent`, `tracestate`, `baggage`) the client sent in `_meta`,
   * validated — the parent for an OpenTelemetry span of this handler. Requests made from the
   * handler (`sendRequest`, `elicit`, `createMessage`, `listRoots`) carry it on.
   */
  readonly traceContext: TraceContext | undefined;
  /** The connection the request arrived on. */
  readonly connection: ServerConnection;
  /** Set when the request runs as a task (2025-11-25 `tools/call` with `task`; the 2026-07-28 tasks extension). */
  readonly task: TaskContext | undefined;
  /**
   * What the client declared: per request in the 2026-07-28 era (the request's `_meta`, never
   * an earlier request's), from the handshake in the legacy era.
   */
  readonly clientCapabilities: ClientCapabilities;
  /** The client's self-reported identity (per request in the 2026-07-28 era; display only). */
  readonly clientInfo: Implementation | undefined;
  /**
   * Throws unless the client declared every capability in `required` (top-level entries, e.g.
   * `{ sampling: {} }`). 2026-07-28+: a -32021 error whose `data.requiredCapabilities` names
   * what is missing (HTTP 400); legacy era: -32600.
   */
  requireClientCapabilities(required: ClientCapabilities): void;
  /**
   * Reports progress. Sent only when the client gave a progress token; `progress` must
   * increase with every call; calls after the reply are dropped.
   */
  sendProgress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends a notification related to this request. */
  sendNotification(method: string, params?: JsonObject): Promise<void>;
  /** Sends a request to the client related to this request. */
  sendRequest(method: string, params?: JsonObject, options?: RelatedRequestOptions): Promise<JsonObject>;
  /**
   * Sends `notifications/message` related to this request (dropped below the client's log
   * level; 2026-07-28+: sent only when the request's `_meta` asked for a level it passes).
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<boolean>;
  /**
   * Asks the user for input (`elicitation/create`). Legacy era: a request to the client related
   * to this one (see `ServerConnection.elicitInput`). 2026-07-28 era, in `tools/call`,
   * `prompts/get` and `resources/read`: a Multi Round-Trip input request — the answer when the
   * client's retry brought one, otherwise this attempt ends with an `InputRequiredResult` and
   * the handler runs again on the retry (so code before it must be safe to repeat). Without the
   * client's `elicitation` capability: -32021 (2026-07-28) or `CapabilityNotSupportedError`.
   */
  elicit(params: ElicitRequestParams, options?: InputRequestOptions): Promise<ElicitResult>;
  /** `sampling/createMessage`, in both eras like {@link elicit} (see `ServerConnection.createMessage`). */
  createMessage(params: CreateMessageRequestParams, options?: InputRequestOptions): Promise<CreateMessageResult>;
  /** `roots/list`, in both eras like {@link elicit}. */
  listRoots(options?: InputRequestOptions): Promise<ListRootsResult>;
  /**
   * Tasks extension (2026-07-28), for a tool registered with `deferTask: true`: ends the inline
   * phase — the input the handler gathered so far came through Multi Round-Trip rounds — and
   * turns the call into a task: the task is created durably, the client gets its
   * `CreateTaskResult`, and the handler runs on as the task (read `extra.signal` again after
   * this: it is now the task's; later `elicit()` calls become the task's `inputRequests`).
   * Resolves at once, changing nothing, when the call does not run as a task.
   */
  continueAsTask(): Promise<void>;
}

/**
 * The extra of a request handled directly (not as a task). A class: the abort signal is
 * created only if a callback reads it, and the methods are shared, not per-request closures.
 */
class DirectRequestExtra implements RequestExtra {
  readonly requestId: RequestId;
  readonly connection: ServerConnection;
  readonly task = undefined;
  readonly #context: ServerRequestContext;

  constructor(context: ServerRequestContext) {
    this.#context = context;
    this.requestId = context.requestId;
    this.connection = context.connection;
  }

  get signal(): AbortSignal {
    // In a Multi Round-Trip method, the attempt's: it also aborts when the attempt ends with an InputRequiredResult.
    return inputRoundOf(this.#context)?.signal ?? this.#context.signal;
  }

  get protocolVersion(): string {
    return this.#context.protocolVersion;
  }

  get authInfo(): unknown {
    return this.#context.authInfo;
  }

  get auth(): AuthInfo | undefined {
    const info = this.#context.authInfo;
    return isAuthInfo(info) ? info : undefined;
  }

  get http(): HttpRequestInfo | undefined {
    return this.#context.transportContext?.http;
  }

  get meta(): JsonObject | undefined {
    return this.#context.meta;
  }

  get traceContext(): TraceContext | undefined {
    return this.#context.traceContext;
  }

  get clientCapabilities(): ClientCapabilities {
    return (this.#context.requester?.capabilities ?? {});
  }

  get clientInfo(): Implementation | undefined {
    return this.#context.requester?.info;
  }

  requireClientCapabilities(required: ClientCapabilities): void {
    const declared = this.clientCapabilities as JsonObject;
    const missing: JsonObject = {};
    for (const [name, value] of Object.entries(required)) if (!hasCapability(declared, [name])) missing[name] = (value ?? {});
    if (Object.keys(missing).length === 0) return;
    const names = Object.keys(missing).join(', ');
    if (hasFeature(this.protocolVersion, 'perRequestMeta')) {
      throw new JsonRpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${names}`, { requiredCapabilities: missing });
    }
    throw new JsonRpcError(ErrorCode.InvalidRequest, `The client did not declare the ${names} capability this request needs`);
  }

  sendProgress(progress: number, total?: number, message?: string): Promise<void> {
    return this.#context.sendProgress(progress, total, message);
  }

  sendNotification(method: string, params?: JsonObject): Promise<void> {
    return this.#context.sendNotification(method, params);
  }

  sendRequest(method: string, params?: JsonObject, options?: RelatedRequestOptions): Promise<JsonObject> {
    return this.connection.session.request(method, params, this.#related(options));
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<boolean> {
    const message = logger === undefined ? { level, data } : { level, data, logger };
    if (hasFeature(this.protocolVersion, 'perRequestMeta')) {
      const wanted = this.meta?.[LOG_LEVEL_META_KEY];
      if (!isLoggingLevel(wanted) || !passesLevel(level, wanted)) return Promise.resolve(false);
      return this.connection.sendLoggingMessage(message, { relatedRequestId: this.requestId }, true);
    }
    return this.connection.sendLoggingMessage(message, { relatedRequestId: this.requestId });
  }

  async elicit(params: ElicitRequestParams, options?: InputRequestOptions): Promise<ElicitResult> {
    const round = inputRoundOf(this.#context);
    if (round === undefined) return this.connection.elicitInput(params, this.#related(options));
    this.requireClientCapabilities({ elicitation: {} });
    const wire = elicitParams(params, this.#peerView());
    return (await round.ask('elicitation/create', wire, options?.inputKey)) as unknown as ElicitResult;
  }

  async createMessage(params: CreateMessageRequestParams, options?: InputRequestOptions): Promise<CreateMessageResult> {
    const round = inputRoundOf(this.#context);
    if (round === undefined) return this.connection.createMessage(params, this.#related(options));
    this.requireClientCapabilities({ sampling: {} });
    const wire = createMessageParams(params, this.#peerView());
    return (await round.ask('sampling/createMessage', wire, options?.inputKey)) as unknown as CreateMessageResult;
  }

  async listRoots(options?: InputRequestOptions): Promise<ListRootsResult> {
    const round = inputRoundOf(this.#context);
    if (round === undefined) return this.connection.listRoots(this.#related(options));
    this.requireClientCapabilities({ roots: {} });
    return (await round.ask('roots/list', {}, options?.inputKey)) as unknown as ListRootsResult;
  }

  /** What the capability checks of input requests see: this request's own declarations. */
  #peerView(): PeerView {
    return { version: this.protocolVersion, clientCapabilities: this.clientCapabilities, strict: true };
  }

  continueAsTask(): Promise<void> {
    return Promise.resolve();
  }

  #related(options: InputRequestOptions = {}): RequestOptions {
    const { inputKey: _key, ...rest } = options;
    return { ...rest, relatedRequestId: this.requestId };
  }
}

/** Builds the extra for a request handled directly (not as a task). */
export function requestExtra(context: ServerRequestContext): RequestExtra {
  return new DirectRequestExtra(context);
}
