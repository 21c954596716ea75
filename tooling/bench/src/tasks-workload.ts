/**
 * Tasks of the tasks extension (MCP 2026-07-28) run in process against tasks run on the job
 * queue of `@statemcp/task-queue`. A statemcp client (in memory, `era: 'modern'`, the extension
 * declared) calls the task-only tool `work` (it returns at once); one operation is one task, timed
 * from the `tools/call` to the moment the server that runs it writes `completed` (its task
 * notifier): the round trip create → completed, without any client polling interval in it.
 *
 * - `in-process` — one `McpServer`, tasks in its in-memory store, the handler run where the call
 *   arrived (the default);
 * - `in-process-redis` — the same with the task store of `@statemcp/redis-store` (what the queue
 *   adds beyond a shared store shows against this one);
 * - `queued` — an instance on the Redis stores whose executor is a `TaskQueue`, and one
 *   `TaskWorker` (concurrency 16) running the jobs with a worker-only `McpServer`: the job is
 *   written to Redis, taken by the worker, run, and the record completed through the store.
 *
 * Everything runs in this process (so client CPU µs/task is the whole cost but Redis's own);
 * each run starts its own `redis-server` (or uses `STATEMCP_REDIS_URL`).
 *
 * - `tasks.roundtrip`: one task at a time (latency of a task's round trip);
 * - `tasks.worker.c16`: 16 tasks in flight (tasks/s of one worker, or of one in-process server).
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@statemcp/client';
import { InMemoryTransport, SimulatedClock, TASKS_EXTENSION_ID, isTaskTerminal, withExtension } from '@statemcp/protocol';
import { connectRedisStores, type RedisStores } from '@statemcp/redis-store';
import { McpServer, type DurableTaskStore, type TaskExecutor } from '@statemcp/server';
import { TaskQueue, TaskWorker } from '@statemcp/task-queue';
import { testRedisUrl } from '@statemcp/testing';
import type { Counts } from './config.js';
import { closedLoop, type Metric, type Sample, type Workload } from './runner.js';
import { latencyPercentiles } from './stats.js';

const STACKS = ['in-process', 'in-process-redis', 'queued'] as const;
type Stack = (typeof STACKS)[number];

const METRICS: readonly Metric[] = [
  { key: 'tasksPerSec', label: 'tasks/s', digits: 0, higherIsBetter: true },
  { key: 'p50', label: 'round trip p50 ms', digits: 2, higherIsBetter: false },
  { key: 'p99', label: 'round trip p99 ms', digits: 2, higherIsBetter: false },
  { key: 'cpuUs', label: 'CPU µs/task', digits: 0, higherIsBetter: false },
];

const WORKER_CONCURRENCY = 16;

/** A server with the task-only tool `work`, telling `onDone` when a task of it ends. */
function tasksServer(name: string, options: { store?: DurableTaskStore; executor?: TaskExecutor; stores?: RedisStores }, onDone: (taskId: string) => void): McpServer {
  const { stores } = options;
  const server = new McpServer(
    { name, version: '1.0.0' },
    {
      taskExtension: { ...(options.store === undefined ? {} : { store: options.store }), ...(options.executor === undefined ? {} : { executor: options.executor }) },
      ...(stores === undefined ? {} : { cluster: { instanceId: name, bus: stores.bus, subscriptions: stores.subscriptions } }),
    },
  );
  server.registerTool('work', { execution: { taskSupport: 'required' } }, () => ({ content: [{ type: 'text', text: 'done' }] }));
  server.setTaskNotifier({ taskChanged: (task) => (isTaskTerminal(task.status) ? onDone(task.taskId) : undefined) });
  return server;
}

/** Tasks ended (by id) and the operations waiting for theirs. */
class Completions {
  readonly #done = new Set<string>();
  readonly #waiting = new Map<string, () => void>();

  readonly done = (taskId: string): void => {
    const waiter = this.#waiting.get(taskId);
    if (waiter === undefined) {
      this.#done.add(taskId);
      return;
    }
    this.#waiting.delete(taskId);
    waiter();
  };

  wait(taskId: string): Promise<void> {
    if (this.#done.delete(taskId)) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.set(taskId, resolve));
  }
}

/** One stack, deployed: `run()` creates one task and resolves once it completed. */
interface Deployment {
  run(): Promise<void>;
  stop(): Promise<void>;
}

async function deploy(stack: Stack): Promise<Deployment> {
  const completions = new Completions();
  const closers: (() => Promise<unknown>)[] = [];
  const stop = async (): Promise<void> => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  };
  try {
    let instance: McpServer;
    if (stack === 'in-process') {
      instance = tasksServer('bench-tasks', {}, completions.done);
    } else {
      const redis = await testRedisUrl();
      closers.push(() => redis.stop());
      const keyPrefix = `bench-tasks:${randomUUID()}:`;
      const stores = await connectRedisStores({ url: redis.url, keyPrefix });
      closers.push(() => stores.close());
      if (stack === 'in-process-redis') {
        instance = tasksServer('bench-tasks', { store: stores.tasks, stores }, completions.done);
      } else {
        const place = { connection: redis.url, name: 'bench', prefix: keyPrefix.slice(0, -1) };
        const queue = new TaskQueue(place);
        closers.push(() => queue.close());
        instance = tasksServer('bench-instance', { store: stores.tasks, executor: queue, stores }, () => undefined);
        // The worker: its own stores (connections), as a separate process would have.
        const workerStores = await connectRedisStores({ url: redis.url, keyPrefix });
        closers.push(() => workerStores.close());
        const worker = new TaskWorker({ ...place, server: tasksServer('bench-worker', { store: workerStores.tasks, stores: workerStores }, completions.done), concurrency: WORKER_CONCURRENCY });
        closers.push(() => worker.close());
        await worker.ready();
      }
    }
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    await instance.connect(serverSide);
    // A clock that never moves: the client never polls; the server's notifier times the task.
    const client = new Client({ name: 'bench-tasks-client', version: '1.0.0' }, { era: 'modern', capabilities: withExtension({}, TASKS_EXTENSION_ID), clock: new SimulatedClock() });
    await client.connect(clientSide);
    closers.push(() => client.close());
    return {
      run: async () => {
        const stopDriving = new AbortController();
        const taskId = await new Promise<string>((resolve, reject) => {
          client.callTool({ name: 'work', arguments: {} }, { onTask: (task) => resolve(task.taskId), signal: stopDriving.signal }).catch((error: unknown) => {
            if (!stopDriving.signal.aborted) reject(error instanceof Error ? error : new Error(String(error)));
          });
        });
        await completions.wait(taskId);
        stopDriving.abort();
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function tasksWorkload(id: string, title: string, inFlight: number, total: number, warmup: number, limit: number): Workload {
  return {
    id,
    title,
    detail: `${total} tasks after ${warmup} warm-up tasks, ${inFlight} in flight; one process; queued = TaskQueue + one TaskWorker (concurrency ${WORKER_CONCURRENCY}) on a local redis-server`,
    stacks: STACKS,
    metrics: METRICS,
    ratioMetrics: ['tasksPerSec'],
    comparisons: [{ mine: 'queued', others: ['in-process', 'in-process-redis'] }],
    run: async (stack): Promise<Sample> => {
      const deployment = await deploy(stack as Stack);
      try {
        await closedLoop(warmup, inFlight, limit, () => deployment.run());
        const result = await closedLoop(total, inFlight, limit, () => deployment.run());
        const { p50, p99 } = latencyPercentiles(result.latencies);
        return { tasksPerSec: result.opsPerSec, p50, p99, cpuUs: result.cpuUsPerOp };
      } finally {
        await deployment.stop();
      }
    },
  };
}

/** The task workloads (registered in workloads.ts). */
export function tasksWorkloads(c: Counts): Workload[] {
  const limit = c.runLimitMs * 0.8;
  const warmup = Math.max(5, Math.min(c.warmup, 100));
  return [
    tasksWorkload('tasks.roundtrip', 'A task of the tasks extension, create → completed: in process (memory store) vs in process (Redis store) vs on the job queue, one at a time', 1, c.tasksSeq, warmup, limit),
    tasksWorkload('tasks.worker.c16', 'Tasks per second of one worker: in process (memory store) vs in process (Redis store) vs on the job queue, 16 tasks in flight', WORKER_CONCURRENCY, c.tasksConcurrent, warmup, limit),
  ];
}

/** Ids of {@link tasksWorkloads}. */
export const TASKS_WORKLOAD_IDS: readonly string[] = ['tasks.roundtrip', 'tasks.worker.c16'];
