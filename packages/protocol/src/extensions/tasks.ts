/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663): the wire shapes
 * of a 2026-07-28 task and of `tasks/get`, `tasks/update`, `tasks/cancel` and
 * `notifications/tasks`, and the negotiation check. A server MAY answer a `tools/call` with a
 * `TaskCreatedResult` (`resultType: "task"`, the task's fields inline) only when the request's
 * client capabilities list the extension; the requestor then polls `tasks/get`, answers
 * `inputRequests` with `tasks/update` and may `tasks/cancel`. The status graph is the shared
 * task machine (`machines/task.ts`).
 */
import type { JsonObject } from '../jsonrpc/messages.js';
import type { TaskStatusKind } from '../machines/task.js';

/** The extension id, the key under `capabilities.extensions`. */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** The notification carrying a task's full state (on `subscriptions/listen`, filter `taskIds`). */
export const TASKS_NOTIFICATION_METHOD = 'notifications/tasks';

/** The three methods of the extension (each routed by `Mcp-Name` = `params.taskId` over HTTP). */
export const TASKS_METHODS: readonly string[] = Object.freeze(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** A 2026-07-28 task (`ttlMs: null` = kept without limit). */
export interface ExtensionTask {
  taskId: string;
  status: TaskStatusKind;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
}

/** One request the task waits on: what the server would have sent directly. */
export interface TaskInputRequest {
  method: string;
  params?: JsonObject;
}

/** A JSON-RPC error object as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * The `tasks/get` result: the task plus, by status, the outstanding `inputRequests`
 * (`input_required`), the `result` (`completed`) or the `error` (`failed`).
 */
export interface DetailedTask extends ExtensionTask {
  resultType: 'complete';
  inputRequests?: Record<string, TaskInputRequest>;
  result?: JsonObject;
  error?: TaskError;
}

/** The answer of a request the server chose to run as a task. */
export interface TaskCreatedResult extends ExtensionTask {
  resultType: 'task';
}

/** `tasks/get` and `tasks/cancel` params. */
export interface TaskIdParams {
  taskId: string;
}

/** `tasks/update` params: answers keyed like the task's `inputRequests`. */
export interface TasksUpdateParams extends TaskIdParams {
  inputResponses: Record<string, JsonObject>;
}

/** True when `capabilities` (a request's client capabilities, or `server/discover`'s) lists the extension. */
export function declaresTasksExtension(capabilities: unknown): boolean {
  if (typeof capabilities !== 'object' || capabilities === null) return false;
  const extensions = (capabilities as { extensions?: unknown }).extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION_ID in extensions;
}

/** True for a `TaskCreatedResult` (the only result with `resultType: "task"`). */
export function isCreateTaskResult(result: unknown): result is TaskCreatedResult {
  return typeof result === 'object' && result !== null && (result as { resultType?: unknown }).resultType === 'task' && typeof (result as { taskId?: unknown }).taskId === 'string';
}
