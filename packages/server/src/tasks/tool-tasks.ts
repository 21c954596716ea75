/**
 * Task-augmented `tools/call` (2025-11-25, MCP 2025-11-25 basic/utilities/tasks) and the `tasks/*` methods.
 * A call with `task` returns a `CreateTaskResult` at once and runs the tool in the
 * background; `tasks/get` polls, `tasks/result` blocks until the task is terminal and
 * returns exactly what the call would have returned (result or JSON-RPC error) with
 * `_meta["io.modelcontextprotocol/related-task"]`, `tasks/list` pages through this
 * connection's tasks, `tasks/cancel` cancels (terminal → -32602). Requests the tool makes
 * while running as a task carry the related-task `_meta` and move the task to
 * `input_required` until answered. `notifications/tasks/status` goes to the owner on every
 * status change.
 *
 * Progress keeps the original token for the whole life of the task (MCP 2025-11-25
 * basic/utilities/tasks): the call's
 * progress channel is retained past the `CreateTaskResult` and released once the task is
 * terminal.
 */
import { ErrorCode, JsonRpcError, RELATED_TASK_META_KEY, type JsonObject, type ProgressHandle } from '@statemcp/protocol';
import { hasFeature, toWireError } from '@statemcp/protocol/internal';
import { decodeBase64UrlJson, encodeBase64UrlJson } from '../base64url-json.js';
import { requestExtra, type RelatedRequestOptions, type RequestExtra } from '../request-extra.js';
import type { Server, ServerRequestContext, ServerRequestHandler } from '../server.js';
import type { ExtensionTasks } from './extension-tasks.js';
import { runTool, type TaskStarter } from '../tools.js';
import { isTerminal, type TaskRecord, type TaskStore } from './task-store.js';

function withRelatedTask(params: JsonObject | undefined, taskId: string): JsonObject {
  const meta = typeof params?._meta === 'object' && params._meta !== null ? (params._meta as JsonObject) : {};
  return { ...params, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId } } };
}

function snapshot(record: TaskRecord): JsonObject {
  return { ...record.task };
}

function encodeAfter(sequence: number): string {
  return encodeBase64UrlJson({ after: sequence });
}

function decodeAfter(cursor: string): number {
  try {
    const value = decodeBase64UrlJson(cursor);
    const after = (value as { after?: unknown } | null)?.after;
    if (typeof after === 'number' && Number.isSafeInteger(after) && after >= 0) return after;
  } catch {
    // fall through
  }
  throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid cursor');
}

/** Runs task-augmented tool calls and serves the `tasks/*` methods of one `McpServer`. */
export class ToolTasks {
  readonly #server: Server;
  readonly #store: TaskStore;
  readonly #pageSize: () => number;

  constructor(server: Server, store: TaskStore, pageSize: () => number) {
    this.#server = server;
    this.#store = store;
    this.#pageSize = pageSize;
  }

  /**
   * Installs `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel` and `tasks/update`, each
   * answered by era: legacy connections get the 2025-11-25 methods (`tasks/update` does not
   * exist there), 2026-07-28 requests the tasks extension (`tasks/result` and `tasks/list` were
   * removed: -32601).
   */
  install(extension: ExtensionTasks | undefined): void {
    const byEra = (legacy: ServerRequestHandler | undefined, modern: ((params: JsonObject, context: ServerRequestContext) => Promise<JsonObject>) | undefined, method: string): ServerRequestHandler =>
      (params, context) => {
        const handler = hasFeature(context.protocolVersion, 'perRequestMeta') ? modern : legacy;
        if (handler === undefined) throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
        return handler(params, context);
      };
    const cancelLegacy: ServerRequestHandler = (params, context) => {
      const record = this.#require(params, context);
      if (isTerminal(record.task.status)) throw new JsonRpcError(ErrorCode.InvalidParams, `Cannot cancel task ${record.task.taskId}: it is already ${record.task.status}`);
      this.#store.cancel(record, 'Cancelled by the client');
      return snapshot(record);
    };
    const install = (method: string, legacy: ServerRequestHandler | undefined, modern: ((params: JsonObject, context: ServerRequestContext) => Promise<JsonObject>) | undefined): void =>
      this.#server.setRequestHandler(method, byEra(legacy, modern, method));
    install('tasks/get', (params, context) => snapshot(this.#require(params, context)), extension && ((params, context) => extension.get(params, context)));
    install('tasks/result', (params, context) => this.#result(params, context), undefined);
    install('tasks/list', (params, context) => this.#list(params, context), undefined);
    install('tasks/cancel', cancelLegacy, extension && ((params, context) => extension.cancel(params, context)));
    install('tasks/update', undefined, extension && ((params, context) => extension.update(params, context)));
  }

  /** Sends `notifications/tasks/status` to the task's owner, if it is operating. */
  notifyStatus(record: TaskRecord): void {
    const owner = this.#server.connections.find((connection) => connection.id === record.owner);
    if (owner === undefined || !owner.isOperating) return;
    owner.session.notify('notifications/tasks/status', snapshot(record)).catch(() => {
      // optional notification: a closed connection is not an error here
    });
  }

  readonly start: TaskStarter = (entry, args, params, context) => {
    const requested = (params.task as { ttl?: unknown } | undefined)?.ttl;
    const record = this.#store.create(context.connection.id, typeof requested === 'number' ? requested : undefined);
    const progress = context.retainProgress();
    const extra = this.#taskExtra(context, record, progress);
    void runTool(entry, args, extra, context.protocolVersion)
      .then(
        (result) => this.#store.finish(record, { result }, result.isError === true ? 'failed' : 'completed'),
        (error: unknown) => {
          const wire = toWireError(error);
          this.#store.finish(record, { error: wire }, 'failed', wire.message);
        },
      )
      .finally(() => progress?.release());
    return { task: snapshot(record) };
  };

  #taskExtra(context: ServerRequestContext, record: TaskRecord, progress: ProgressHandle | undefined): RequestExtra {
    const { connection } = context;
    const { taskId } = record.task;
    const awaitInput = async <T>(send: () => Promise<T>): Promise<T> => {
      this.#store.setStatus(record, 'input_required');
      try {
        return await send();
      } finally {
        if (record.task.status === 'input_required') this.#store.setStatus(record, 'working');
      }
    };
    const trace = context.traceContext;
    const options = (given: RelatedRequestOptions = {}) => ({ ...(trace !== undefined ? { traceContext: trace } : {}), ...given, signal: given.signal ?? record.controller.signal });
    const direct = requestExtra(context);
    return {
      clientCapabilities: direct.clientCapabilities,
      clientInfo: direct.clientInfo,
      requireClientCapabilities: (required) => direct.requireClientCapabilities(required),
      requestId: context.requestId,
      protocolVersion: context.protocolVersion,
      authInfo: context.authInfo,
      auth: direct.auth,
      http: context.transportContext?.http,
      meta: context.meta,
      traceContext: trace,
      connection,
      signal: record.controller.signal,
      task: { taskId },
      sendProgress: async (value, total, message) => {
        if (isTerminal(record.task.status)) return; // progress stops once the task is terminal
        await progress?.send(value, total, message);
      },
      sendNotification: (method, params) => connection.session.notify(method, withRelatedTask(params, taskId)),
      sendRequest: (method, params, given) => awaitInput(() => connection.session.request(method, withRelatedTask(params, taskId), options(given))),
      log: (level, data, logger) =>
        connection.sendLoggingMessage({ level, data, ...(logger !== undefined ? { logger } : {}), _meta: { [RELATED_TASK_META_KEY]: { taskId } } }),
      elicit: (params, given) => awaitInput(() => connection.elicitInput(withRelatedTask(params as unknown as JsonObject, taskId) as never, options(given))),
      createMessage: (params, given) => awaitInput(() => connection.createMessage(withRelatedTask(params as unknown as JsonObject, taskId) as never, options(given))),
      listRoots: (given) => awaitInput(() => connection.listRoots(options(given))),
      continueAsTask: () => Promise.resolve(),
    };
  }

  #require(params: JsonObject, context: ServerRequestContext): TaskRecord {
    const taskId = String(params.taskId);
    const record = this.#store.get(context.connection.id, taskId);
    if (record === undefined) throw new JsonRpcError(ErrorCode.InvalidParams, `Failed to retrieve task: Task not found (${taskId})`);
    return record;
  }

  async #result(params: JsonObject, context: ServerRequestContext): Promise<JsonObject> {
    const record = this.#require(params, context);
    await Promise.race([
      this.#store.whenTerminal(record),
      new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true })),
    ]);
    const outcome = record.outcome;
    const { taskId } = record.task;
    if (outcome === undefined) {
      if (context.signal.aborted) throw new JsonRpcError(ErrorCode.InternalError, 'tasks/result was aborted');
      throw new JsonRpcError(ErrorCode.InvalidParams, `Task ${taskId} was ${record.task.status} and has no result`);
    }
    if ('error' in outcome) throw outcome.error;
    return withRelatedTask(outcome.result, taskId);
  }

  #list(params: JsonObject, context: ServerRequestContext): JsonObject {
    const after = typeof params.cursor === 'string' ? decodeAfter(params.cursor) : 0;
    const records = this.#store.list(context.connection.id).filter((record) => record.sequence > after);
    const size = Math.max(1, this.#pageSize());
    const page = records.slice(0, size);
    const tasks = page.map(snapshot);
    const last = page.at(-1);
    return records.length > size && last !== undefined ? { tasks, nextCursor: encodeAfter(last.sequence) } : { tasks };
  }
}
