/**
 * The job queue in one process over a real `redis-server` (issue 40's acceptance): two instances
 * (each its own Redis connections) create and read tasks, a `TaskWorker` runs them. A task
 * cancelled while queued never runs; a task waiting an hour (on an injected clock) for input
 * holds no worker and resumes with the answer; a handler asking for retries fails with its
 * cause after the last attempt.
 */
import { SimulatedClock } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { World, eventually, useRedis } from './queue-world.js';

const redis = useRedis();

describe('cancel while queued', () => {
  it('cancels on another instance a task no worker has taken: its job is removed and never runs', async () => {
    const world = new World(redis);
    const a = await world.instance('a', new SimulatedClock());
    const b = await world.instance('b');
    const taskId = await world.createTask(a.client, 'count', { steps: 2, stepMs: 10 });
    expect(await a.queue.queue.getJob(taskId)).toBeDefined();

    await b.client.task(taskId).cancel();
    expect((await b.client.task(taskId).get()).status).toBe('cancelled');
    expect(await a.queue.queue.getJob(taskId)).toBeUndefined();

    // A worker arriving afterwards finds nothing to run; a new task still runs.
    await world.worker('w1');
    const other = await world.createTask(a.client, 'count', { steps: 1, stepMs: 10 });
    expect((await b.client.task(other).result()).structuredContent).toMatchObject({ steps: 1 });
    expect(world.attempts(taskId)).toEqual([]);
    await world.reported(taskId, 'cancelled');
    expect(world.changes(taskId, 'cancelled')).toHaveLength(1);
  });
});

describe('input', () => {
  it('waits an hour for input holding no worker, then runs again with the answer', async () => {
    const world = new World(redis);
    const a = await world.instance('a', new SimulatedClock());
    const b = await world.instance('b');
    // One worker running one job at a time: a task waiting for input must not hold it.
    const worker = await world.worker('w1', { concurrency: 1 });
    const taskId = await world.createTask(a.client, 'ask');
    await eventually(async () => (await b.client.task(taskId).get()).status === 'input_required');
    const waiting = await b.client.task(taskId).get();
    expect(Object.values(waiting.inputRequests ?? {})).toEqual([expect.objectContaining({ method: 'elicitation/create' })]);
    await eventually(async () => (await a.queue.counts()).delayed === 1);
    expect(await a.queue.counts()).toMatchObject({ active: 0, delayed: 1 });

    // An hour passes (the instances' clock); the only worker runs another task meanwhile.
    world.now += 3_600_000;
    const other = await world.createTask(a.client, 'count', { steps: 2, stepMs: 10 });
    expect((await b.client.task(other).result()).structuredContent).toMatchObject({ steps: 2, worker: 'w1' });
    expect((await b.client.task(taskId).get()).status).toBe('input_required');

    // The answer (given on B) sends the task back to the queue; the handler runs again with it.
    const result = await b.client.task(taskId).result();
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada from w1' }]);
    expect(world.attempts(taskId).map((event) => (event as { attempt: number }).attempt)).toEqual([1, 1]);
    await world.reported(taskId, 'completed');
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
    const world = new World(redis);
    const a = await world.instance('a', new SimulatedClock());
    await world.worker('w1', { maxAttempts: 3 });
    const taskId = await world.createTask(a.client, 'flaky');
    await eventually(async () => (await a.client.task(taskId).get()).status === 'failed');
    const failed = await a.client.task(taskId).get();
    expect(failed.error?.message).toMatch(/^The task failed after 3 attempts: upstream unavailable/);
    expect(world.attempts(taskId).map((event) => (event as { attempt: number }).attempt)).toEqual([1, 2, 3]);
    await world.reported(taskId, 'failed');
    expect(world.changes(taskId, 'failed')).toHaveLength(1);
  });
});
