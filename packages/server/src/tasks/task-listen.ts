/**
 * `notifications/tasks` on `subscriptions/listen` (tasks extension, SEP-2663): the filter key
 * `taskIds` and the {@link TaskNotifier} that publishes every change of a task to the streams
 * that name it. A listen request asking for `taskIds` without declaring the extension is -32021;
 * a stream receives a task's notifications only when it was opened by the task's authorization
 * context (the same owner check `tasks/get` makes), so naming a foreign id yields nothing.
 */
import { ErrorCode, JsonRpcError, TASKS_EXTENSION_ID, type DetailedTask } from '@statemcp/protocol';
import { TASKS_NOTIFICATION_METHOD, declaresTasksExtension } from '@statemcp/protocol/internal';
import type { ServerRequestContext } from '../server.js';
import type { ListenFilterField, ListenSubscriptions } from '../subscriptions.js';
import type { TaskNotifier } from './extension-tasks.js';

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

/**
 * Defines `taskIds` on `subscriptions` and returns the notifier that publishes to it;
 * `ownerOf` names the authorization context of a listen request, as for task requests.
 */
export function listenTaskNotifier(subscriptions: ListenSubscriptions, ownerOf: (context: ServerRequestContext) => string | undefined): TaskNotifier {
  subscriptions.defineField(TASK_IDS_FIELD);
  return {
    taskChanged(task: DetailedTask, owner: string | undefined): void {
      const { resultType: _r, ...params } = task;
      void subscriptions.publish(TASKS_NOTIFICATION_METHOD, params, (filter, subscription) => {
        const ids = filter.taskIds;
        return Array.isArray(ids) && ids.includes(task.taskId) && (owner === undefined || ownerOf(subscription.context) === owner);
      });
    },
  };
}
