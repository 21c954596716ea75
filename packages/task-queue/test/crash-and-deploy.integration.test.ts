/**
 * The job queue with real processes and a real `redis-server` (issue 40's acceptance): instances
 * with an HTTP front create tasks, worker-only processes run them. A worker SIGKILLed mid-task
 * hands the task to another from its checkpoint; a client polling through another instance sees
 * one continuous status sequence and one result; a cancel sent to an instance aborts the handler
 * on the worker running it; a rolling deploy (workers drained and replaced one by one) loses and
 * duplicates nothing. Stalled-job detection runs every second with a 4 s lock here.
 */
import { Client, type ToolTask } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport';
import { SimulatedClock, TASKS_EXTENSION_ID, withExtension, type DetailedTask } from '@statemcp/protocol';
import { startRedisServer, uniquePrefix, type TestRedis } from '@statemcp/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QueueEvent } from './queue-fixture.js';
import { startProcess, type QueuePlace, type QueueProcess } from './queue-processes.js';

let redis: TestRedis;
const processes: QueueProcess[] = [];
const clients: Client[] = [];
const stops: AbortController[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});
afterEach(async () => {
  if (process.env['QUEUE_DEBUG'] !== undefined) for (const child of processes) console.log(child.id, JSON.stringify(child.events.slice(-12)), child.stderr.join(''));
  for (const stop of stops.splice(0)) stop.abort();
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await Promise.all(processes.splice(0).map((child) => child.kill()));
});

function place(): QueuePlace {
  return { redisUrl: redis.url, keyPrefix: uniquePrefix(), queueName: `q-${globalThis.crypto.randomUUID()}` };
}

async function start(role: 'instance' | 'worker', where: QueuePlace, id: string): Promise<QueueProcess> {
  const child = await startProcess(role, where, id);
  processes.push(child);
  return child;
}

const TASKS = withExtension({}, TASKS_EXTENSION_ID);

async function connect(instance: QueueProcess, clock?: SimulatedClock): Promise<Client> {
  const client = new Client({ name: `client-of-${instance.id}`, version: '1.0.0' }, { era: 'modern', capabilities: { ...TASKS, elicitation: {} }, ...(clock === undefined ? {} : { clock }) });
  clients.push(client);
  await client.connect(new StreamableHttpClientTransport(instance.url as URL));
  return client;
}

/** Starts `name` as a task through `client` (whose clock never moves: it does not poll) and returns its id. */
async function createTask(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  let created!: (task: ToolTask) => void;
  const handle = new Promise<ToolTask>((resolve) => (created = resolve));
  const stop = new AbortController();
  stops.push(stop);
  void client.callTool({ name, arguments: args }, { onTask: created, signal: stop.signal }).catch(() => undefined);
  return (await handle).taskId;
}

/** Every `changed` event of `taskId` reaching `status`, from all processes. */
function changes(taskId: string, status: string): QueueEvent[] {
  return processes.flatMap((child) => child.events).filter((event) => event.event === 'changed' && event.taskId === taskId && event.status === status);
}

describe('a worker dies mid-task', () => {
  it('resumes on another worker from its checkpoint; the client polling another instance sees one sequence and one result', async () => {
    const where = place();
    const [a, b, w1] = await Promise.all([start('instance', where, 'a'), start('instance', where, 'b'), start('worker', where, 'w1')]);
    const creator = await connect(a, new SimulatedClock());
    const poller = await connect(b);
    const taskId = await createTask(creator, 'count', { steps: 8, stepMs: 150 });

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
    const w2 = await start('worker', where, 'w2');
    const result = await poller.task(taskId).result();
    polling = false;
    await polled;

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
    expect(changes(taskId, 'completed')).toHaveLength(1);
    expect(changes(taskId, 'completed')[0]?.worker).toBe('w2');
  });
});

describe('cancel', () => {
  it('sent to an instance, aborts the handler on the worker running the task; the task ends cancelled once', async () => {
    const where = place();
    const [a, b, w1] = await Promise.all([start('instance', where, 'a'), start('instance', where, 'b'), start('worker', where, 'w1')]);
    const creator = await connect(a, new SimulatedClock());
    const other = await connect(b);
    const taskId = await createTask(creator, 'wait');
    await w1.waitFor((event) => event.event === 'attempt' && event.taskId === taskId);

    await other.task(taskId).cancel();
    await w1.waitFor((event) => event.event === 'aborted' && event.taskId === taskId);
    expect((await other.task(taskId).get()).status).toBe('cancelled');
    // Cancelled once, by the worker running it; cancelling again changes nothing.
    await other.task(taskId).cancel();
    expect(changes(taskId, 'cancelled').map((event) => event.worker)).toEqual(['w1']);
    expect((await creator.task(taskId).get()).status).toBe('cancelled');
  });
});

describe('a rolling deploy', () => {
  it('drains and replaces every worker one by one while 20 tasks run: all complete, none twice, none lost', async () => {
    const where = place();
    const [a, w1, w2] = await Promise.all([start('instance', where, 'a'), start('worker', where, 'w1'), start('worker', where, 'w2')]);
    const creator = await connect(a, new SimulatedClock());
    const poller = await connect(a);
    const ids = await Promise.all(Array.from({ length: 20 }, () => createTask(creator, 'count', { steps: 20, stepMs: 250 })));

    // w1 is drained (200 ms deadline) as soon as its tasks are under way, its replacement w3 starting meanwhile;
    // then w2 is drained once w3 serves, w4 replacing it.
    await w1.waitFor((event) => event.event === 'step');
    const w3 = start('worker', where, 'w3');
    expect(await w1.drain(200)).toBe(0);
    await w3;
    const w4 = start('worker', where, 'w4');
    expect(await w2.drain(200)).toBe(0);
    await w4;

    const results = await Promise.all(ids.map((id) => poller.task(id).result()));
    for (const id of ids) expect(changes(id, 'completed')).toHaveLength(1);
    const steps = (id: string, worker: string): number[] =>
      processes.filter((child) => child.id === worker).flatMap((child) => child.events.filter((event) => event.event === 'step' && event.taskId === id).map((event) => (event as { step: number }).step));
    const handedBack = ids.filter((id) => steps(id, 'w1').length > 0);
    expect(handedBack.length).toBeGreaterThan(0);
    for (const [index, id] of ids.entries()) {
      const content = results[index]?.structuredContent as { steps: number; attempt: number; worker: string; resumedFrom: number };
      // Hand-backs spend no attempt; every task ran every step.
      expect(content).toMatchObject({ steps: 20, attempt: 1 });
      if (!handedBack.includes(id)) continue;
      // A task w1 gave back resumed elsewhere from its checkpoint: no step lost, none repeated past it.
      expect(content.worker).not.toBe('w1');
      expect(content.resumedFrom).toBeGreaterThanOrEqual(Math.max(...steps(id, 'w1')));
    }
  });
});
