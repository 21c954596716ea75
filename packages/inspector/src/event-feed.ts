/**
 * The inspector's event feed: every `inspect` event of every statemcp session in this process,
 * and what its job-queue task executors report (`statemcp:task-queue`: jobs queued, attempts,
 * depth). It listens on the diagnostics channels, so no session has to be attached, and it keeps the
 * MCP hot path short: per event it copies the few fields a viewer shows into a small record
 * and queues it. JSON encoding happens later, once per batch (one `JSON.stringify` for the
 * whole batch where sizes are bounded), on a timer that never keeps the process alive; the
 * history keeps those batch texts as they are.
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
import { DIAGNOSTIC_CHANNEL_NAMES, TASK_QUEUE_CHANNEL_NAME, type InspectEvent } from '@statemcp/protocol';
import { summarizeEvent, summarizeQueueEvent, type QueuedEvent } from './event-summary.js';

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
  /** The events, one JSON text each (split from `json` on first read). */
  readonly events: readonly string[];
  /** The same events as the inside of a JSON array (`{…},{…}`; empty when there are none), encoded once. */
  readonly json: string;
  /** How many events `json` holds. */
  readonly count: number;
  readonly dropped: number;
}

/** A batch encoded once as one JSON text; the per-event texts are made only if someone reads them. */
class EncodedBatch implements FeedBatch {
  #events: readonly string[] | undefined;

  constructor(
    readonly json: string,
    readonly count: number,
    readonly dropped: number,
  ) {}

  get events(): readonly string[] {
    this.#events ??= this.count === 0 ? [] : (JSON.parse(`[${this.json}]`) as unknown[]).map((event) => JSON.stringify(event));
    return this.#events;
  }
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
  #history: FeedBatch[] = [];
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
    return this.#history.flatMap((batch) => batch.events);
  }

  /** The history as the batches it was kept in, oldest first (what a late viewer is sent). */
  historyBatches(): readonly FeedBatch[] {
    return [...this.#history];
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
    const batch = new EncodedBatch(this.#encode(queued, start), queued.length - start, dropped);
    if (this.#historyBytes > 0 && batch.count > 0) this.#remember(batch);
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
    if (wanted) subscribe(TASK_QUEUE_CHANNEL_NAME, this.#onQueueEvent);
    else unsubscribe(TASK_QUEUE_CHANNEL_NAME, this.#onQueueEvent);
    if (wanted) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue = [];
    this.#queueStart = 0;
    this.#droppedSinceFlush = 0;
  }

  readonly #onEvent = (message: unknown): void => this.#enqueue(summarizeEvent(message as InspectEvent, ++this.#sequence, this.#payloads));

  /** An event of the job queue's channel (jobs queued, attempts, depth): kept as its own small record. */
  readonly #onQueueEvent = (message: unknown): void => {
    const summary = summarizeQueueEvent(message, this.#sequence + 1);
    if (summary === undefined) return;
    this.#sequence += 1;
    this.#enqueue(summary);
  };

  #enqueue(summary: QueuedEvent): void {
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
    this.#queue.push(summary);
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flush(), this.#flushIntervalMs);
      this.#timer.unref?.();
    }
  }

  /**
   * The queued events as the inside of one JSON array. Events whose size is bounded by their
   * summary go through one `JSON.stringify` per run; the others (diagnostics, whole payloads)
   * are encoded one by one so each can be held to `maxEventBytes`.
   */
  #encode(queued: readonly (QueuedEvent | undefined)[], start: number): string {
    const parts: string[] = [];
    let run: QueuedEvent[] = [];
    for (let index = start; index < queued.length; index += 1) {
      const event = queued[index];
      if (event === undefined) continue;
      if (this.#bounded(event)) {
        run.push(event);
        continue;
      }
      if (run.length > 0) parts.push(encodeRun(run));
      run = [];
      parts.push(this.#serialize(event));
    }
    if (run.length > 0) parts.push(encodeRun(run));
    return parts.join(',');
  }

  /** True when the event's summary caps its size (transitions, summarized messages). */
  #bounded(event: QueuedEvent): boolean {
    switch (event.type) {
      case 'session.transition':
      case 'request.transition':
      case 'task.transition':
      case 'task-queue':
        return true;
      case 'message.in':
      case 'message.out':
        return !this.#payloads;
      default:
        return false;
    }
  }

  #serialize(event: QueuedEvent): string {
    const json = encode(event);
    if (json.length <= this.#maxEventBytes) return json;
    return encode(truncate(event, json.length));
  }

  #remember(batch: FeedBatch): void {
    if (batch.json.length > this.#historyBytes) {
      // One batch bigger than the whole history: keep its newest events that fit.
      const kept: string[] = [];
      let size = 0;
      for (const event of [...batch.events].reverse()) {
        if (size + event.length + 1 > this.#historyBytes) break;
        kept.unshift(event);
        size += event.length + 1;
      }
      this.#history = [];
      this.#historySize = 0;
      if (kept.length > 0) this.#remember(new EncodedBatch(kept.join(','), kept.length, 0));
      return;
    }
    this.#history.push(batch);
    this.#historySize += batch.json.length;
    while (this.#historySize > this.#historyBytes) {
      const oldest = this.#history.shift();
      if (oldest === undefined) break;
      this.#historySize -= oldest.json.length;
    }
  }
}

/** A run of events as comma-separated JSON texts, with one `JSON.stringify` call. */
function encodeRun(run: readonly QueuedEvent[]): string {
  try {
    return JSON.stringify(run).slice(1, -1);
  } catch {
    return run.map((event) => safeStringify(event)).join(',');
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
