/**
 * Resumability events in Redis Streams: one stream per SSE stream (`<prefix>events:{<stream>}`),
 * capped at `maxEventsPerStream` entries (`XADD … MAXLEN`) and expiring `streamTtlMs` after its
 * last write, so storage is bounded per stream and abandoned streams vanish by themselves. The
 * writes one task makes to one stream (its requests record, its appends) are one command:
 * a Lua script doing the `XADD`s, the `SET` and the `PEXPIRE`s atomically (stream-writes.ts).
 *
 * Event ids are `<stream>:<entry>` where `<entry>` is the Redis entry id (`<ms>-<seq>`,
 * monotonic per stream): any instance can tell the stream of a `Last-Event-ID` and replay what
 * another instance wrote. Appending is O(1); a replay is O(events replayed).
 *
 * In a cluster, the requests a POST stream carries are kept beside it (`<prefix>requests:{<stream>}`,
 * same time to live), so the instance adopting a dead owner's session can end the ones it never
 * answered. Both keys carry the stream id as hash tag: on a Redis Cluster they share a slot, so
 * the transactions that touch both (append, the unanswered-requests read, removal) stay on one
 * master. The transport's stream ids begin with their session's id, so a session's streams are
 * spread over the cluster by stream.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ErrorReply } from '@redis/client';
import type { JsonRpcMessage, RequestId } from '@statemcp/protocol';
import type { EventStore, ReplayResult, StoredEvent, StreamRequests } from '@statemcp/http-transport/server';
import type { RedisConnection } from './redis-connection.js';
import { StreamWrites, type StreamBatch } from './stream-writes.js';

const STORE = 'events';
const FIELD = 'm';
/** The field of a batch's last entry holding the batch's token (see {@link WRITE}). */
const TOKEN = 'w';
const PAGE = 200;
/** Streams removed by one `UNLINK` on one Redis (two keys each): bounded, so one command never holds Redis long. */
const REMOVED_PER_COMMAND = 500;

/**
 * One batch of a stream's writes as one command (stream-writes.ts): KEYS[1] the stream, KEYS[2]
 * its requests record (same slot); ARGV[1] MAXLEN, ARGV[2] the time to live in ms, ARGV[3] what
 * the record gets (`set`: ARGV[4], `refresh`: its time to live, `none`: nothing), ARGV[5] the
 * batch's token, ARGV[6] `again` when the batch is sent a second time, ARGV[7…] the events' data
 * in order. Returns their entry ids.
 *
 * The last event of a batch carries its token (field `w`), so a batch sent again after its first
 * answer was lost (a cluster's slot-map refresh cut the connection: redis-connection.ts) finds
 * its events if the first send ran, and returns their ids instead of adding them twice.
 */
const WRITE = `local n = #ARGV - 6
local ids
if ARGV[6] == 'again' and n > 0 then
  local recent = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', ARGV[1])
  for i = 1, #recent do
    local fields = recent[i][2]
    if fields[3] == 'w' and fields[4] == ARGV[5] then
      ids = {}
      for j = 1, n do
        local entry = recent[i + n - j]
        ids[j] = entry ~= nil and entry[1]
      end
      break
    end
  end
end
if ids == nil then
  ids = {}
  for i = 1, n - 1 do
    ids[i] = redis.call('XADD', KEYS[1], 'MAXLEN', '=', ARGV[1], '*', '${FIELD}', ARGV[i + 6])
  end
  if n > 0 then ids[n] = redis.call('XADD', KEYS[1], 'MAXLEN', '=', ARGV[1], '*', '${FIELD}', ARGV[n + 6], '${TOKEN}', ARGV[5]) end
end
if n > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if ARGV[3] == 'set' then redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[2])
elseif ARGV[3] == 'refresh' then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return ids`;
const WRITE_SHA1 = createHash('sha1').update(WRITE).digest('hex');

/** Options of a {@link RedisEventStore}. */
export interface RedisEventStoreOptions {
  /** Entries kept per stream (`MAXLEN`, exact); older ones are trimmed first. Default 1000. */
  maxEventsPerStream?: number;
  /** A stream with no write for this long is dropped whole, ms. Default 1 hour. */
  streamTtlMs?: number;
}

interface EntryId {
  readonly ms: bigint;
  readonly seq: bigint;
}

function parseEntry(text: string): EntryId | undefined {
  const match = /^([0-9]{1,20})-([0-9]{1,20})$/.exec(text);
  if (match === null) return undefined;
  return { ms: BigInt(match[1] ?? '0'), seq: BigInt(match[2] ?? '0') };
}

function compareEntries(a: EntryId, b: EntryId): number {
  if (a.ms !== b.ms) return a.ms < b.ms ? -1 : 1;
  return a.seq === b.seq ? 0 : a.seq < b.seq ? -1 : 1;
}

function parseEventId(eventId: string): { streamId: string; entry: string; parsed: EntryId } | undefined {
  const colon = eventId.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const entry = eventId.slice(colon + 1);
  const parsed = parseEntry(entry);
  return parsed === undefined ? undefined : { streamId: eventId.slice(0, colon), entry, parsed };
}

/** The {@link EventStore} over Redis Streams, shared by every instance. */
export class RedisEventStore implements EventStore {
  /**
   * One command connection (per slot's master on a cluster) takes the appends in call order, and
   * a stream's keys are in one slot: the transport starts a stream's appends without waiting for
   * the previous one, and those one task makes become one script (stream-writes.ts).
   */
  readonly ordersAppends = true;
  readonly maxEventsPerStream: number;
  readonly streamTtlMs: number;
  readonly #redis: RedisConnection;
  readonly #writes = new StreamWrites((batch) => this.#write(batch));
  /** The tokens of this store's batches: a random prefix, then a counter (see {@link WRITE}). */
  readonly #tokens = `${randomBytes(6).toString('base64url')}.`;
  #batches = 0;

  constructor(redis: RedisConnection, options: RedisEventStoreOptions = {}) {
    this.#redis = redis;
    this.maxEventsPerStream = options.maxEventsPerStream ?? 1000;
    if (!Number.isSafeInteger(this.maxEventsPerStream) || this.maxEventsPerStream < 1) throw new RangeError('maxEventsPerStream must be a positive integer');
    this.streamTtlMs = options.streamTtlMs ?? 60 * 60_000;
    if (!(this.streamTtlMs > 0)) throw new RangeError('streamTtlMs must be positive');
  }

  #key(streamId: string): string {
    return this.#redis.key('events', streamId);
  }

  #requestsKey(streamId: string): string {
    return this.#redis.key('requests', streamId);
  }

  async append(streamId: string, message: JsonRpcMessage | undefined): Promise<string> {
    if (/[\r\n\0]/.test(streamId)) throw new RangeError('A stream id must not contain CR, LF or NUL');
    return `${streamId}:${await this.#writes.append(streamId, message)}`;
  }

  async #write(batch: StreamBatch): Promise<readonly string[]> {
    const { streamId, events, record } = batch;
    const ttl = String(Math.ceil(this.streamTtlMs));
    const token = `${this.#tokens}${(this.#batches++).toString(36)}`;
    const keys = [this.#key(streamId), this.#requestsKey(streamId)];
    const callOf = (mode: '' | 'again') => ({ keys, arguments: [String(this.maxEventsPerStream), ttl, record.kind, record.kind === 'set' ? record.value : '', token, mode, ...events] });
    let sends = 0;
    // The script by its digest; sent whole (and so loaded) the first time a Redis node lacks it
    // (a promoted replica never saw it: scripts are replicated by their effects). Idempotent by
    // its token: a batch whose answer was lost is sent again (redis-connection.ts).
    const entries: unknown = await this.#redis.run(
      STORE,
      (client) => {
        const call = callOf(sends++ === 0 ? '' : 'again');
        return client.evalSha(WRITE_SHA1, call).catch((error: unknown) => {
          if (error instanceof ErrorReply && error.message.startsWith('NOSCRIPT')) return client.eval(WRITE, call);
          throw error;
        });
      },
      { idempotent: true },
    );
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
    const key = this.#key(parsed.streamId);
    const [own, first, last] = await this.#redis.run(STORE, async (client) => {
      const replies = await client.multi().xRange(key, parsed.entry, parsed.entry).xRange(key, '-', '+', { COUNT: 1 }).xRevRange(key, '+', '-', { COUNT: 1 }).exec();
      return replies as unknown as [{ id: string }[], { id: string }[], { id: string }[]];
    }, { idempotent: true });
    const firstId = first[0]?.id;
    const lastId = last[0]?.id;
    if (firstId === undefined || lastId === undefined) return undefined;
    let truncated = false;
    if (own.length === 0) {
      const firstEntry = parseEntry(firstId);
      const lastEntry = parseEntry(lastId);
      // Unknown id: evicted if it is older than what is retained; forged if it is within or after it.
      if (firstEntry === undefined || lastEntry === undefined || compareEntries(parsed.parsed, firstEntry) >= 0) return undefined;
      truncated = true;
    }
    let cursor = truncated ? '-' : `(${parsed.entry}`;
    for (;;) {
      const start = cursor;
      const page = (await this.#redis.run(STORE, (client) => client.xRange(key, start, '+', { COUNT: PAGE }), { idempotent: true })) ?? [];
      for (const entry of page) {
        const data = entry.message[FIELD];
        if (typeof data === 'string' && data !== '') await send({ id: `${parsed.streamId}:${entry.id}`, message: JSON.parse(data) as JsonRpcMessage });
      }
      const tail = page.at(-1);
      if (page.length < PAGE || tail === undefined) break;
      cursor = `(${tail.id}`;
    }
    return { streamId: parsed.streamId, truncated };
  }

  async removeStream(streamId: string): Promise<void> {
    await this.removeStreams([streamId]);
  }

  /**
   * `UNLINK`s the streams and their requests records (Redis frees them in the background), once
   * the writes already called for them are settled. On one Redis that is one command per
   * 500 streams; on a cluster one per stream (a stream's two keys share a
   * slot, two streams seldom do: a multi-key command must stay in one slot), pipelined.
   */
  async removeStreams(streamIds: readonly string[]): Promise<void> {
    if (streamIds.length === 0) return;
    await Promise.all(streamIds.map((streamId) => this.#writes.written(streamId)));
    const perCommand = this.#redis.topology === 'cluster' ? 1 : REMOVED_PER_COMMAND;
    const commands: string[][] = [];
    for (let start = 0; start < streamIds.length; start += perCommand) {
      commands.push(streamIds.slice(start, start + perCommand).flatMap((streamId) => [this.#key(streamId), this.#requestsKey(streamId)]));
    }
    await this.#redis.run(STORE, (client) => Promise.all(commands.map((keys) => client.unlink(keys))), { idempotent: true });
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
    const [tracked, entries] = await this.#redis.run(STORE, async (client) => {
      const replies = await client.multi().get(this.#requestsKey(streamId)).xRange(this.#key(streamId), '-', '+').exec();
      return replies as unknown as [string | null, { message: Record<string, string> }[]];
    }, { idempotent: true });
    if (tracked === null) return undefined;
    const requests = JSON.parse(tracked) as { requestIds: RequestId[]; instanceId: string };
    const pending = new Set<RequestId>(requests.requestIds);
    for (const entry of entries) {
      const data = entry.message[FIELD];
      if (typeof data !== 'string' || data === '') continue;
      const message = JSON.parse(data) as JsonRpcMessage;
      if (!('method' in message) && 'id' in message && message.id !== null) pending.delete(message.id);
    }
    return { requestIds: requests.requestIds.filter((id) => pending.has(id)), instanceId: requests.instanceId };
  }
}
