/**
 * Resumability events in a Durable Object's storage (MCP 2025-11-25, Transports §Resumability and
 * Redelivery): every event a session's SSE streams carry is stored before it is written, so a
 * client whose stream broke — because the object was evicted, or the connection dropped — sends
 * `GET` with `Last-Event-ID` on a new request and receives what followed, from the same object
 * or from its next incarnation.
 *
 * Layout, one object's storage (keys list in ascending order, so a replay is one ranged read):
 *
 * ```
 *  stream:<n>:<streamId>               { next, first, requests? }   n = streamId.length, so no
 *  event:<n>:<streamId>:<seq, 16 digits>  { m: message | null }     stream's keys prefix another's
 * ```
 *
 * Event ids are `<streamId>:<seq>` as in the in-memory store. Each stream keeps its last
 * `maxEventsPerStream` events; appends to one stream are serialized in the object.
 */
import type { JsonRpcMessage } from '@statemcp/protocol';
import { withoutAnswered, type EventStore, type ReplayResult, type StoredEvent, type StreamRequests } from '../server/event-store.js';
import type { DurableObjectStorageLike } from './durable-object-types.js';

/** Storage calls delete at most this many keys at once. */
const DELETE_BATCH = 128;
const PAGE = 200;

/** Options of a {@link DurableObjectEventStore}. */
export interface DurableObjectEventStoreOptions {
  /** Events kept per stream; older ones are deleted first. Default 1000. */
  maxEventsPerStream?: number;
}

interface StreamMeta {
  /** Sequence number of the next event. */
  readonly next: number;
  /** Sequence number of the oldest retained event. */
  readonly first: number;
  readonly requests?: StreamRequests;
}

interface StoredEntry {
  /** The message; `null` for a priming event. */
  readonly m: JsonRpcMessage | null;
}

const metaKey = (streamId: string): string => `stream:${streamId.length}:${streamId}`;
const eventPrefix = (streamId: string): string => `event:${streamId.length}:${streamId}:`;
const eventKey = (streamId: string, seq: number): string => `${eventPrefix(streamId)}${String(seq).padStart(16, '0')}`;

function parseEventId(eventId: string): { streamId: string; seq: number } | undefined {
  const colon = eventId.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const digits = eventId.slice(colon + 1);
  if (!/^(0|[1-9][0-9]{0,15})$/.test(digits)) return undefined;
  const seq = Number(digits);
  return Number.isSafeInteger(seq) ? { streamId: eventId.slice(0, colon), seq } : undefined;
}

/**
 * The {@link EventStore} over one Durable Object's storage: `createDurableObjectServer` uses it,
 * so a session's streams resume across the object's evictions.
 *
 * @example
 * ```ts
 * const events = new DurableObjectEventStore(state.storage, { maxEventsPerStream: 500 });
 * const id = await events.append('s1', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } });
 * ```
 */
export class DurableObjectEventStore implements EventStore {
  readonly maxEventsPerStream: number;
  readonly #storage: DurableObjectStorageLike;
  /** The tail of each stream's append queue in this incarnation. */
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(storage: DurableObjectStorageLike, options: DurableObjectEventStoreOptions = {}) {
    this.#storage = storage;
    this.maxEventsPerStream = options.maxEventsPerStream ?? 1000;
    if (!Number.isSafeInteger(this.maxEventsPerStream) || this.maxEventsPerStream < 1) throw new RangeError('maxEventsPerStream must be a positive integer');
  }

  append(streamId: string, message: JsonRpcMessage | undefined): Promise<string> {
    if (/[\r\n\0]/.test(streamId)) return Promise.reject(new RangeError('A stream id must not contain CR, LF or NUL'));
    return this.#serialized(streamId, async () => {
      const meta = (await this.#storage.get<StreamMeta>(metaKey(streamId))) ?? { next: 0, first: 0 };
      const seq = meta.next;
      await this.#storage.put<StoredEntry>(eventKey(streamId, seq), { m: message ?? null });
      const first = Math.max(meta.first, seq + 1 - this.maxEventsPerStream);
      if (first > meta.first) await this.#deleteKeys(Array.from({ length: first - meta.first }, (_, i) => eventKey(streamId, meta.first + i)));
      await this.#storage.put<StreamMeta>(metaKey(streamId), { ...meta, next: seq + 1, first });
      return `${streamId}:${seq}`;
    });
  }

  streamIdOf(eventId: string): string | undefined {
    return parseEventId(eventId)?.streamId;
  }

  async replayAfter(lastEventId: string, send: (event: StoredEvent) => void | Promise<void>): Promise<ReplayResult | undefined> {
    const parsed = parseEventId(lastEventId);
    if (parsed === undefined) return undefined;
    const { streamId, seq } = parsed;
    const meta = await this.#storage.get<StreamMeta>(metaKey(streamId));
    if (meta === undefined || seq >= meta.next) return undefined;
    let after = eventKey(streamId, seq);
    for (;;) {
      const page = await this.#storage.list<StoredEntry>({ prefix: eventPrefix(streamId), startAfter: after, limit: PAGE });
      for (const [key, entry] of page) {
        after = key;
        if (entry.m !== null) await send({ id: `${streamId}:${Number(key.slice(-16))}`, message: entry.m });
      }
      if (page.size < PAGE) break;
    }
    return { streamId, truncated: seq + 1 < meta.first };
  }

  async removeStream(streamId: string): Promise<void> {
    await this.removeStreams([streamId]);
  }

  /**
   * Forgets several streams (their session ended): their keys are listed stream by stream and
   * deleted together, 128 per storage call, instead of at least one call per
   * stream. Runs after every earlier step of each of them.
   */
  async removeStreams(streamIds: readonly string[]): Promise<void> {
    if (streamIds.length === 0) return;
    await this.#serialized(streamIds, async () => {
      const listed = await Promise.all(streamIds.map((streamId) => this.#storage.list({ prefix: eventPrefix(streamId) })));
      const keys = listed.flatMap((events) => [...events.keys()]);
      for (const streamId of streamIds) keys.push(metaKey(streamId));
      await this.#deleteKeys(keys);
    });
  }

  async trackRequests(streamId: string, requests: StreamRequests): Promise<void> {
    await this.#serialized(streamId, async () => {
      const meta = (await this.#storage.get<StreamMeta>(metaKey(streamId))) ?? { next: 0, first: 0 };
      await this.#storage.put<StreamMeta>(metaKey(streamId), { ...meta, requests: { requestIds: [...requests.requestIds], instanceId: requests.instanceId } });
    });
  }

  async unansweredRequests(streamId: string): Promise<StreamRequests | undefined> {
    const meta = await this.#storage.get<StreamMeta>(metaKey(streamId));
    if (meta?.requests === undefined) return undefined;
    const entries = await this.#storage.list<StoredEntry>({ prefix: eventPrefix(streamId) });
    return withoutAnswered(meta.requests, [...entries.values()].map((entry) => entry.m ?? undefined));
  }

  /** Runs `step` after every earlier step of the same stream (or of each of `streamId`'s streams) in this incarnation. */
  #serialized<T>(streamId: string | readonly string[], step: () => Promise<T>): Promise<T> {
    const streamIds = typeof streamId === 'string' ? [streamId] : streamId;
    const pending: Promise<unknown>[] = [];
    for (const id of streamIds) {
      const queued = this.#queues.get(id);
      if (queued !== undefined) pending.push(queued);
    }
    const previous = pending.length === 1 ? pending[0] : Promise.all(pending);
    const run = (previous ?? Promise.resolve()).then(step, step);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    for (const id of streamIds) this.#queues.set(id, tail);
    void tail.then(() => {
      for (const id of streamIds) if (this.#queues.get(id) === tail) this.#queues.delete(id);
    });
    return run;
  }

  async #deleteKeys(keys: string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) await this.#storage.delete(keys.slice(start, start + DELETE_BATCH));
  }
}
