/**
 * The inspector's event feed: every `inspect` event of every statemcp session in this process.
 * It listens on the diagnostics channels, so no session has to be attached, and it keeps the
 * MCP hot path short: per event it copies the few fields a viewer shows into a small record
 * and queues it. JSON encoding happens later, once per batch, on a timer that never keeps the
 * process alive.
 *
 * Messages are summarized by default (id, method, error code, and the parameters the page
 * reads: progress, cancellation, progress token); `payloads: true` keeps whole messages.
 * While nothing would read the events (no batch listener and no history) the feed does not
 * subscribe at all, so sessions skip building them.
 *
 * Bounded everywhere: one event's JSON is capped (`maxEventBytes`, a big event is replaced by
 * a summary), the history kept for late joiners is capped in bytes, and so is the queue of
 * events not yet flushed (older ones are dropped and counted).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { DIAGNOSTIC_CHANNEL_NAMES, type InspectEvent } from '@statemcp/protocol';
import { summarizeEvent, type QueuedEvent } from './event-summary.js';

/** Limits of the feed; every one has a default. */
export interface EventFeedOptions {
  /** Bytes of serialized history kept for viewers that join late; `0` keeps none. Default 4 MiB. */
  readonly historyBytes?: number;
  /** Largest serialized event; a bigger one keeps its envelope and loses its payload. Default 16 KiB. */
  readonly maxEventBytes?: number;
  /** How often queued events are serialized and handed on, in milliseconds. Default 50. */
  readonly flushIntervalMs?: number;
  /** Events queued between two flushes before the oldest are dropped. Default 20 000. */
  readonly maxQueuedEvents?: number;
  /**
   * Keep whole messages (params, results) in `message.in` / `message.out` events. Default
   * `false`: a message becomes `{ id, method, error: { code, message }, params }` with only the
   * params the page shows (progress, cancellation, `_meta.progressToken`) and `summary: true`.
   */
  readonly payloads?: boolean;
}

/** One flush: the events serialized since the last one, and how many were dropped unseen. */
export interface FeedBatch {
  readonly events: readonly string[];
  readonly dropped: number;
}

type BatchListener = (batch: FeedBatch) => void;

const CHANNELS = Object.values(DIAGNOSTIC_CHANNEL_NAMES);

export class EventFeed {
  readonly #historyBytes: number;
  readonly #maxEventBytes: number;
  readonly #flushIntervalMs: number;
  readonly #maxQueued: number;
  readonly #payloads: boolean;
  readonly #listeners = new Set<BatchListener>();
  #queue: (QueuedEvent | undefined)[] = [];
  #queueStart = 0;
  #droppedSinceFlush = 0;
  #history: string[] = [];
  #historyStart = 0;
  #historySize = 0;
  #sequence = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running = false;
  #subscribed = false;

  constructor(options: EventFeedOptions = {}) {
    this.#historyBytes = options.historyBytes ?? 4 * 1024 * 1024;
    this.#maxEventBytes = options.maxEventBytes ?? 16 * 1024;
    this.#flushIntervalMs = options.flushIntervalMs ?? 50;
    this.#maxQueued = Math.max(1, options.maxQueuedEvents ?? 20_000);
    this.#payloads = options.payloads ?? false;
  }

  /** True while the feed listens on the diagnostics channels. */
  get listening(): boolean {
    return this.#subscribed;
  }

  /**
   * Starts the feed. It listens on the diagnostics channels while anything would read the
   * events: a batch listener, or a history (`historyBytes` above 0). Idempotent.
   */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#updateSubscription();
  }

  /** Stops listening and drops what is queued. Idempotent. */
  stop(): void {
    if (!this.#running) return;
    this.#running = false;
    this.#updateSubscription();
  }

  /** Receives every later batch; returns the unsubscribe function. */
  onBatch(listener: BatchListener): () => void {
    this.#listeners.add(listener);
    this.#updateSubscription();
    return () => {
      this.#listeners.delete(listener);
      this.#updateSubscription();
    };
  }

  /** The serialized events still in the history, oldest first. */
  history(): readonly string[] {
    return this.#history.slice(this.#historyStart);
  }

  /** Serializes and hands on what is queued now (the timer calls it; tests may too). */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const queued = this.#queue;
    const start = this.#queueStart;
    const dropped = this.#droppedSinceFlush;
    this.#queue = [];
    this.#queueStart = 0;
    this.#droppedSinceFlush = 0;
    if (queued.length === start && dropped === 0) return;
    const events: string[] = [];
    for (let index = start; index < queued.length; index += 1) {
      const event = queued[index];
      if (event !== undefined) events.push(this.#serialize(event));
    }
    if (this.#historyBytes > 0) for (const json of events) this.#remember(json);
    if (this.#listeners.size === 0) return;
    const batch: FeedBatch = { events, dropped };
    for (const listener of this.#listeners) listener(batch);
  }

  #updateSubscription(): void {
    const wanted = this.#running && (this.#historyBytes > 0 || this.#listeners.size > 0);
    if (wanted === this.#subscribed) return;
    this.#subscribed = wanted;
    for (const name of CHANNELS) {
      if (wanted) subscribe(name, this.#onEvent);
      else unsubscribe(name, this.#onEvent);
    }
    if (wanted) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue = [];
    this.#queueStart = 0;
    this.#droppedSinceFlush = 0;
  }

  readonly #onEvent = (message: unknown): void => {
    const queue = this.#queue;
    if (queue.length - this.#queueStart >= this.#maxQueued) {
      // Drop the oldest; compact once half the array is dropped slots (amortized O(1)).
      queue[this.#queueStart] = undefined;
      this.#queueStart += 1;
      this.#droppedSinceFlush += 1;
      if (this.#queueStart >= this.#maxQueued) {
        this.#queue = queue.slice(this.#queueStart);
        this.#queueStart = 0;
      }
    }
    this.#queue.push(summarizeEvent(message as InspectEvent, ++this.#sequence, this.#payloads));
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flush(), this.#flushIntervalMs);
      this.#timer.unref?.();
    }
  };

  #serialize(event: QueuedEvent): string {
    const json = encode(event);
    if (json.length <= this.#maxEventBytes) return json;
    return encode(truncate(event, json.length));
  }

  #remember(json: string): void {
    this.#history.push(json);
    this.#historySize += json.length;
    while (this.#historySize > this.#historyBytes && this.#historyStart < this.#history.length) {
      this.#historySize -= (this.#history[this.#historyStart] ?? '').length;
      this.#historyStart += 1;
    }
    if (this.#historyStart > 1024 && this.#historyStart * 2 > this.#history.length) {
      this.#history = this.#history.slice(this.#historyStart);
      this.#historyStart = 0;
    }
  }
}

/** The event with its payload replaced by what identifies it (method, id, size). */
function truncate(event: QueuedEvent, bytes: number): QueuedEvent {
  switch (event.type) {
    case 'message.in':
    case 'message.out': {
      const message = (event.message ?? {}) as { id?: unknown; method?: unknown };
      const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
      const method = typeof message.method === 'string' ? message.method.slice(0, 256) : undefined;
      return { ...event, message: { id, method, truncated: true, bytes } };
    }
    case 'diagnostic':
      return { ...event, message: String(event.message).slice(0, 1024), detail: { truncated: true, bytes } };
    default:
      return { seq: event.seq, type: event.type, sessionId: event.sessionId, at: event.at, truncated: true, bytes };
  }
}

/** Plain `JSON.stringify` (its fast path) unless the event holds something it cannot encode. */
function encode(event: QueuedEvent): string {
  if (event.type !== 'diagnostic' || event.detail === undefined) {
    try {
      return JSON.stringify(event);
    } catch {
      // a bigint or a cycle in a kept payload: the careful encoder below
    }
  }
  return safeStringify(event);
}

/** JSON with errors as `{ name, message }`, bigints as strings and cycles cut. */
function safeStringify(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'bigint') return item.toString();
    if (item instanceof Error) return { name: item.name, message: item.message };
    if (typeof item === 'object' && item !== null) {
      if (seen.has(item)) return '[circular]';
      seen.add(item);
    }
    return item;
  });
}
