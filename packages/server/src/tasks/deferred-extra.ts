/**
 * The extra of a tool whose handler decides when its call becomes a task (`deferTask`, tasks
 * extension, digest §7.5 "any MRTR exchange SHOULD be completed before returning a task").
 * Until the handler calls `extra.continueAsTask()` it is the request's own extra — so
 * `extra.elicit()` is a Multi Round-Trip input request answered on the client's retry; from
 * then on it is the task's extra — the task's signal, input requests filed in the task's
 * `inputRequests`. Every member reads the extra in force when it is used.
 */
import type { AuthInfo, HttpRequestInfo, JsonObject, RequestId, TraceContext } from '@statemcp/protocol';
import type { InputRequestOptions, RelatedRequestOptions, RequestExtra, TaskContext } from '../request-extra.js';
import type { ServerConnection } from '../server-connection.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
} from '../wire-types.js';

/** A {@link RequestExtra} that switches from the request's extra to the task's once the task exists. */
export class DeferredTaskExtra implements RequestExtra {
  #current: RequestExtra;
  readonly #escalate: () => Promise<RequestExtra>;
  #escalation: Promise<void> | undefined;

  /** `escalate` creates the task (durably) and returns the task's extra; called at most once. */
  constructor(direct: RequestExtra, escalate: () => Promise<RequestExtra>) {
    this.#current = direct;
    this.#escalate = escalate;
  }

  get signal(): AbortSignal {
    return this.#current.signal;
  }

  get requestId(): RequestId {
    return this.#current.requestId;
  }

  get protocolVersion(): string {
    return this.#current.protocolVersion;
  }

  get authInfo(): unknown {
    return this.#current.authInfo;
  }

  get auth(): AuthInfo | undefined {
    return this.#current.auth;
  }

  get http(): HttpRequestInfo | undefined {
    return this.#current.http;
  }

  get meta(): JsonObject | undefined {
    return this.#current.meta;
  }

  get traceContext(): TraceContext | undefined {
    return this.#current.traceContext;
  }

  get connection(): ServerConnection {
    return this.#current.connection;
  }

  get task(): TaskContext | undefined {
    return this.#current.task;
  }

  get clientCapabilities(): ClientCapabilities {
    return this.#current.clientCapabilities;
  }

  get clientInfo(): Implementation | undefined {
    return this.#current.clientInfo;
  }

  requireClientCapabilities(required: ClientCapabilities): void {
    this.#current.requireClientCapabilities(required);
  }

  sendProgress(progress: number, total?: number, message?: string): Promise<void> {
    return this.#current.sendProgress(progress, total, message);
  }

  sendNotification(method: string, params?: JsonObject): Promise<void> {
    return this.#current.sendNotification(method, params);
  }

  sendRequest(method: string, params?: JsonObject, options?: RelatedRequestOptions): Promise<JsonObject> {
    return this.#current.sendRequest(method, params, options);
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<boolean> {
    return this.#current.log(level, data, logger);
  }

  elicit(params: ElicitRequestParams, options?: InputRequestOptions): Promise<ElicitResult> {
    return this.#current.elicit(params, options);
  }

  createMessage(params: CreateMessageRequestParams, options?: InputRequestOptions): Promise<CreateMessageResult> {
    return this.#current.createMessage(params, options);
  }

  listRoots(options?: InputRequestOptions): Promise<ListRootsResult> {
    return this.#current.listRoots(options);
  }

  /** Creates the task (once; later calls wait for the same creation) and switches to its extra. */
  continueAsTask(): Promise<void> {
    this.#escalation ??= this.#escalate().then((extra) => {
      this.#current = extra;
    });
    return this.#escalation;
  }
}
