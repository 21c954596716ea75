/**
 * The worker side of the job queue: takes task jobs from BullMQ and runs them through
 * `McpServer.taskJobs` of a server registering the same tools (a server instance, or a process
 * with no HTTP front). Semantics, all at least once:
 *
 * - **crash**: a worker that dies (SIGKILL, OOM, lost host) stops renewing its job's lock; the
 *   stalled-job check of any other worker puts the job back and it runs again — a new attempt,
 *   starting from the handler's last `extra.task.checkpoint(state)`;
 * - **deploy**: `drain(deadlineMs)` takes no new job, lets running ones finish within the
 *   deadline, then aborts the rest (`extra.signal`) and hands each job back with its checkpoint,
 *   without spending an attempt; a handler that ignores its signal is given up on
 *   `abandonAfterMs` later: its job is handed back all the same (its later checkpoints are
 *   dropped) and the drain resolves;
 * - **retry**: a handler throwing `TaskRetryError` runs again after `retryDelayMs`; after
 *   `maxAttempts` attempts (crashes included) the task ends `failed` with the last cause;
 * - **input**: a handler asking for input ends its attempt; the job is parked (BullMQ's delayed
 *   set, holding no worker) until the answers are in, then runs again with them;
 * - **cancel**: `tasks/cancel` on any instance reaches the attempt over the cluster bus and aborts
 *   the handler's signal; a job no worker holds is removed.
 *
 * The task's terminal status is written once: only by the attempt still holding the job's lock,
 * and the task machine ignores any move of a terminal task. Each attempt started and settled is
 * reported on the `statemcp:task-queue` diagnostics channel (`queue-events.ts`).
 */
import type { TaskAttemptResult } from '@statemcp/protocol';
import type { TaskAttemptOutcome, TaskJobs, TaskJob } from '@statemcp/server';
import { DelayedError, Worker, type Job } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import { resolveConnection, type TaskQueueConnectionOptions } from './connection.js';
import { report } from './queue-events.js';
import { TaskQueue } from './task-queue.js';

/** Options of {@link TaskWorker}. */
export interface TaskWorkerOptions extends TaskQueueConnectionOptions {
  /** The server whose tools run the jobs (an `McpServer` with the same tools, task store and `cluster` as the instances). */
  readonly server: { readonly taskJobs: TaskJobs };
  /** Jobs run at once by this worker (default 1). */
  readonly concurrency?: number;
  /** Attempts before the task fails with the last cause (default 3). */
  readonly maxAttempts?: number;
  /** Wait before a retried attempt, ms (default 1 000). */
  readonly retryDelayMs?: number;
  /** How long a job's lock lasts without renewal: a dead worker's job runs again after about this long, ms (default 30 000). */
  readonly lockDurationMs?: number;
  /** How often this worker looks for stalled jobs, ms (default 30 000). */
  readonly stalledIntervalMs?: number;
  /** How long a job waiting for input stays parked before it is looked at again, ms (default 24 h). */
  readonly parkMs?: number;
  /** How long a task's run state outlives its last write, ms (default 7 days). */
  readonly runStateTtlMs?: number;
  /**
   * After a drain's deadline aborted them, how long handlers have to return before their jobs
   * are handed back anyway (a handler ignoring its signal), ms (default 1 000).
   */
  readonly abandonAfterMs?: number;
  /** Told of errors the worker recovers from (a lost Redis connection, a failed write). */
  readonly onError?: (error: unknown) => void;
}

const DAY_MS = 24 * 3_600_000;

/** This worker's lock on the job is gone (it stalled and the job went back): another attempt owns the task. */
class LostJobError extends Error {
  override readonly name = 'LostJobError';
  constructor() {
    super('This worker lost the job: another attempt owns the task');
  }
}

/** An attempt this worker runs: its abort switch, and how to stop waiting for it. */
interface RunningAttempt {
  readonly controller: AbortController;
  /** Stops waiting for the handler: its job is handed back. */
  readonly abandon: () => void;
}

/** The result reported for an attempt's outcome. */
const RESULTS: Readonly<Record<TaskAttemptOutcome['kind'], TaskAttemptResult>> = Object.freeze({ finished: 'finished', input: 'input', interrupted: 'interrupted', retry: 'retry' });

/** Runs task jobs; see the module comment. Starts taking jobs at once. */
export class TaskWorker {
  /** The BullMQ worker. */
  readonly worker: Worker<TaskJob>;
  readonly #queue: TaskQueue;
  readonly #jobs: TaskJobs;
  readonly #maxAttempts: number;
  readonly #retryDelayMs: number;
  readonly #lockDurationMs: number;
  readonly #parkMs: number;
  readonly #abandonAfterMs: number;
  readonly #running = new Set<RunningAttempt>();
  /** The worker's own connection (BullMQ leaves a connection it was given open; its blocking duplicate it closes). */
  readonly #connection: Redis | Cluster;
  #closing: Promise<void> | undefined;

  constructor(options: TaskWorkerOptions) {
    const { open, name, prefix } = resolveConnection(options);
    this.#jobs = options.server.taskJobs;
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.#retryDelayMs = options.retryDelayMs ?? 1_000;
    this.#lockDurationMs = options.lockDurationMs ?? 30_000;
    this.#parkMs = options.parkMs ?? DAY_MS;
    this.#abandonAfterMs = options.abandonAfterMs ?? 1_000;
    const onError = options.onError ?? (() => undefined);
    this.#queue = new TaskQueue({ connection: options.connection, name, prefix, onError, ...(options.runStateTtlMs === undefined ? {} : { runStateTtlMs: options.runStateTtlMs }) });
    this.#connection = open();
    this.#connection.on('error', onError);
    this.worker = new Worker<TaskJob>(name, (job, token) => this.#process(job, token), {
      connection: this.#connection,
      prefix,
      concurrency: options.concurrency ?? 1,
      lockDuration: this.#lockDurationMs,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      // Attempts are counted here (crashes included): BullMQ never fails a stalled job first.
      maxStalledCount: this.#maxAttempts + 1,
    });
    this.worker.on('error', onError);
  }

  /** Resolves once the worker is connected and taking jobs. */
  async ready(): Promise<void> {
    await this.worker.waitUntilReady();
  }

  /**
   * A graceful stop (deploy): no new job is taken; running attempts have `deadlineMs` to finish,
   * then their handlers are aborted and their jobs handed back with their checkpoints, to run on
   * another worker without spending an attempt. A handler still running `abandonAfterMs` after
   * the abort (deaf to its signal) is no longer waited for: its job is handed back all the same
   * and later checkpoints of that attempt are dropped. Resolves once every job is finished or
   * handed back.
   */
  async drain(deadlineMs: number): Promise<void> {
    const closing = this.close();
    let abandoning: ReturnType<typeof setTimeout> | undefined;
    const timer = setTimeout(() => {
      for (const running of this.#running) running.controller.abort(new Error('The worker is shutting down: the task is handed back'));
      // A handler that ignores its signal does not hold the deploy: its job is handed back regardless.
      abandoning = setTimeout(() => {
        for (const running of this.#running) running.abandon();
      }, this.#abandonAfterMs);
    }, deadlineMs);
    try {
      await closing;
    } finally {
      clearTimeout(timer);
      clearTimeout(abandoning);
    }
  }

  /** Stops taking jobs and waits for the running ones (without a deadline; see {@link drain}). */
  close(): Promise<void> {
    this.#closing ??= this.worker.close().finally(async () => {
      this.#connection.disconnect();
      await this.#queue.close();
    });
    return this.#closing;
  }

  async #process(job: Job<TaskJob>, token: string | undefined): Promise<void> {
    const { taskId } = job.data;
    const runs = this.#queue.runs;
    const state = await runs.read(taskId);
    const attempt = job.attemptsStarted - state.handbacks;
    const startedAt = Date.now();
    const queue = this.worker.name;
    const settled = (result: TaskAttemptResult): void => {
      const at = Date.now();
      report({ type: 'settled', queue, at, taskId, attempt, result, durationMs: at - startedAt });
    };
    if (attempt > this.#maxAttempts) {
      await this.#jobs.fail(taskId, `The task failed after ${String(this.#maxAttempts)} attempts: ${state.cause ?? 'the worker running it stopped'}`);
      await runs.clear(taskId);
      await this.#queue.finished(job.data);
      settled('exhausted');
      return;
    }
    const first = job.attemptsStarted === 1;
    report({ type: 'started', queue, at: startedAt, taskId, attempt, waitMs: first ? Math.max(0, (job.processedOn ?? startedAt) - job.timestamp) : undefined });
    this.#queue.depth.poke();
    // What the next attempt reports if this one never ends (the worker dies).
    await runs.cause(taskId, `the worker running attempt ${String(attempt)} stopped before it finished`);
    const controller = new AbortController();
    let abandoned = false;
    let abandon!: () => void;
    const givenUp = new Promise<'abandoned'>((resolve) => {
      abandon = () => {
        abandoned = true;
        resolve('abandoned');
      };
    });
    const running: RunningAttempt = { controller, abandon };
    this.#running.add(running);
    let outcome: TaskAttemptOutcome | 'abandoned';
    try {
      const run = this.#jobs.run({
        job: job.data,
        attempt,
        checkpoint: state.checkpoint,
        answers: state.answers,
        signal: controller.signal,
        // An abandoned handler's checkpoints would overwrite those of the attempt that runs next.
        saveCheckpoint: (checkpoint) => (abandoned ? Promise.resolve() : runs.checkpoint(taskId, checkpoint)),
        confirm: async () => {
          // 0: the lock is gone (this worker stalled and the job went back): another attempt owns the task now.
          if (token !== undefined && Number(await job.extendLock(token, this.#lockDurationMs)) === 0) throw new LostJobError();
        },
      });
      outcome = await Promise.race([run, givenUp]);
      if (outcome === 'abandoned') void run.catch(() => undefined); // it ends when it ends; its outcome is moot (its signal is aborted)
    } catch (error) {
      if (error instanceof LostJobError) {
        settled('lost');
        return; // the attempt now running it settles the job
      }
      // The store or Redis failed mid-attempt: a retry, counted like any other.
      outcome = { kind: 'retry', cause: error instanceof Error ? error.message : String(error) };
    } finally {
      this.#running.delete(running);
    }
    try {
      await this.#settle(job, token, outcome === 'abandoned' ? { kind: 'interrupted' } : outcome);
    } finally {
      settled(outcome === 'abandoned' ? 'abandoned' : RESULTS[outcome.kind]);
    }
  }

  /** Completes, retries, hands back or parks the job after an attempt. */
  async #settle(job: Job<TaskJob>, token: string | undefined, outcome: TaskAttemptOutcome): Promise<void> {
    const { taskId } = job.data;
    const runs = this.#queue.runs;
    switch (outcome.kind) {
      case 'finished':
        await runs.clear(taskId);
        await this.#queue.finished(job.data);
        return;
      case 'retry':
        await runs.cause(taskId, outcome.cause);
        await job.moveToDelayed(Date.now() + this.#retryDelayMs, token);
        throw new DelayedError();
      case 'interrupted':
        await runs.handback(taskId);
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      case 'input': {
        await runs.handback(taskId);
        await job.moveToDelayed(Date.now() + this.#parkMs, token);
        // Answers that reached this worker while the job was being parked.
        const { answers, complete } = await outcome.parked();
        if (Object.keys(answers).length > 0) await this.#queue.answer(taskId, answers, complete);
        throw new DelayedError();
      }
    }
  }
}
