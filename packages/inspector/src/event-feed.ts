/**
 * The inspector's event feed: every `inspect` event of every statemcp session in this process.
 * It listens on the diagnostics channels, so no session has to be attached, and it keeps the
 * MCP hot path to one array push per event: serialization and delivery happen later, in a
 * batch, on a timer that never keeps the process alive.
 *
 * Bounded everywhere: one event's JSON is capped (`maxEventBytes`, a big message is replaced
 * by a summary), the history kept for late joiners is capped in bytes, and so is the queue of
 * events not yet flushed (older ones are dropped and counted).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { DIAGNOSTIC_CHANNEL_NAMES, type InspectEvent } from '@statemcp/protocol';

/** Limits of the feed; every one has a default. */
export interface EventFeedOptions {
  /** Bytes of serialized history kept for viewers that join late. Default 4 MiB. */
  readonly historyBytes?: number;
  /** Largest serialized event; a bigger one keeps its envelope and loses its payload. Default 16 KiB. */
  readonly maxEventBytes?: number;
  /** How often queued events are serialized and handed on, in milliseconds. Default 50. */
  readonly flushIntervalMs?: number;
  /** Events queued between two flushes before the oldest are dropped. Default 20 000. */
  readonly maxQueuedEvents?: number;
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
  readonly #listeners = new Set<BatchListener>();
  #queue: unknown[] = [];
  #droppedSinceFlush = 0;
  #history: string[] = [];
  #historyStart = 0;
  #historySize = 0;
  #sequence = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running = false;

  constructor(options: EventFeedOptions = {}) {
    this.#historyBytes = options.historyBytes ?? 4 * 1024 * 1024;
    this.#maxEventBytes = options.maxEventBytes ?? 16 * 1024;
    this.#flushIntervalMs = options.flushIntervalMs ?? 50;
    this.#maxQueued = options.maxQueuedEvents ?? 20_000;
  }

  /** Starts listening on the diagnostics channels. Idempotent. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    for (const name of CHANNELS) subscribe(name, this.#onEvent);
  }

  /** Stops listening and drops what is queued. Idempotent. */
  stop(): void {
    if (!this.#running) return;
    this.#running = false;
    for (const name of CHANNELS) unsubscribe(name, this.#onEvent);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue = [];
  }

  /** Receives every later batch; returns the unsubscribe function. */
  onBatch(listener: BatchListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The serialized events still in the history, oldest first. */
  history(): readonly string[] {
    return this.#history.slice(this.#historyStart);
  }

  /** Serializes and hands on what is queued now (the timer calls it; tests may too). */
  flush(): void {
    this.#timer = undefined;
    const queued = this.#queue;
    const dropped = this.#droppedSinceFlush;
    this.#queue = [];
    this.#droppedSinceFlush = 0;
    if (queued.length === 0 && dropped === 0) return;
    const events = queued.map((event) => this.#serialize(event));
    for (const json of events) this.#remember(json);
    const batch: FeedBatch = { events, dropped };
    for (const listener of this.#listeners) listener(batch);
  }

  readonly #onEvent = (message: unknown): void => {
    if (this.#queue.length >= this.#maxQueued) {
      this.#queue.shift();
      this.#droppedSinceFlush += 1;
    }
    this.#queue.push(message);
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.flush(), this.#flushIntervalMs);
      this.#timer.unref?.();
    }
  };

  #serialize(event: unknown): string {
    const seq = ++this.#sequence;
    const json = safeStringify({ seq, ...(event as InspectEvent) });
    if (json.length <= this.#maxEventBytes) return json;
    return safeStringify({ seq, ...summarize(event as InspectEvent, json.length) });
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
function summarize(event: InspectEvent, bytes: number): Record<string, unknown> {
  switch (event.type) {
    case 'message.in':
    case 'message.out': {
      const message = (event.message ?? {}) as { id?: unknown; method?: unknown };
      return { ...event, message: { id: message.id, method: message.method, truncated: true, bytes } };
    }
    case 'diagnostic':
      return { ...event, detail: { truncated: true, bytes } };
    case 'session.transition':
    case 'request.transition':
      return { ...event, truncated: true };
  }
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
