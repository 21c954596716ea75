/**
 * The job queue in one process over a real `redis-server` (issue 40's acceptance): two instances
 * (each its own Redis connections) create and read tasks, a `TaskWorker` runs them. A task
 * cancelled while queued never runs; a task waiting an hour (on an injected clock) for input
 * holds no worker and resumes with the answer; a handler asking for retries fails with its
 * cause after the last attempt.
 */
import { Client, type ToolTask } from '@statemcp/client';
import { InMemoryTransport, SimulatedClock, TASKS_EXTENSION_ID, withExtension } from '@statemcp/protocol';
import { connectRedisStores, type RedisStores } from '@statemcp/redis-store';
import type { McpServer } from '@statemcp/server';
import { startRedisServer, uniquePrefix, type TestRedis } from '@statemcp/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TaskQueue, TaskWorker, type TaskWorkerOptions } from '../src/index.js';
import { queueServer, type QueueEvent } from './queue-fixture.js';

let redis: TestRedis;
const closing: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close().catch(() => undefined);
});

const TASKS = withExtension({}, TASKS_EXTENSION_ID);

/** One test's world: its queue name and store prefix, the events of every server, a clock for the instances. */
class World {
  readonly name = `q-${globalThis.crypto.randomUUID()}`;
  readonly keyPrefix = uniquePrefix();
  readonly events: QueueEvent[] = [];
  now = Date.now();

  async stores(): Promise<RedisStores> {
    const stores = await connectRedisStores({ url: redis.url, keyPrefix: this.keyPrefix });
    closing.push(() => stores.close());
    return stores;
  }

  queue(): TaskQueue {
    const queue = new TaskQueue({ connection: redis.url, name: this.name, prefix: 'queue-test' });
    closing.push(() => queue.close());
    return queue;
  }

  /** An instance creating tasks on the queue, and a client of it. */
  async instance(id: string, clock?: SimulatedClock): Promise<{ mcp: McpServer; client: Client; queue: TaskQueue }> {
    const stores = await this.stores();
    const queue = this.queue();
    const mcp = queueServer({ id, store: stores.tasks, bus: stores.bus, subscriptions: stores.subscriptions, executor: queue, now: () => this.now, report: (event) => this.events.push(event) });
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    await mcp.connect(serverSide);
    const client = new Client(
      { name: `client-of-${id}`, version: '1.0.0' },
      { era: 'modern', capabilities: { ...TASKS, elicitation: {} }, ...(clock === undefined ? {} : { clock }), onElicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
    );
    await client.connect(clientSide);
    closing.push(() => client.close());
    return { mcp, client, queue };
  }

  /** A worker-only server and its `TaskWorker`. */
  async worker(id: string, options: Partial<TaskWorkerOptions> = {}): Promise<TaskWorker> {
    const stores = await this.stores();
    const mcp = queueServer({ id, store: stores.tasks, bus: stores.bus, subscriptions: stores.subscriptions, now: () => this.now, report: (event) => this.events.push(event) });
    const worker = new TaskWorker({ server: mcp, connection: redis.url, name: this.name, prefix: 'queue-test', retryDelayMs: 20, ...options });
    closing.push(() => worker.close());
    await worker.ready();
    return worker;
  }

  changes(taskId: string, status: string): QueueEvent[] {
    return this.events.filter((event) => event.event === 'changed' && event.taskId === taskId && event.status === status);
  }

  attempts(taskId: string): QueueEvent[] {
    return this.events.filter((event) => event.event === 'attempt' && event.taskId === taskId);
  }
}

/** Starts `name` as a task through `client` (whose clock never moves: it does not poll) and returns its id. */
async function createTask(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  let created!: (task: ToolTask) => void;
  const handle = new Promise<ToolTask>((resolve) => (created = resolve));
  const stop = new AbortController();
  closing.push(() => Promise.resolve(stop.abort()));
  void client.callTool({ name, arguments: args }, { onTask: created, signal: stop.signal }).catch(() => undefined);
  return (await handle).taskId;
}

/** Resolves once `check` passes (polled every 10 ms; the test's own timeout bounds it). */
async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('cancel while queued', () => {
  it('cancels on another instance a task no worker has taken: its job is removed and never runs', async () => {
    const world = new World();
    const a = await world.instance('a', new SimulatedClock());
    const b = await world.instance('b');
    const taskId = await createTask(a.client, 'count', { steps: 2, stepMs: 10 });
    expect(await a.queue.queue.getJob(taskId)).toBeDefined();

    await b.client.task(taskId).cancel();
    expect((await b.client.task(taskId).get()).status).toBe('cancelled');
    expect(await a.queue.queue.getJob(taskId)).toBeUndefined();

    // A worker arriving afterwards finds nothing to run; a new task still runs.
    await world.worker('w1');
    const other = await createTask(a.client, 'count', { steps: 1, stepMs: 10 });
    expect((await b.client.task(other).result()).structuredContent).toMatchObject({ steps: 1 });
    expect(world.attempts(taskId)).toEqual([]);
    expect(world.changes(taskId, 'cancelled')).toHaveLength(1);
  });
});

describe('input', () => {
  it('waits an hour for input holding no worker, then runs again with the answer', async () => {
    const world = new World();
    const a = await world.instance('a', new SimulatedClock());
    const b = await world.instance('b');
    // One worker running one job at a time: a task waiting for input must not hold it.
    const worker = await world.worker('w1', { concurrency: 1 });
    const taskId = await createTask(a.client, 'ask');
    await eventually(async () => (await b.client.task(taskId).get()).status === 'input_required');
    const waiting = await b.client.task(taskId).get();
    expect(Object.values(waiting.inputRequests ?? {})).toEqual([expect.objectContaining({ method: 'elicitation/create' })]);
    await eventually(async () => (await a.queue.counts()).delayed === 1);
    expect(await a.queue.counts()).toMatchObject({ active: 0, delayed: 1 });

    // An hour passes (the instances' clock); the only worker runs another task meanwhile.
    world.now += 3_600_000;
    const other = await createTask(a.client, 'count', { steps: 2, stepMs: 10 });
    expect((await b.client.task(other).result()).structuredContent).toMatchObject({ steps: 2, worker: 'w1' });
    expect((await b.client.task(taskId).get()).status).toBe('input_required');

    // The answer (given on B) sends the task back to the queue; the handler runs again with it.
    const result = await b.client.task(taskId).result();
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada from w1' }]);
    expect(world.attempts(taskId).map((event) => (event as { attempt: number }).attempt)).toEqual([1, 1]);
    expect(world.events.filter((event) => event.event === 'changed' && event.taskId === taskId).map((event) => (event as { status: string }).status)).toEqual([
      'input_required',
      'working',
      'completed',
    ]);
    expect(worker.worker.isRunning()).toBe(true);
  });
});

describe('attempts', () => {
  it('fails the task with the cause once a handler asking for retries used every attempt', async () => {
    const world = new World();
    const a = await world.instance('a', new SimulatedClock());
    await world.worker('w1', { maxAttempts: 3 });
    const taskId = await createTask(a.client, 'flaky');
    await eventually(async () => (await a.client.task(taskId).get()).status === 'failed');
    const failed = await a.client.task(taskId).get();
    expect(failed.error?.message).toMatch(/^The task failed after 3 attempts: upstream unavailable/);
    expect(world.attempts(taskId).map((event) => (event as { attempt: number }).attempt)).toEqual([1, 2, 3]);
    expect(world.changes(taskId, 'failed')).toHaveLength(1);
  });
});
