/**
 * Resumability events in Redis Streams: the SSE streams of one session transport share one Redis
 * Stream, the session's log (`<prefix>events:{<key>}`, event-log.ts), each entry naming its stream,
 * so a POST costs `XADD`s to an existing Stream and never creates a key. The log is capped at
 * `maxEventsPerSession` entries (`XADD … MAXLEN`) and expires `streamTtlMs` after its last write,
 * so storage is bounded per session and abandoned sessions vanish by themselves. The writes one
 * task makes to one stream (its requests record, its appends) are one command: a Lua script doing
 * the `XADD`s, the `SET` and the `PEXPIRE`s atomically (stream-writes.ts, event-scripts.ts).
 *
 * Event ids are `<stream>;<entry>` where `<entry>` is the Redis entry id in the log (`<ms>-<seq>`,
 * monotonic per log): any instance can tell the stream of a `Last-Event-ID` and replay what
 * another instance wrote, only that stream's events (MCP 2025-11-25, Transports §Resumability
 * and Redelivery). Appending is O(1); a replay reads the log's entries after the cursor. Ids of
 * earlier versions (`<stream>:<entry>`, one Redis Stream per SSE stream) are still replayed.
 *
 * In a cluster, the requests a POST stream carries are kept beside the log
 * (`<prefix>requests:{<key>}.<n>`, same time to live), so the instance adopting a dead owner's
 * session can end the ones it never answered; and the set of the log's stream names
 * (`<prefix>streams:{<key>}`), so a session's end drops the log without reading it. Every key of a log carries the log as hash tag: on a
 * Redis Cluster they share a slot, so the scripts and transactions that touch several (append, the
 * unanswered-requests read, removal) stay on one master. The transport's stream ids begin with
 * their session's id, so sessions are spread over the cluster.
 */
import { randomBytes } from 'node:crypto';
import type { JsonRpcMessage, RequestId } from '@statemcp/protocol';
import type { EventStore, ReplayResult, StoredEvent, StreamRequests } from '@statemcp/http-transport/server';
import { compareEntries, eventIdOf, parseEntry, parseEventId, placeOf, streamEventIdOf, type ParsedEventId, type StreamPlace } from './event-log.js';
import { DATA_FIELD, MEMBER_FIELD, REMOVE, WRITE, runScript } from './event-scripts.js';
import type { RedisConnection } from './redis-connection.js';
import { StreamWrites, type StreamBatch } from './stream-writes.js';

const STORE = 'events';
const PAGE = 200;

/** Options of a {@link RedisEventStore}. */
export interface RedisEventStoreOptions {
  /**
   * Events a resume of one SSE stream replays at most: when more of that stream follow the
   * client's `Last-Event-ID`, the older ones count as evicted (the replay is `truncated`).
   * Default 1000.
   */
  maxEventsPerStream?: number;
  /**
   * Entries kept in the log of one session transport, every SSE stream of it together (`MAXLEN`,
   * exact); older ones are trimmed first. Default 10 000.
   */
  maxEventsPerSession?: number;
  /** A session's log with no write for this long is dropped whole, ms. Default 1 hour. */
  streamTtlMs?: number;
}

/** One entry read back: its event id and data (empty for a priming event). */
interface ReadEntry {
  readonly id: string;
  readonly data: string;
}

type Entries = { id: string; message: Record<string, string> }[];

function memberOf(fields: Record<string, string>): string {
  return fields[MEMBER_FIELD] ?? '';
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

/** The {@link EventStore} over Redis Streams, shared by every instance. */
export class RedisEventStore implements EventStore {
  /**
   * One command connection (per slot's master on a cluster) takes the appends in call order, and
   * a log's keys are in one slot: the transport starts a stream's appends without waiting for
   * the previous one, and those one task makes become one script (stream-writes.ts).
   */
  readonly ordersAppends = true;
  readonly maxEventsPerStream: number;
  readonly maxEventsPerSession: number;
  readonly streamTtlMs: number;
  readonly #redis: RedisConnection;
  readonly #writes = new StreamWrites((batch) => this.#write(batch));
  /** The tokens of this store's batches: a random prefix, then a counter (see event-scripts.ts). */
  readonly #tokens = `${randomBytes(6).toString('base64url')}.`;
  #batches = 0;

  constructor(redis: RedisConnection, options: RedisEventStoreOptions = {}) {
    this.#redis = redis;
    this.maxEventsPerStream = positiveInteger('maxEventsPerStream', options.maxEventsPerStream ?? 1000);
    this.maxEventsPerSession = positiveInteger('maxEventsPerSession', options.maxEventsPerSession ?? 10_000);
    this.streamTtlMs = options.streamTtlMs ?? 60 * 60_000;
    if (!(this.streamTtlMs > 0)) throw new RangeError('streamTtlMs must be positive');
  }

  #logKey(log: string): string {
    return this.#redis.key('events', log);
  }

  /** The set of a log's streams (event-scripts.ts), same slot. */
  #streamsKey(log: string): string {
    return this.#redis.key('streams', log);
  }

  /** The requests record of a stream: the log's hash tag, then the member. */
  #recordKey({ log, member }: StreamPlace): string {
    const key = this.#redis.key('requests', log);
    return member === '' ? key : `${key}.${member}`;
  }

  async append(streamId: string, message: JsonRpcMessage | undefined): Promise<string> {
    if (/[\r\n\0]/.test(streamId)) throw new RangeError('A stream id must not contain CR, LF or NUL');
    return eventIdOf(streamId, await this.#writes.append(streamId, message));
  }

  async #write(batch: StreamBatch): Promise<readonly string[]> {
    const { streamId, events, record } = batch;
    const place = placeOf(streamId);
    const ttl = String(Math.ceil(this.streamTtlMs));
    const token = `${this.#tokens}${(this.#batches++).toString(36)}`;
    const keys = [this.#logKey(place.log), this.#recordKey(place), this.#streamsKey(place.log)];
    const callOf = (mode: '' | 'again') => ({
      keys,
      arguments: [String(this.maxEventsPerSession), ttl, record.kind, record.kind === 'set' ? record.value : '', token, mode, place.member, ...events],
    });
    let sends = 0;
    // Idempotent by its token: a batch whose answer was lost is sent again (redis-connection.ts).
    const entries: unknown = await this.#redis.run(STORE, (client) => runScript(client, WRITE, callOf(sends++ === 0 ? '' : 'again')), { idempotent: true });
    if (!Array.isArray(entries)) throw new TypeError('The stream write answered without entry ids');
    return entries as string[];
  }

  streamIdOf(eventId: string): string | undefined {
    return parseEventId(eventId)?.streamId;
  }

  async replayAfter(lastEventId: string, send: (event: StoredEvent) => void | Promise<void>): Promise<ReplayResult | undefined> {
    const parsed = parseEventId(lastEventId);
    if (parsed === undefined) return undefined;
    await this.#writes.written(parsed.streamId);
    const found = parsed.layout === 'log' ? await this.#afterInLog(parsed) : await this.#afterInOwnStream(parsed);
    if (found === undefined) return undefined;
    const { entries } = found;
    const kept = entries.length > this.maxEventsPerStream ? entries.slice(entries.length - this.maxEventsPerStream) : entries;
    for (const entry of kept) if (entry.data !== '') await send({ id: entry.id, message: JSON.parse(entry.data) as JsonRpcMessage });
    return { streamId: parsed.streamId, truncated: found.truncated || kept.length < entries.length };
  }

  /**
   * The stream's entries after the cursor, from `key`: all of them when the cursor was trimmed
   * (`truncated`), undefined when the cursor is unknown (forged, another stream's, or its stream
   * is gone). `member` undefined: every entry of `key` is the stream's (an earlier version's).
   */
  async #after(key: string, parsed: ParsedEventId, member: string | undefined, idOf: (entry: string) => string): Promise<{ entries: ReadEntry[]; truncated: boolean } | undefined> {
    const [own, first] = await this.#redis.run(STORE, async (client) => {
      const replies = await client.multi().xRange(key, parsed.entry, parsed.entry).xRange(key, '-', '+', { COUNT: 1 }).exec();
      return replies as unknown as [Entries, Entries];
    }, { idempotent: true });
    const firstEntry = first[0] === undefined ? undefined : parseEntry(first[0].id);
    if (firstEntry === undefined) return undefined;
    const cursor = own[0];
    let truncated = false;
    if (cursor === undefined) {
      // Unknown entry: trimmed if it is older than what is retained; forged if it is within or after it.
      if (compareEntries(parsed.parsed, firstEntry) >= 0) return undefined;
      truncated = true;
    } else if (member !== undefined && memberOf(cursor.message) !== member) {
      return undefined;
    }
    const entries = await this.#read(key, truncated ? '-' : `(${parsed.entry}`, member, idOf);
    // A trimmed cursor whose stream has nothing left: the stream is gone whole.
    return truncated && entries.length === 0 ? undefined : { entries, truncated };
  }

  #afterInLog(parsed: ParsedEventId): Promise<{ entries: ReadEntry[]; truncated: boolean } | undefined> {
    const place = placeOf(parsed.streamId);
    return this.#after(this.#logKey(place.log), parsed, place.member, (entry) => eventIdOf(parsed.streamId, entry));
  }

  /**
   * A cursor an earlier version issued: the rest of that version's Stream of the stream, then
   * every event this version appended to the stream since (to the log: those come after).
   */
  async #afterInOwnStream(parsed: ParsedEventId): Promise<{ entries: ReadEntry[]; truncated: boolean } | undefined> {
    const ownKey = this.#logKey(parsed.streamId);
    const found = await this.#after(ownKey, parsed, undefined, (entry) => streamEventIdOf(parsed.streamId, entry));
    const place = placeOf(parsed.streamId);
    const logKey = this.#logKey(place.log);
    if (found === undefined || logKey === ownKey) return found;
    const later = await this.#read(logKey, '-', place.member, (entry) => eventIdOf(parsed.streamId, entry));
    return { entries: [...found.entries, ...later], truncated: found.truncated };
  }

  /** The entries of `member` (every entry when undefined) from `start` on, page by page. */
  async #read(key: string, start: string, member: string | undefined, idOf: (entry: string) => string): Promise<ReadEntry[]> {
    const entries: ReadEntry[] = [];
    let cursor = start;
    for (;;) {
      const from = cursor;
      const page: Entries = (await this.#redis.run(STORE, (client) => client.xRange(key, from, '+', { COUNT: PAGE }), { idempotent: true })) ?? [];
      for (const entry of page) {
        if (member !== undefined && memberOf(entry.message) !== member) continue;
        entries.push({ id: idOf(entry.id), data: entry.message[DATA_FIELD] ?? '' });
      }
      const tail = page.at(-1);
      if (page.length < PAGE || tail === undefined) return entries;
      cursor = `(${tail.id}`;
    }
  }

  async removeStream(streamId: string): Promise<void> {
    await this.removeStreams([streamId]);
  }

  /**
   * Forgets the streams and their requests records, once the writes already called for them are
   * settled: one script per log (event-scripts.ts), pipelined. A session's end removes every
   * stream of its transport, so its log goes whole without being read (`UNLINK`: Redis frees it
   * in the background).
   */
  async removeStreams(streamIds: readonly string[]): Promise<void> {
    if (streamIds.length === 0) return;
    await Promise.all(streamIds.map((streamId) => this.#writes.written(streamId)));
    const logs = new Map<string, Set<string>>();
    for (const streamId of streamIds) {
      const { log, member } = placeOf(streamId);
      const members = logs.get(log);
      if (members === undefined) logs.set(log, new Set([member]));
      else members.add(member);
    }
    const calls = [...logs].map(([log, set]) => {
      const members = [...set];
      return { keys: [this.#logKey(log), this.#streamsKey(log), ...members.map((member) => this.#recordKey({ log, member }))], arguments: members };
    });
    await this.#redis.run(STORE, (client) => Promise.all(calls.map((call) => runScript(client, REMOVE, call))), { idempotent: true });
  }

  /**
   * Written with the stream's next events, in the same command; left out when those events
   * answer every request it lists (nothing could then be found unanswered: stream-writes.ts).
   */
  trackRequests(streamId: string, requests: StreamRequests): Promise<void> {
    return this.#writes.track(streamId, requests);
  }

  async unansweredRequests(streamId: string): Promise<StreamRequests | undefined> {
    await this.#writes.written(streamId);
    const place = placeOf(streamId);
    const logKey = this.#logKey(place.log);
    const [tracked, entries] = await this.#readTracked(this.#recordKey(place), logKey);
    let record = tracked;
    const messages = entries.filter((entry) => memberOf(entry.message) === place.member);
    const ownKey = this.#logKey(streamId);
    if (record === null && ownKey !== logKey) {
      // A stream an earlier version wrote (one Redis Stream per SSE stream, in another slot).
      const [older, olderEntries] = await this.#readTracked(this.#redis.key('requests', streamId), ownKey);
      record = older;
      messages.push(...olderEntries);
    }
    if (record === null) return undefined;
    const requests = JSON.parse(record) as { requestIds: RequestId[]; instanceId: string };
    const pending = new Set<RequestId>(requests.requestIds);
    for (const entry of messages) {
      const data = entry.message[DATA_FIELD];
      if (typeof data !== 'string' || data === '') continue;
      const message = JSON.parse(data) as JsonRpcMessage;
      if (!('method' in message) && 'id' in message && message.id !== null) pending.delete(message.id);
    }
    return { requestIds: requests.requestIds.filter((id) => pending.has(id)), instanceId: requests.instanceId };
  }

  /** A requests record and the entries of the Stream beside it (same slot), in one transaction. */
  #readTracked(recordKey: string, eventsKey: string): Promise<[string | null, Entries]> {
    return this.#redis.run(STORE, async (client) => {
      const replies = await client.multi().get(recordKey).xRange(eventsKey, '-', '+').exec();
      return replies as unknown as [string | null, Entries];
    }, { idempotent: true });
  }
}
