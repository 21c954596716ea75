import { channel } from 'node:diagnostics_channel';
import type { SumMetricData, GaugeMetricData, HistogramMetricData, MetricData } from '@opentelemetry/sdk-metrics';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { TASK_QUEUE_CHANNEL_NAME, type TaskQueueEvent } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { recorder } from '../test/support.js';
import { TASK_QUEUE_ATTRIBUTES, TASK_QUEUE_METRICS, TaskQueueMetrics } from './index.js';

const events = channel(TASK_QUEUE_CHANNEL_NAME);
const publish = (event: TaskQueueEvent): void => events.publish(event);
const opened: TaskQueueMetrics[] = [];

afterEach(() => {
  for (const metrics of opened.splice(0)) metrics.close();
});

function measured(): { metrics: TaskQueueMetrics; collect: () => Promise<MetricData[]> } {
  const recorded = recorder('queue');
  const metrics = new TaskQueueMetrics({ meter: recorded.meter });
  opened.push(metrics);
  return { metrics, collect: () => recorded.metrics() };
}

const find = <T extends MetricData>(all: MetricData[], name: string): T | undefined => all.find((data) => data.descriptor.name === name) as T | undefined;

describe('TaskQueueMetrics', () => {
  it('names the metrics and attributes the messaging conventions define as they spell them', () => {
    expect(TASK_QUEUE_METRICS.sentMessages).toBe(incubating.METRIC_MESSAGING_CLIENT_SENT_MESSAGES);
    expect(TASK_QUEUE_METRICS.consumedMessages).toBe(incubating.METRIC_MESSAGING_CLIENT_CONSUMED_MESSAGES);
    expect(TASK_QUEUE_METRICS.processDuration).toBe(incubating.METRIC_MESSAGING_PROCESS_DURATION);
    expect(TASK_QUEUE_ATTRIBUTES.system).toBe(incubating.ATTR_MESSAGING_SYSTEM);
    expect(TASK_QUEUE_ATTRIBUTES.destination).toBe(incubating.ATTR_MESSAGING_DESTINATION_NAME);
    expect(TASK_QUEUE_ATTRIBUTES.operationName).toBe(incubating.ATTR_MESSAGING_OPERATION_NAME);
    expect(TASK_QUEUE_ATTRIBUTES.operationType).toBe(incubating.ATTR_MESSAGING_OPERATION_TYPE);
  });

  describe('#record', () => {
    it('counts jobs queued and attempts started, retries apart, and times the wait of first attempts', async () => {
      const { collect } = measured();
      publish({ type: 'queued', queue: 'reports', at: 1, taskId: 'a' });
      publish({ type: 'queued', queue: 'reports', at: 2, taskId: 'b' });
      publish({ type: 'started', queue: 'reports', at: 3, taskId: 'a', attempt: 1, waitMs: 250 });
      publish({ type: 'started', queue: 'reports', at: 4, taskId: 'a', attempt: 2, waitMs: undefined });
      const all = await collect();
      const sent = find<SumMetricData>(all, TASK_QUEUE_METRICS.sentMessages);
      expect(sent?.dataPoints).toEqual([
        expect.objectContaining({ value: 2, attributes: { 'messaging.system': 'bullmq', 'messaging.destination.name': 'reports', 'messaging.operation.name': 'add', 'messaging.operation.type': 'send' } }),
      ]);
      expect(find<SumMetricData>(all, TASK_QUEUE_METRICS.consumedMessages)?.dataPoints[0]?.value).toBe(2);
      expect(find<SumMetricData>(all, TASK_QUEUE_METRICS.retries)?.dataPoints[0]?.value).toBe(1);
      const wait = find<HistogramMetricData>(all, TASK_QUEUE_METRICS.waitDuration);
      expect(wait?.descriptor.unit).toBe('s');
      expect(wait?.dataPoints).toHaveLength(1);
      expect(wait?.dataPoints[0]?.value).toMatchObject({ count: 1, sum: 0.25 });
    });

    it('times attempts by result, with error.type on the ones that failed', async () => {
      const { collect } = measured();
      publish({ type: 'settled', queue: 'reports', at: 5, taskId: 'a', attempt: 1, result: 'finished', durationMs: 1500 });
      publish({ type: 'settled', queue: 'reports', at: 6, taskId: 'b', attempt: 1, result: 'retry', durationMs: 20 });
      const process = find<HistogramMetricData>(await collect(), TASK_QUEUE_METRICS.processDuration);
      const byResult = new Map(process?.dataPoints.map((point) => [point.attributes[TASK_QUEUE_ATTRIBUTES.attemptResult], point]));
      expect(byResult.get('finished')?.value).toMatchObject({ count: 1, sum: 1.5 });
      expect(byResult.get('finished')?.attributes[TASK_QUEUE_ATTRIBUTES.errorType]).toBeUndefined();
      expect(byResult.get('retry')?.attributes[TASK_QUEUE_ATTRIBUTES.errorType]).toBe('retry');
    });

    it('reports the last depth sample of each queue as a gauge per state', async () => {
      const { collect } = measured();
      publish({ type: 'depth', queue: 'reports', at: 1, waiting: 9, prioritized: 9, active: 9, delayed: 9, failed: 9 });
      publish({ type: 'depth', queue: 'reports', at: 2, waiting: 0, prioritized: 5, active: 2, delayed: 1, failed: 0 });
      const depth = find<GaugeMetricData>(await collect(), TASK_QUEUE_METRICS.depth);
      const byState = Object.fromEntries(depth?.dataPoints.map((point) => [String(point.attributes[TASK_QUEUE_ATTRIBUTES.jobState]), point.value]) ?? []);
      expect(byState).toEqual({ waiting: 0, prioritized: 5, active: 2, delayed: 1, failed: 0 });
    });
  });

  describe('#close', () => {
    it('stops recording and reporting the depth', async () => {
      const { metrics, collect } = measured();
      publish({ type: 'depth', queue: 'reports', at: 1, waiting: 1, prioritized: 0, active: 0, delayed: 0, failed: 0 });
      metrics.close();
      metrics.close();
      publish({ type: 'queued', queue: 'reports', at: 2, taskId: 'a' });
      const all = await collect();
      expect(find<SumMetricData>(all, TASK_QUEUE_METRICS.sentMessages)?.dataPoints ?? []).toEqual([]);
      expect(find<GaugeMetricData>(all, TASK_QUEUE_METRICS.depth)?.dataPoints ?? []).toEqual([]);
    });
  });
});
