/**
 * One process's job-queue world for the integration tests over a real `redis-server`: instances
 * (an `McpServer` creating tasks on the queue, and an in-memory client of it) and worker-only
 * servers with their `TaskWorker`, every server's events collected, and everything a test opens
 * closed after it. `useRedis()` starts the `redis-server` of a test file.
 */
import { Client, type ToolTask } from '@statemcp/client';
import { InMemoryTransport, TASKS_EXTENSION_ID, withExtension, type SimulatedClock } from '@statemcp/protocol';
import { connectRedisStores, type RedisStores } from '@statemcp/redis-store';
import type { McpServer } from '@statemcp/server';
import { startRedisServer, uniquePrefix, type TestRedis } from '@statemcp/testing';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { TaskQueue, TaskWorker, type TaskWorkerOptions } from '../src/index.js';
import { queueServer, type QueueEvent, type QueueServerOptions } from './queue-fixture.js';

/** What a test file shares: the Redis URL and what to close after each test. */
export interface RedisPlace {
  readonly url: () => string;
  readonly closing: (() => Promise<unknown>)[];
}

/** Starts a `redis-server` for the test file; closes what each test opened after it. */
export function useRedis(): RedisPlace {
  let redis: TestRedis | undefined;
  const closing: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close().catch(() => undefined);
  });
  return {
    url: () => {
      if (redis === undefined) throw new Error('redis-server is not started');
      return redis.url;
    },
    closing,
  };
}

const TASKS = withExtension({}, TASKS_EXTENSION_ID);

/** Options of one server of a world. */
type ServerOptions = Pick<QueueServerOptions, 'owner'>;

/** One test's world: its queue name and store prefix, the events of every server, a clock for the instances. */
export class World {
  readonly name = `q-${globalThis.crypto.randomUUID()}`;
  readonly keyPrefix = uniquePrefix();
  readonly events: QueueEvent[] = [];
  now = Date.now();
  readonly #place: RedisPlace;

  constructor(place: RedisPlace) {
    this.#place = place;
  }

  async stores(): Promise<RedisStores> {
    const stores = await connectRedisStores({ url: this.#place.url(), keyPrefix: this.keyPrefix });
    this.#place.closing.push(() => stores.close());
    return stores;
  }

  queue(): TaskQueue {
    const queue = new TaskQueue({ connection: this.#place.url(), name: this.name, prefix: 'queue-test' });
    this.#place.closing.push(() => queue.close());
    return queue;
  }

  /** An instance creating tasks on the queue, and a client of it named `client-of-<id>`. */
  async instance(id: string, clock?: SimulatedClock, options: ServerOptions = {}): Promise<{ mcp: McpServer; client: Client; queue: TaskQueue }> {
    const stores = await this.stores();
    const queue = this.queue();
    const mcp = queueServer({ id, store: stores.tasks, bus: stores.bus, subscriptions: stores.subscriptions, executor: queue, now: () => this.now, report: (event) => this.events.push(event), ...options });
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    await mcp.connect(serverSide);
    const client = new Client(
      { name: `client-of-${id}`, version: '1.0.0' },
      { era: 'modern', capabilities: { ...TASKS, elicitation: {} }, ...(clock === undefined ? {} : { clock }), onElicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
    );
    await client.connect(clientSide);
    this.#place.closing.push(() => client.close());
    return { mcp, client, queue };
  }

  /** A worker-only server and its `TaskWorker`. */
  async worker(id: string, options: Partial<TaskWorkerOptions> = {}, server: ServerOptions = {}): Promise<TaskWorker> {
    const stores = await this.stores();
    const mcp = queueServer({ id, store: stores.tasks, bus: stores.bus, subscriptions: stores.subscriptions, now: () => this.now, report: (event) => this.events.push(event), ...server });
    const worker = new TaskWorker({ server: mcp, connection: this.#place.url(), name: this.name, prefix: 'queue-test', retryDelayMs: 20, ...options });
    this.#place.closing.push(() => worker.close());
    await worker.ready();
    return worker;
  }

  changes(taskId: string, status: string): QueueEvent[] {
    return this.events.filter((event) => event.event === 'changed' && event.taskId === taskId && event.status === status);
  }

  /**
   * Resolves once a server reported `taskId` reaching `status`. A worker reports a change once its
   * store write resolved, so a client can read the status first; check {@link changes} after this
   * to see it reported once.
   */
  async reported(taskId: string, status: string): Promise<void> {
    await eventually(() => this.changes(taskId, status).length > 0);
  }

  attempts(taskId?: string): QueueEvent[] {
    return this.events.filter((event) => event.event === 'attempt' && (taskId === undefined || event.taskId === taskId));
  }

  /** Starts `name` as a task through `client` (whose clock never moves: it does not poll) and returns its id. */
  async createTask(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
    let created!: (task: ToolTask) => void;
    const handle = new Promise<ToolTask>((resolve) => (created = resolve));
    const stop = new AbortController();
    this.#place.closing.push(() => Promise.resolve(stop.abort()));
    void client.callTool({ name, arguments: args }, { onTask: created, signal: stop.signal }).catch(() => undefined);
    return (await handle).taskId;
  }
}

/** Resolves once `check` passes (polled every 10 ms; the test's own timeout bounds it). */
export async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
}
