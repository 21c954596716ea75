/**
 * What every `McpServer` callback (tool, resource, prompt, completer) gets besides its
 * arguments: the request's abort signal and id, progress reporting, notifications and
 * requests tied to the current request (routed with `relatedRequestId`, so Streamable HTTP
 * sends them on the request's own stream), and the server-to-client requests
 * (sampling, elicitation, roots) with their local capability checks.
 */
import type { JsonObject, RequestId, RequestOptions } from '@statemcp/protocol';
import type { ServerRequestContext } from './server.js';
import type { ServerConnection } from './server-connection.js';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
} from './wire-types.js';

/** Options of requests made from inside a handler (the relation to the current request is set for you). */
export type RelatedRequestOptions = Omit<RequestOptions, 'relatedRequestId'>;

export interface RequestExtra {
  /** Aborted when the client cancels, the connection closes, or (tasks) the task is cancelled. */
  readonly signal: AbortSignal;
  /** The JSON-RPC id of the request being handled. */
  readonly requestId: RequestId;
  /** The negotiated protocol version. */
  readonly protocolVersion: string;
  /** Authentication info from the transport, if any. */
  readonly authInfo: unknown;
  /** The request's `_meta`, if any. */
  readonly meta: JsonObject | undefined;
  /** The connection the request arrived on. */
  readonly connection: ServerConnection;
  /** Set when the request runs as a task (2025-11-25 `tools/call` with `task`). */
  readonly task: { readonly taskId: string } | undefined;
  /**
   * Reports progress. Sent only when the client gave a progress token; `progress` must
   * increase with every call; calls after the reply are dropped.
   */
  sendProgress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends a notification related to this request. */
  sendNotification(method: string, params?: JsonObject): Promise<void>;
  /** Sends a request to the client related to this request. */
  sendRequest(method: string, params?: JsonObject, options?: RelatedRequestOptions): Promise<JsonObject>;
  /** Sends `notifications/message` related to this request (dropped below the client's log level). */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<boolean>;
  /** `elicitation/create` related to this request (see `ServerConnection.elicitInput`). */
  elicit(params: ElicitRequestParams, options?: RelatedRequestOptions): Promise<ElicitResult>;
  /** `sampling/createMessage` related to this request (see `ServerConnection.createMessage`). */
  createMessage(params: CreateMessageRequestParams, options?: RelatedRequestOptions): Promise<CreateMessageResult>;
  /** `roots/list` related to this request. */
  listRoots(options?: RelatedRequestOptions): Promise<ListRootsResult>;
}

/** Builds the extra for a request handled directly (not as a task). */
export function requestExtra(context: ServerRequestContext): RequestExtra {
  const { connection, requestId } = context;
  const related = (options: RelatedRequestOptions = {}): RequestOptions => ({ ...options, relatedRequestId: requestId });
  return {
    signal: context.signal,
    requestId,
    protocolVersion: context.protocolVersion,
    authInfo: context.authInfo,
    meta: context.meta,
    connection,
    task: undefined,
    sendProgress: (progress, total, message) => context.sendProgress(progress, total, message),
    sendNotification: (method, params) => context.notify(method, params),
    sendRequest: (method, params, options) => connection.session.request(method, params, related(options)),
    log: (level, data, logger) =>
      connection.sendLoggingMessage(logger === undefined ? { level, data } : { level, data, logger }, { relatedRequestId: requestId }),
    elicit: (params, options) => connection.elicitInput(params, related(options)),
    createMessage: (params, options) => connection.createMessage(params, related(options)),
    listRoots: (options) => connection.listRoots(related(options)),
  };
}
