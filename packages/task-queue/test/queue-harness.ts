/**
 * What a job-queue test with real processes does over and over: start instances and workers at
 * one place (a Redis or a Redis Cluster, a key prefix, a queue name), connect task-capable
 * clients to instances, create tasks, read the status changes every process reported, and end
 * it all after the test ({@link QueueHarness.cleanup}); and the kill-the-worker scenario, run on
 * one Redis and on a Redis Cluster.
 */
import { Client, type ToolTask } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { SimulatedClock, TASKS_EXTENSION_ID, withExtension, type DetailedTask } from '@statemcp/protocol';
import { uniquePrefix } from '@statemcp/testing';
import { expect } from 'vitest';
import type { QueueEvent } from './queue-fixture.js';
import { startProcess, type QueuePlace, type QueueProcess } from './queue-processes.js';

const TASKS = withExtension({}, TASKS_EXTENSION_ID);

/** Processes, clients and tasks of one test file. */
export class QueueHarness {
  readonly processes: QueueProcess[] = [];
  readonly #clients: Client[] = [];
  readonly #stops: AbortController[] = [];
  readonly #redisUrl: () => string;

  /** `redisUrl`: the place's Redis, read when a place is made (`cluster:<url>,…` for a Redis Cluster). */
  constructor(redisUrl: () => string) {
    this.#redisUrl = redisUrl;
  }

  /** A fresh place: its own key prefix and queue name. */
  place(): QueuePlace {
    return { redisUrl: this.#redisUrl(), keyPrefix: uniquePrefix(), queueName: `q-${globalThis.crypto.randomUUID()}` };
  }

  async start(role: 'instance' | 'worker', where: QueuePlace, id: string): Promise<QueueProcess> {
    const child = await startProcess(role, where, id);
    this.processes.push(child);
    return child;
  }

  /** A 2026-07-28 client of `instance` with the tasks extension (and `clock`, e.g. one that never moves so it never polls). */
  async connect(instance: QueueProcess, clock?: SimulatedClock): Promise<Client> {
    const client = new Client({ name: `client-of-${instance.id}`, version: '1.0.0' }, { era: 'modern', capabilities: { ...TASKS, elicitation: {} }, ...(clock === undefined ? {} : { clock }) });
    this.#clients.push(client);
    await client.connect(new StreamableHttpClientTransport(instance.url as URL));
    return client;
  }

  /** Starts `name` as a task through `client` and returns its id. */
  async createTask(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
    let created!: (task: ToolTask) => void;
    const handle = new Promise<ToolTask>((resolve) => (created = resolve));
    const stop = new AbortController();
    this.#stops.push(stop);
    void client.callTool({ name, arguments: args }, { onTask: created, signal: stop.signal }).catch(() => undefined);
    return (await handle).taskId;
  }

  /** Every `changed` event of `taskId` reaching `status`, from all processes. */
  changes(taskId: string, status: string): QueueEvent[] {
    return this.processes.flatMap((child) => child.events).filter((event) => event.event === 'changed' && event.taskId === taskId && event.status === status);
  }

  /**
   * Resolves once some process reported `taskId` reaching `status`: a process prints its events
   * on stdout, which can trail the store a client just read the same status from. Check the
   * count ({@link changes}) after this, to see it reported once.
   */
  async reported(taskId: string, status: string): Promise<void> {
    const match = (event: QueueEvent): boolean => event.event === 'changed' && event.taskId === taskId && event.status === status;
    await Promise.race(this.processes.map((child) => child.waitFor(match)));
  }

  /** The steps of `taskId` that process `worker` ran, in order. */
  steps(taskId: string, worker: string): number[] {
    return this.processes
      .filter((child) => child.id === worker)
      .flatMap((child) => child.events.filter((event) => event.event === 'step' && event.taskId === taskId).map((event) => (event as { step: number }).step));
  }

  /** Ends the test's calls, clients and processes (`QUEUE_DEBUG` set: prints what each process saw last). */
  async cleanup(): Promise<void> {
    if (process.env['QUEUE_DEBUG'] !== undefined) for (const child of this.processes) console.log(child.id, JSON.stringify(child.events.slice(-12)), child.stderr.join(''));
    for (const stop of this.#stops.splice(0)) stop.abort();
    await Promise.all(this.#clients.splice(0).map((client) => client.close().catch(() => undefined)));
    await Promise.all(this.processes.splice(0).map((child) => child.kill()));
  }
}

/**
 * Kill-the-worker: instance A creates a counting task, a client polls it through instance B, the
 * worker running it is SIGKILLed at step 3 and a new worker takes over. The task resumes from its
 * checkpoint on the new worker (attempt 2, no step lost or run twice past it); the poller sees
 * one continuous sequence (working with a growing step, then completed) and one result.
 */
export async function workerDiesMidTask(harness: QueueHarness): Promise<void> {
  const where = harness.place();
  const [a, b, w1] = await Promise.all([harness.start('instance', where, 'a'), harness.start('instance', where, 'b'), harness.start('worker', where, 'w1')]);
  const creator = await harness.connect(a, new SimulatedClock());
  const poller = await harness.connect(b);
  const taskId = await harness.createTask(creator, 'count', { steps: 8, stepMs: 150 });

  // Poll through B the whole time: every status and status message it sees, in order.
  const seen: DetailedTask[] = [];
  let polling = true;
  const polled = (async () => {
    while (polling) {
      seen.push(await poller.task(taskId).get());
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  })();

  await w1.waitFor((event) => event.event === 'step' && event.taskId === taskId && event.step === 3);
  await w1.kill();
  const w2 = await harness.start('worker', where, 'w2');
  const result = await poller.task(taskId).result();
  polling = false;
  await polled;
  // W2 prints its steps before its 'completed' report, on the same pipe: once that is read, all are.
  await harness.reported(taskId, 'completed');

  // W2 ran the second attempt, from W1's checkpoint (step 3 or later), to the end.
  expect(result.structuredContent).toMatchObject({ steps: 8, worker: 'w2', attempt: 2 });
  const resumedFrom = (result.structuredContent as { resumedFrom: number }).resumedFrom;
  expect(resumedFrom).toBeGreaterThanOrEqual(3);
  expect(w2.events.filter((event) => event.event === 'step' && event.taskId === taskId).map((event) => (event as { step: number }).step)).toEqual(
    Array.from({ length: 8 - resumedFrom }, (_, index) => resumedFrom + 1 + index),
  );
  // One continuous sequence: working (its step only growing), then completed once.
  const statuses = seen.map((task) => task.status);
  expect(statuses.at(-1) === 'completed' || statuses.every((status) => status === 'working')).toBe(true);
  expect(statuses.filter((status) => status !== 'working' && status !== 'completed')).toEqual([]);
  expect(statuses.indexOf('completed') === -1 || statuses.slice(statuses.indexOf('completed')).every((status) => status === 'completed')).toBe(true);
  const steps = seen.map((task) => Number(/step (\d+)/.exec(task.statusMessage ?? '')?.[1] ?? 0));
  expect(steps).toEqual([...steps].sort((x, y) => x - y));
  expect((await poller.task(taskId).get()).status).toBe('completed');
  expect(harness.changes(taskId, 'completed')).toHaveLength(1);
  expect(harness.changes(taskId, 'completed')[0]?.worker).toBe('w2');
}
