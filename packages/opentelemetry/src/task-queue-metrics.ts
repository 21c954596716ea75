/**
 * Metrics of job-queue task executors (`@statemcp/task-queue`), read from the
 * `statemcp:task-queue` diagnostics channel (`TASK_QUEUE_CHANNEL_NAME` of `@statemcp/protocol`),
 * so this package needs no queue library: any process whose `TaskQueue` or `TaskWorker` reports
 * there is measured. Names follow the OpenTelemetry semantic conventions for messaging
 * (https://opentelemetry.io/docs/specs/semconv/messaging/messaging-metrics/) where they fit;
 * what they do not cover (depth, time waiting, retries) is named `statemcp.task_queue.*`:
 *
 * | metric | kind | when |
 * |---|---|---|
 * | `messaging.client.sent.messages` | counter | a task's job is queued |
 * | `messaging.client.consumed.messages` | counter | a worker starts an attempt |
 * | `messaging.process.duration` | histogram, s | an attempt settles (`statemcp.task.attempt.result`, `error.type` unless it finished, parked or was handed back) |
 * | `statemcp.task_queue.wait.duration` | histogram, s | queued → the first attempt's start |
 * | `statemcp.task_queue.retries` | counter | an attempt after the first starts (a retry asked for, or a crashed worker's job run again) |
 * | `statemcp.task_queue.depth` | gauge | the last depth sample per state (`statemcp.task_queue.job.state`) |
 *
 * Every measurement carries `messaging.system` (`bullmq`) and `messaging.destination.name` (the
 * queue's name); none carries a task id.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { metrics, type Attributes, type Counter, type Histogram, type Meter, type ObservableGauge, type ObservableResult } from '@opentelemetry/api';
import { TASK_QUEUE_CHANNEL_NAME, type TaskAttemptResult, type TaskQueueDepth, type TaskQueueEvent } from '@statemcp/protocol';
import { DURATION_BUCKETS, MCP_ATTRIBUTES } from './attributes.js';
import { INSTRUMENTATION_NAME } from './telemetry.js';

/** The metric names {@link TaskQueueMetrics} records. */
export const TASK_QUEUE_METRICS = Object.freeze({
  sentMessages: 'messaging.client.sent.messages',
  consumedMessages: 'messaging.client.consumed.messages',
  processDuration: 'messaging.process.duration',
  waitDuration: 'statemcp.task_queue.wait.duration',
  retries: 'statemcp.task_queue.retries',
  depth: 'statemcp.task_queue.depth',
} as const);

/** The attribute names {@link TaskQueueMetrics} sets. */
export const TASK_QUEUE_ATTRIBUTES = Object.freeze({
  system: 'messaging.system',
  destination: 'messaging.destination.name',
  operationName: 'messaging.operation.name',
  operationType: 'messaging.operation.type',
  attemptResult: 'statemcp.task.attempt.result',
  jobState: 'statemcp.task_queue.job.state',
  errorType: MCP_ATTRIBUTES.errorType,
} as const);

/** Options of {@link TaskQueueMetrics}. */
export interface TaskQueueMetricsOptions {
  /** Default: `metrics.getMeter('@statemcp/opentelemetry')` of the global provider. */
  readonly meter?: Meter;
}

const SYSTEM = 'bullmq';
const STATES: readonly (keyof TaskQueueDepth)[] = ['waiting', 'prioritized', 'active', 'delayed', 'failed'];
/** Results that are no failure: the task moved on (finished, parked for input, handed back by a drain). */
const UNFAILED: ReadonlySet<TaskAttemptResult> = new Set(['finished', 'input', 'interrupted']);

/**
 * Records the metrics of every job-queue task executor in this process (see the module comment).
 *
 * @example
 * ```ts
 * const queueMetrics = new TaskQueueMetrics(); // the global meter provider's meter
 * // … TaskQueue and TaskWorker run …
 * queueMetrics.close();
 * ```
 */
export class TaskQueueMetrics {
  readonly #sent: Counter;
  readonly #consumed: Counter;
  readonly #process: Histogram;
  readonly #wait: Histogram;
  readonly #retries: Counter;
  readonly #depth: ObservableGauge;
  /** The last depth sample of each queue. */
  readonly #depths = new Map<string, TaskQueueDepth>();
  #listening = true;
  /** Anything else published on the channel is ignored (a subscriber's exception would be uncaught). */
  readonly #onEvent = (message: unknown): void => {
    if (typeof message === 'object' && message !== null && typeof (message as { queue?: unknown }).queue === 'string') this.#record(message as TaskQueueEvent);
  };
  readonly #observe = (result: ObservableResult): void => {
    for (const [queue, depth] of this.#depths) {
      for (const state of STATES) result.observe(depth[state], { [TASK_QUEUE_ATTRIBUTES.system]: SYSTEM, [TASK_QUEUE_ATTRIBUTES.destination]: queue, [TASK_QUEUE_ATTRIBUTES.jobState]: state });
    }
  };

  constructor(options: TaskQueueMetricsOptions = {}) {
    const meter = options.meter ?? metrics.getMeter(INSTRUMENTATION_NAME);
    const advice = { explicitBucketBoundaries: [...DURATION_BUCKETS] };
    this.#sent = meter.createCounter(TASK_QUEUE_METRICS.sentMessages, { unit: '{message}', description: 'Task jobs queued' });
    this.#consumed = meter.createCounter(TASK_QUEUE_METRICS.consumedMessages, { unit: '{message}', description: 'Task job attempts a worker started' });
    this.#process = meter.createHistogram(TASK_QUEUE_METRICS.processDuration, { unit: 's', description: 'Duration of one attempt at a task job', advice });
    this.#wait = meter.createHistogram(TASK_QUEUE_METRICS.waitDuration, { unit: 's', description: 'Time a task job waited from queued to its first attempt', advice });
    this.#retries = meter.createCounter(TASK_QUEUE_METRICS.retries, { unit: '{attempt}', description: 'Attempts at task jobs after the first (retries asked for, crashed workers)' });
    this.#depth = meter.createObservableGauge(TASK_QUEUE_METRICS.depth, { unit: '{job}', description: 'Task jobs in the queue by state, as last sampled' });
    this.#depth.addCallback(this.#observe);
    subscribe(TASK_QUEUE_CHANNEL_NAME, this.#onEvent);
  }

  /** Stops recording (and reporting the depth). Idempotent. */
  close(): void {
    if (!this.#listening) return;
    this.#listening = false;
    unsubscribe(TASK_QUEUE_CHANNEL_NAME, this.#onEvent);
    this.#depth.removeCallback(this.#observe);
    this.#depths.clear();
  }

  #record(event: TaskQueueEvent): void {
    const base: Attributes = { [TASK_QUEUE_ATTRIBUTES.system]: SYSTEM, [TASK_QUEUE_ATTRIBUTES.destination]: event.queue };
    switch (event.type) {
      case 'queued':
        this.#sent.add(1, { ...base, [TASK_QUEUE_ATTRIBUTES.operationName]: 'add', [TASK_QUEUE_ATTRIBUTES.operationType]: 'send' });
        return;
      case 'started':
        this.#consumed.add(1, { ...base, [TASK_QUEUE_ATTRIBUTES.operationName]: 'process', [TASK_QUEUE_ATTRIBUTES.operationType]: 'process' });
        if (event.waitMs !== undefined) this.#wait.record(event.waitMs / 1000, base);
        if (event.attempt > 1) this.#retries.add(1, base);
        return;
      case 'settled': {
        const attributes: Attributes = { ...base, [TASK_QUEUE_ATTRIBUTES.operationName]: 'process', [TASK_QUEUE_ATTRIBUTES.attemptResult]: event.result };
        if (!UNFAILED.has(event.result)) attributes[TASK_QUEUE_ATTRIBUTES.errorType] = event.result;
        this.#process.record(event.durationMs / 1000, attributes);
        return;
      }
      case 'depth': {
        const { waiting, prioritized, active, delayed, failed } = event;
        this.#depths.set(event.queue, { waiting, prioritized, active, delayed, failed });
        return;
      }
    }
  }
}
