/**
 * What the queue and its workers report on the `statemcp:task-queue` diagnostics channel
 * (`TASK_QUEUE_CHANNEL_NAME` of `@statemcp/protocol`): jobs queued, attempts started and
 * settled, and the queue's depth. Nothing is built or read from Redis while nobody subscribes;
 * the depth is sampled after the other events, at most once per interval (the last event of a
 * burst is always followed by a sample), on a timer that never keeps the process alive.
 */
import { channel } from 'node:diagnostics_channel';
import { TASK_QUEUE_CHANNEL_NAME, type TaskQueueDepth, type TaskQueueEvent } from '@statemcp/protocol';

const events = channel(TASK_QUEUE_CHANNEL_NAME);

/** True while someone subscribes to the channel (so an event is worth building). */
export function reporting(): boolean {
  return events.hasSubscribers;
}

/** Publishes `event` (when someone subscribes). */
export function report(event: TaskQueueEvent): void {
  if (events.hasSubscribers) events.publish(event);
}

/** Samples one queue's depth after its events (see the module comment). */
export class DepthSampler {
  readonly #queue: string;
  readonly #counts: () => Promise<TaskQueueDepth>;
  readonly #intervalMs: number;
  #last = Number.NEGATIVE_INFINITY;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(queue: string, counts: () => Promise<TaskQueueDepth>, intervalMs: number) {
    this.#queue = queue;
    this.#counts = counts;
    this.#intervalMs = intervalMs;
  }

  /** Something changed the depth: sample it once the interval since the last sample has passed. */
  poke(): void {
    if (this.#closed || this.#timer !== undefined || !events.hasSubscribers) return;
    const wait = Math.max(0, this.#last + this.#intervalMs - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#last = Date.now();
      this.#counts().then(
        (depth) => report({ type: 'depth', queue: this.#queue, at: Date.now(), ...depth }),
        () => undefined, // Redis unreachable or closed: the next event samples again
      );
    }, wait);
    this.#timer.unref?.();
  }

  /** Stops sampling. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
