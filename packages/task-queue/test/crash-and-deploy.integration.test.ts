/**
 * The job queue with real processes and a real `redis-server` (issue 40's acceptance): instances
 * with an HTTP front create tasks, worker-only processes run them. A worker SIGKILLed mid-task
 * hands the task to another from its checkpoint; a client polling through another instance sees
 * one continuous status sequence and one result; a cancel sent to an instance aborts the handler
 * on the worker running it; a rolling deploy (workers drained and replaced one by one) loses and
 * duplicates nothing. Stalled-job detection runs every second with a 4 s lock here.
 */
import { SimulatedClock } from '@statemcp/protocol';
import { startRedisServer, type TestRedis } from '@statemcp/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { QueueHarness, workerDiesMidTask } from './queue-harness.js';

let redis: TestRedis;
const harness = new QueueHarness(() => redis.url);

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});
afterEach(async () => {
  await harness.cleanup();
});

const place = () => harness.place();
const start: QueueHarness['start'] = (role, where, id) => harness.start(role, where, id);
const connect: QueueHarness['connect'] = (instance, clock) => harness.connect(instance, clock);
const createTask: QueueHarness['createTask'] = (client, name, args) => harness.createTask(client, name, args);
const changes = (taskId: string, status: string) => harness.changes(taskId, status);

describe('a worker dies mid-task', () => {
  it('resumes on another worker from its checkpoint; the client polling another instance sees one sequence and one result', async () => {
    await workerDiesMidTask(harness);
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
    await harness.reported(taskId, 'cancelled');
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
    await Promise.all(ids.map((id) => harness.reported(id, 'completed')));
    for (const id of ids) expect(changes(id, 'completed')).toHaveLength(1);
    const steps = (id: string, worker: string): number[] => harness.steps(id, worker);
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
