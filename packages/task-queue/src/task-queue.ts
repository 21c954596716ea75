/**
 * The producer side of the job queue: a {@link TaskExecutor} for the tasks extension's
 * `executor` option. A task-augmented `tools/call` stores the task and queues one BullMQ job
 * whose id is the task id (so a task is queued at most once); `tasks/cancel` of a task no worker
 * runs removes its job; answers to a task waiting for input are kept in its run state, and the
 * parked job is promoted once nothing is outstanding. Workers ({@link TaskWorker}) run the jobs.
 */
import type { JsonObject } from '@statemcp/protocol';
import type { TaskExecutor, TaskJob } from '@statemcp/server';
import { Queue } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import { resolveConnection, type TaskQueueConnectionOptions } from './connection.js';
import { RunStates } from './run-state.js';

/** Options of {@link TaskQueue}. */
export interface TaskQueueOptions extends TaskQueueConnectionOptions {
  /** How long a task's run state (checkpoint, answers) outlives its last write, ms (default 7 days). */
  readonly runStateTtlMs?: number;
}

const WEEK_MS = 7 * 24 * 3_600_000;

/** Queues the jobs of tasks: pass it as `taskExtension.executor` on every instance that creates tasks. */
export class TaskQueue implements TaskExecutor {
  /** The BullMQ queue (its counts, its events). */
  readonly queue: Queue<TaskJob>;
  /** @internal The run state of the queue's tasks. */
  readonly runs: RunStates;
  /** The queue's connection and the run state's (BullMQ leaves a connection it was given open). */
  readonly #connections: readonly (Redis | Cluster)[];

  constructor(options: TaskQueueOptions) {
    const { open, name, prefix } = resolveConnection(options);
    const queueConnection = open();
    const runConnection = open();
    this.#connections = [queueConnection, runConnection];
    this.queue = new Queue<TaskJob>(name, { connection: queueConnection, prefix });
    this.runs = new RunStates(runConnection, `${prefix}:${name}:`, options.runStateTtlMs ?? WEEK_MS);
  }

  /** Queues a new task's job (its id is the task id: queuing twice keeps one job). */
  async enqueue(job: TaskJob): Promise<void> {
    await this.queue.add('task', job, { jobId: job.taskId, attempts: 1, removeOnComplete: true, removeOnFail: { count: 1000 } });
  }

  /** Removes the job of a task cancelled while no worker runs it (a worker that took it meanwhile reads `cancelled`). */
  async drop(taskId: string): Promise<void> {
    const job = await this.queue.getJob(taskId);
    if (job === undefined) return;
    if ((await job.getState()) === 'active') return;
    await job.remove().catch(() => undefined); // taken by a worker meanwhile: it reads `cancelled` and stops
    await this.runs.clear(taskId);
  }

  /** Keeps answers for the task's next attempt; `complete`: nothing is outstanding, run it now. */
  async answer(taskId: string, answers: Readonly<Record<string, JsonObject>>, complete: boolean): Promise<void> {
    await this.runs.answer(taskId, answers);
    if (!complete) return;
    const job = await this.queue.getJob(taskId);
    if (job !== undefined && (await job.isDelayed())) await job.promote();
  }

  /** Jobs by state: waiting, active, delayed (parked for input or a retry), failed. */
  async counts(): Promise<{ waiting: number; active: number; delayed: number; failed: number }> {
    const counts = await this.queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
    return { waiting: counts['waiting'] ?? 0, active: counts['active'] ?? 0, delayed: counts['delayed'] ?? 0, failed: counts['failed'] ?? 0 };
  }

  /** Closes the queue's connections. */
  async close(): Promise<void> {
    await this.queue.close();
    for (const connection of this.#connections) connection.disconnect();
  }
}
