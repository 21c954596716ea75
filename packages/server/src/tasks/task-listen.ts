/**
 * `notifications/tasks` on `subscriptions/listen` (tasks extension, SEP-2663): the filter key
 * `taskIds` and the {@link TaskNotifier} that publishes every change of a task to the streams
 * that name it. A listen request asking for `taskIds` without declaring the extension is -32021;
 * a stream receives a task's notifications only when it was opened by the task's authorization
 * context (the same owner check `tasks/get` makes), so naming a foreign id yields nothing.
 *
 * In a cluster (the server's `cluster` option) a task may move on one instance — or on a worker
 * of a job-queue executor — while the stream naming it lives on another. Then the stream follows
 * one key per task id and audience in the shared subscription store, and every change is
 * published under its task's key, reaching the followers on every instance (own ones included)
 * over the cluster bus:
 *
 * ```
 *  stream of alice names t1     follows task:t1:<sha256(alice)> and task:t1:unbound
 *  t1 (bound to alice) moves    published under task:t1:<sha256(alice)>     (a foreign stream
 *  t2 (unbound) moves           published under task:t2:unbound               follows neither)
 * ```
 *
 * The store and the bus see digests of authorization contexts, never the contexts themselves.
 * A task's changes are published in order (one after the other per task).
 */
import { ErrorCode, JsonRpcError, TASKS_EXTENSION_ID, type DetailedTask } from '@statemcp/protocol';
import { TASKS_NOTIFICATION_METHOD, declaresTasksExtension } from '@statemcp/protocol/internal';
import type { ServerRequestContext } from '../server.js';
import type { ListenFilterField, ListenSubscriptions } from '../subscriptions.js';
import type { TaskNotifier } from './extension-tasks.js';
import { ownerDigest } from './task-executor.js';

/** The `taskIds` key: the distinct string ids asked for; -32021 without the extension on the listen request. */
export const TASK_IDS_FIELD: ListenFilterField = {
  key: 'taskIds',
  honour: (requested, context) => {
    if (!declaresTasksExtension(context.requester?.capabilities)) {
      throw new JsonRpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: the ${TASKS_EXTENSION_ID} extension (taskIds filter)`, {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
      });
    }
    if (!Array.isArray(requested)) return undefined;
    const ids = [...new Set(requested.filter((id): id is string => typeof id === 'string'))];
    return ids.length === 0 ? undefined : ids;
  },
};

/** The audience of a task bound to nobody: every stream naming it. */
const UNBOUND = 'unbound';

/** The shared-store key of the followers of task `taskId` who may see it (`audience`: an owner's digest, or unbound). */
function taskKey(taskId: string, audience: string): string {
  return `task:${taskId}:${audience}`;
}

/** The audience a task bound to `owner` is published to. */
function audienceOf(owner: string | undefined): Promise<string> {
  return owner === undefined ? Promise.resolve(UNBOUND) : ownerDigest(owner);
}

/**
 * Defines `taskIds` on `subscriptions` and returns the notifier that publishes to it;
 * `ownerOf` names the authorization context of a listen request, as for task requests.
 */
export function listenTaskNotifier(subscriptions: ListenSubscriptions, ownerOf: (context: ServerRequestContext) => string | undefined): TaskNotifier {
  subscriptions.defineField(TASK_IDS_FIELD);
  // In a cluster, a stream follows its tasks in the shared store before it is acknowledged.
  subscriptions.onOpen((filter, context) => {
    const ids = Array.isArray(filter.taskIds) ? filter.taskIds.filter((id): id is string => typeof id === 'string') : [];
    if (ids.length === 0 || subscriptions.shared === undefined) return undefined;
    const owner = ownerOf(context);
    return audienceOf(owner).then((own) => {
      const audiences = owner === undefined ? [UNBOUND] : [own, UNBOUND];
      return subscriptions.followShared(context, ids.flatMap((id) => audiences.map((audience) => taskKey(id, audience)))) ?? (() => undefined);
    });
  });
  /** The last publication of each task with one under way: the next waits for it. */
  const publishing = new Map<string, Promise<void>>();
  return {
    taskChanged(task: DetailedTask, owner: string | undefined): void {
      const { resultType: _r, ...params } = task;
      const shared = subscriptions.shared;
      if (shared === undefined) {
        void subscriptions.publish(TASKS_NOTIFICATION_METHOD, params, (filter, subscription) => {
          const ids = filter.taskIds;
          return Array.isArray(ids) && ids.includes(task.taskId) && (owner === undefined || ownerOf(subscription.context) === owner);
        });
        return;
      }
      const { taskId } = task;
      const previous = publishing.get(taskId) ?? Promise.resolve();
      const published = previous
        .then(() => audienceOf(owner))
        .then((audience) => shared.publish(taskKey(taskId, audience), { method: TASKS_NOTIFICATION_METHOD, params }))
        .then(
          () => undefined,
          () => undefined, // at most once, like the bus: a lost change is seen on the next one or by polling
        );
      publishing.set(taskId, published);
      void published.then(() => {
        if (publishing.get(taskId) === published) publishing.delete(taskId);
      });
    },
  };
}
