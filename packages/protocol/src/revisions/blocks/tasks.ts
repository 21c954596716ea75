/**
 * Experimental tasks of 2025-11-25: durable state for a task-augmented request
 * (`tools/call`, `sampling/createMessage`, `elicitation/create`), polled with `tasks/get`,
 * fetched with `tasks/result`, listed with `tasks/list` and cancelled with `tasks/cancel`.
 */
import * as z from 'zod/mini';
import { deferred, deferredShape } from './deferred.js';
import { NotificationParams, PaginatedResult, RequestParams, Result } from './base.js';

/** The statuses of a task, in the order a task usually moves through them. */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
export const TaskStatus = deferred(() => z.enum(TASK_STATUSES));

/** The `task` param that turns a request into a task: the requested lifetime in ms. */
export const TaskMetadata = deferred(() => z.looseObject({ ttl: z.optional(z.number()) }));

/** `_meta["io.modelcontextprotocol/related-task"]`: ties a message to a task. */
export const RelatedTaskMetadata = deferred(() => z.looseObject({ taskId: z.string() }));
/** The `_meta` key that ties a message to the task it belongs to. */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

const taskShape = deferredShape(() => ({
  taskId: z.string(),
  status: TaskStatus,
  statusMessage: z.optional(z.string()),
  /** ISO 8601 creation time. */
  createdAt: z.string(),
  /** ISO 8601 time of the last status change. */
  lastUpdatedAt: z.string(),
  /** Lifetime in ms from creation; `null` means unlimited. */
  ttl: z.nullable(z.number()),
  /** Suggested polling interval in ms. */
  pollInterval: z.optional(z.number()),
}));

export const Task = deferred(() => z.looseObject({ ...taskShape }));

/** What a receiver returns at once for a task-augmented request. */
export const CreateTaskResult = deferred(() => z.extend(Result, { task: Task }));

/** Params of `tasks/get`, `tasks/result` and `tasks/cancel`. */
export const TaskIdRequestParams = deferred(() => z.extend(RequestParams, { taskId: z.string() }));

/** Result of `tasks/get` and `tasks/cancel`: the task's fields, inline. */
export const TaskResult = deferred(() => z.extend(Result, taskShape));

/** Result of `tasks/result`: whatever the underlying request returns. */
export const GetTaskPayloadResult = Result;

export const ListTasksResult = deferred(() => z.extend(PaginatedResult, { tasks: z.array(Task) }));

/** Params of `notifications/tasks/status`: the full task. */
export const TaskStatusNotificationParams = deferred(() => z.extend(NotificationParams, taskShape));

/** Params that may carry `task` (tools/call, sampling/createMessage, elicitation/create). */
export const taskAugmented = deferredShape(() => ({ task: z.optional(TaskMetadata) }));
