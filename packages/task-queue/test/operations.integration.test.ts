/**
 * Operating the job queue over a real `redis-server` (issue 40, item 5): one principal flooding
 * the queue does not starve another; a drain gives up on a handler deaf to its signal and hands
 * its job back with its checkpoint; jobs, attempts, retries, latency and depth are measured
 * through `TaskQueueMetrics` and the OpenTelemetry SDK's metric reader; and a listen stream on
 * another instance hears the moves of a task a worker runs.
 */
import { MeterProvider, MetricReader, type DataPoint, type SumMetricData, type GaugeMetricData, type HistogramMetricData, type MetricData } from '@opentelemetry/sdk-metrics';
import { TASK_QUEUE_METRICS, TaskQueueMetrics } from '@statemcp/opentelemetry';
import { SimulatedClock } from '@statemcp/protocol';
import type { RequestExtra } from '@statemcp/server';
import { describe, expect, it } from 'vitest';
import { World, eventually, useRedis } from './queue-world.js';

const redis = useRedis();

/** A metric reader collected by hand, never on a timer. */
class ManualReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }

  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const completions = (world: World): number => world.events.filter((event) => event.event === 'changed' && event.status === 'completed').length;

describe('fairness', () => {
  it('runs the first task of a principal who queued after a flood of another before the rest of the flood', async () => {
    const world = new World(redis);
    // A task belongs to the client that created it (by name): alice and bob.
    const owner = (extra: RequestExtra): string | undefined => extra.clientInfo?.name;
    const alice = await world.instance('alice', new SimulatedClock(), { owner });
    const bob = await world.instance('bob', new SimulatedClock(), { owner });
    const flood: string[] = [];
    for (let index = 0; index < 8; index++) flood.push(await world.createTask(alice.client, 'count', { steps: 1, stepMs: 1 }));
    const late = await world.createTask(bob.client, 'count', { steps: 1, stepMs: 1 });
    expect(await alice.queue.counts()).toMatchObject({ prioritized: 9, active: 0 });

    // One worker running one job at a time takes them in per-principal order.
    await world.worker('w1', { concurrency: 1 });
    await eventually(() => completions(world) === 9);
    const order = world.attempts().map((event) => event.taskId);
    expect(order.indexOf(late)).toBe(1);
    expect(order.filter((id) => id !== late)).toEqual(flood);
  });
});

describe('drain', () => {
  it('hands back the job of a handler deaf to its signal after the deadline; the next worker resumes it from its checkpoint', async () => {
    const world = new World(redis);
    const a = await world.instance('a', new SimulatedClock());
    const b = await world.instance('b');
    const w1 = await world.worker('w1', { abandonAfterMs: 50 });
    const taskId = await world.createTask(a.client, 'stubborn');
    await eventually(async () => (await a.queue.runs.read(taskId)).checkpoint !== undefined);

    const started = performance.now();
    await w1.drain(50);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await a.queue.counts()).toMatchObject({ active: 0 });
    expect((await b.client.task(taskId).get()).status).toBe('working');

    await world.worker('w2');
    const result = await b.client.task(taskId).result();
    expect(result.content).toEqual([{ type: 'text', text: 'resumed on w2' }]);
    // The hand-back spent no attempt.
    expect(world.attempts(taskId).map((event) => [event.worker, (event as { attempt: number }).attempt])).toEqual([
      ['w1', 1],
      ['w2', 1],
    ]);
    await world.reported(taskId, 'completed');
    expect(world.changes(taskId, 'completed')).toHaveLength(1);
  });
});

describe('metrics', () => {
  it('measures jobs queued, attempts by result, retries, latency and depth through the OpenTelemetry SDK', async () => {
    const reader = new ManualReader();
    const queueMetrics = new TaskQueueMetrics({ meter: new MeterProvider({ readers: [reader] }).getMeter('queue-test') });
    const world = new World(redis);
    try {
      const a = await world.instance('a', new SimulatedClock());
      const b = await world.instance('b');
      await world.worker('w1', { maxAttempts: 2 });
      const counted = await world.createTask(a.client, 'count', { steps: 1, stepMs: 5 });
      const flaky = await world.createTask(a.client, 'flaky');
      await b.client.task(counted).result();
      await eventually(async () => (await b.client.task(flaky).get()).status === 'failed');

      const collect = async (): Promise<MetricData[]> => (await reader.collect()).resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
      const ofQueue = <V,>(points: readonly DataPoint<V>[] | undefined): DataPoint<V>[] => (points ?? []).filter((point) => point.attributes['messaging.destination.name'] === world.name);
      const find = <T extends MetricData>(all: MetricData[], name: string): T | undefined => all.find((data) => data.descriptor.name === name) as T | undefined;
      // The depth is sampled after the last attempt, within a second: nothing is left in the queue.
      await eventually(async () => {
        const depth = ofQueue(find<GaugeMetricData>(await collect(), TASK_QUEUE_METRICS.depth)?.dataPoints);
        return depth.length === 5 && depth.every((point) => point.value === 0 || point.attributes['statemcp.task_queue.job.state'] === 'failed');
      });

      const all = await collect();
      const total = (name: string): number => ofQueue(find<SumMetricData>(all, name)?.dataPoints).reduce((sum, point) => sum + point.value, 0);
      expect(total(TASK_QUEUE_METRICS.sentMessages)).toBe(2);
      // count: one attempt; flaky: two (the limit), the second a retry.
      expect(total(TASK_QUEUE_METRICS.consumedMessages)).toBe(3);
      expect(total(TASK_QUEUE_METRICS.retries)).toBe(1);
      const byResult = Object.fromEntries(
        ofQueue(find<HistogramMetricData>(all, TASK_QUEUE_METRICS.processDuration)?.dataPoints).map((point) => [String(point.attributes['statemcp.task.attempt.result']), point.value.count]),
      );
      expect(byResult).toEqual({ finished: 1, retry: 2, exhausted: 1 });
      const waits = ofQueue(find<HistogramMetricData>(all, TASK_QUEUE_METRICS.waitDuration)?.dataPoints);
      expect(waits.reduce((sum, point) => sum + point.value.count, 0)).toBe(2);
    } finally {
      queueMetrics.close();
    }
  });
});

describe('notifications/tasks', () => {
  it('reach a listen stream on another instance while a worker runs the task, and drive the handle there', async () => {
    const world = new World(redis);
    const a = await world.instance('a', new SimulatedClock());
    // B's client never polls (its clock does not move): only pushed notifications can end its wait.
    const b = await world.instance('b', new SimulatedClock());
    const taskId = await world.createTask(a.client, 'count', { steps: 3, stepMs: 30 });
    const stream = await b.client.listen({ taskIds: [taskId] });
    const heard: string[] = [];
    stream.onNotification((note) => {
      const { status, statusMessage } = note.params as { status?: string; statusMessage?: string };
      heard.push(`${status ?? '?'} ${statusMessage ?? ''}`.trim());
    });

    await world.worker('w1');
    const result = await b.client.task(taskId).result();
    expect(result.structuredContent).toMatchObject({ steps: 3, worker: 'w1' });
    expect(heard.filter((line) => line.startsWith('working step'))).toEqual(['working step 1/3', 'working step 2/3', 'working step 3/3']);
    expect(heard.filter((line) => line.startsWith('completed'))).toHaveLength(1);
    await stream.close();
  });
});
