/**
 * The diagnostics channel of job-queue task executors (`@statemcp/task-queue`): what the queue
 * and its workers do with the jobs of tasks (the tasks extension, MCP 2026-07-28), published on
 * `node:diagnostics_channel` only while someone subscribes. `@statemcp/opentelemetry`
 * (`TaskQueueMetrics`) turns it into metrics and `@statemcp/inspector` into its job-queue panel;
 * neither depends on the queue itself.
 *
 * | event     | when                                                                           |
 * |-----------|--------------------------------------------------------------------------------|
 * | `queued`  | a task's job was added to the queue                                            |
 * | `started` | a worker began an attempt (`waitMs`: queued → first attempt, on the first one) |
 * | `settled` | an attempt ended, with its outcome and duration                                |
 * | `depth`   | the queue's job counts, sampled after the events above (at most once a second) |
 *
 * No event carries arguments, results, owners or credentials: a task id, counts and timings.
 */

/** The channel name: subscribe with `diagnostics_channel.subscribe(TASK_QUEUE_CHANNEL_NAME, fn)`. */
export const TASK_QUEUE_CHANNEL_NAME = 'statemcp:task-queue';

/**
 * How an attempt ended: `finished` (the task reached a terminal status, or already had one),
 * `input` (it waits for input, parked), `interrupted` (handed back by a drain), `abandoned` (its
 * handler ignored the drain's abort past the deadline: handed back anyway), `retry` (the handler
 * asked to run again), `exhausted` (the attempt limit failed the task), `lost` (another worker
 * owns the job now).
 */
export type TaskAttemptResult = 'finished' | 'input' | 'interrupted' | 'abandoned' | 'retry' | 'exhausted' | 'lost';

/** The job counts of a queue by state (`prioritized`: waiting, in per-principal order). */
export interface TaskQueueDepth {
  readonly waiting: number;
  readonly prioritized: number;
  readonly active: number;
  readonly delayed: number;
  readonly failed: number;
}

/** One event of {@link TASK_QUEUE_CHANNEL_NAME}; `queue` is the queue's name, `at` ms since the epoch. */
export type TaskQueueEvent =
  | { readonly type: 'queued'; readonly queue: string; readonly at: number; readonly taskId: string }
  | {
      readonly type: 'started';
      readonly queue: string;
      readonly at: number;
      readonly taskId: string;
      /** 1 for the first attempt; retries and restarts after a crash count, hand-backs do not. */
      readonly attempt: number;
      /** From queued to the start of its first attempt, ms (undefined on later ones). */
      readonly waitMs: number | undefined;
    }
  | {
      readonly type: 'settled';
      readonly queue: string;
      readonly at: number;
      readonly taskId: string;
      readonly attempt: number;
      readonly result: TaskAttemptResult;
      readonly durationMs: number;
    }
  | ({ readonly type: 'depth'; readonly queue: string; readonly at: number } & TaskQueueDepth);
