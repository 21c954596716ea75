/**
 * The producer side of the job queue: a {@link TaskExecutor} for the tasks extension's
 * `executor` option. A task-augmented `tools/call` stores the task and queues one BullMQ job
 * whose id is the task id (so a task is queued at most once); `tasks/cancel` of a task no worker
 * runs removes its job; answers to a task waiting for input are kept in its run state, and the
 * parked job is promoted once nothing is outstanding. Workers ({@link TaskWorker}) run the jobs.
 * Jobs wait in per-principal order (`fair-shares.ts`): one principal flooding the queue delays
 * its own tasks, not everyone's. Jobs queued and the queue's depth are reported on the
 * `statemcp:task-queue` diagnostics channel (`queue-events.ts`).
 */
import type { JsonObject, TaskQueueDepth } from '@statemcp/protocol';
import type { TaskExecutor, TaskJob } from '@statemcp/server';
import { Queue } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import { resolveConnection, type TaskQueueConnectionOptions } from './connection.js';
import { FairShares, fairnessKey } from './fair-shares.js';
import { DepthSampler, report } from './queue-events.js';
import { RunStates } from './run-state.js';

/** Options of {@link TaskQueue}. */
export interface TaskQueueOptions extends TaskQueueConnectionOptions {
  /** How long a task's run state (checkpoint, answers) outlives its last write, ms (default 7 days). */
  readonly runStateTtlMs?: number;
  /** The depth is sampled for the `statemcp:task-queue` channel at most this often, ms (default 1 000). */
  readonly depthSampleMs?: number;
  /** Told of connection errors the queue recovers from (Redis unreachable: its commands fail meanwhile). */
  readonly onError?: (error: unknown) => void;
}

const WEEK_MS = 7 * 24 * 3_600_000;

/** Queues the jobs of tasks: pass it as `taskExtension.executor` on every instance that creates tasks. */
export class TaskQueue implements TaskExecutor {
  /** The BullMQ queue (its counts, its events). */
  readonly queue: Queue<TaskJob>;
  /** @internal The run state of the queue's tasks. */
  readonly runs: RunStates;
  /** @internal The unfinished tasks of each principal (their jobs' order). */
  readonly fair: FairShares;
  /** @internal Samples the depth for the diagnostics channel. */
  readonly depth: DepthSampler;
  /** The queue's connection and the run state's (BullMQ leaves a connection it was given open). */
  readonly #connections: readonly (Redis | Cluster)[];

  constructor(options: TaskQueueOptions) {
    const { open, name, prefix } = resolveConnection(options);
    const queueConnection = open();
    const runConnection = open();
    this.#connections = [queueConnection, runConnection];
    this.queue = new Queue<TaskJob>(name, { connection: queueConnection, prefix });
    const onError = options.onError ?? (() => undefined);
    this.queue.on('error', onError);
    runConnection.on('error', onError);
    const ttlMs = options.runStateTtlMs ?? WEEK_MS;
    this.runs = new RunStates(runConnection, `${prefix}:${name}:`, ttlMs);
    this.fair = new FairShares(runConnection, `${prefix}:${name}:`, ttlMs);
    this.depth = new DepthSampler(name, () => this.counts(), options.depthSampleMs ?? 1_000);
  }

  /**
   * Queues a new task's job (its id is the task id: queuing twice keeps one job), behind the
   * unfinished tasks of the same principal (see `fair-shares.ts`).
   */
  async enqueue(job: TaskJob): Promise<void> {
    const key = fairnessKey(job);
    const priority = await this.fair.take(key, job.taskId);
    try {
      await this.queue.add('task', job, { jobId: job.taskId, priority, attempts: 1, removeOnComplete: true, removeOnFail: { count: 1000 } });
    } catch (error) {
      await this.fair.release(key, job.taskId).catch(() => undefined);
      throw error;
    }
    report({ type: 'queued', queue: this.queue.name, at: Date.now(), taskId: job.taskId });
    this.depth.poke();
  }

  /** @internal The task's job is done with (finished, failed or removed): it leaves its principal's share. */
  async finished(job: TaskJob): Promise<void> {
    await this.fair.release(fairnessKey(job), job.taskId);
    this.depth.poke();
  }

  /** Removes the job of a task cancelled while no worker runs it (a worker that took it meanwhile reads `cancelled`). */
  async drop(taskId: string): Promise<void> {
    const job = await this.queue.getJob(taskId);
    if (job === undefined) return;
    if ((await job.getState()) === 'active') return;
    const removed = await job.remove().then(
      () => true,
      () => false, // taken by a worker meanwhile: it reads `cancelled` and stops
    );
    if (!removed) return;
    await this.runs.clear(taskId);
    await this.finished(job.data);
  }

  /** Keeps answers for the task's next attempt; `complete`: nothing is outstanding, run it now. */
  async answer(taskId: string, answers: Readonly<Record<string, JsonObject>>, complete: boolean): Promise<void> {
    await this.runs.answer(taskId, answers);
    if (!complete) return;
    const job = await this.queue.getJob(taskId);
    if (job !== undefined && (await job.isDelayed())) await job.promote();
  }

  /** Jobs by state: waiting (`prioritized`: in per-principal order), active, delayed (parked for input or a retry), failed. */
  async counts(): Promise<TaskQueueDepth> {
    const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
    return {
      waiting: counts['waiting'] ?? 0,
      prioritized: counts['prioritized'] ?? 0,
      active: counts['active'] ?? 0,
      delayed: counts['delayed'] ?? 0,
      failed: counts['failed'] ?? 0,
    };
  }

  /** Closes the queue's connections. */
  async close(): Promise<void> {
    this.depth.close();
    await this.queue.close();
    for (const connection of this.#connections) connection.disconnect();
  }
}
