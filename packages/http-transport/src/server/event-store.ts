/**
 * Resumability storage for Streamable HTTP (MCP 2025-11-25 basic/transports §Resumability and Redelivery).
 *
 * Every message the server writes on an SSE stream is first appended here and gets an event
 * id that encodes its stream (`<streamId>:<seq>`), so a client that lost the connection can
 * reconnect with `GET` + `Last-Event-ID` and receive exactly the events that followed on
 * *that* stream — nothing from other streams, nothing twice.
 *
 * {@link InMemoryEventStore} is bounded (events per stream and number of streams), unlike
 * stores that grow until the process dies. Implement {@link EventStore} over Redis or a
 * database to resume across processes.
 */
import type { JsonRpcMessage, RequestId } from '@statemcp/protocol';

/** One stored event as replayed to a reconnecting client. */
export interface StoredEvent {
  readonly id: string;
  readonly message: JsonRpcMessage;
}

/** What a replay found. */
export interface ReplayResult {
  /** The stream the replayed events belong to. */
  readonly streamId: string;
  /**
   * True when events between `Last-Event-ID` and the oldest retained event were evicted, so
   * the client missed some messages. The transport reports this through `sink.onError`.
   */
  readonly truncated: boolean;
}

/** The requests one POST stream carries (failover: see {@link EventStore.trackRequests}). */
export interface StreamRequests {
  /** The ids of the requests the stream answers. */
  readonly requestIds: readonly RequestId[];
  /** The instance that served them. */
  readonly instanceId: string;
}

/**
 * Storage of SSE events for resumption. Methods may return promises (remote stores).
 * Event ids must be unique across all streams and must never contain CR, LF or NUL.
 */
export interface EventStore {
  /**
   * Stores `message` as the next event of `streamId` and returns its id. `undefined` stores a
   * priming event (an id with empty data) that is never replayed but is a valid cursor.
   */
  append(streamId: string, message: JsonRpcMessage | undefined): string | Promise<string>;
  /**
   * True when the appends of one stream are stored in the order they are called, even when one
   * is called before the previous one resolved (one ordered connection, as Redis's). The
   * transport then starts each append as soon as its message exists, so the events of a request
   * share round trips to the store. Optional; without it a stream's appends run one at a time.
   */
  readonly ordersAppends?: boolean;
  /**
   * Sends, in order, every non-priming event of the stream of `lastEventId` that came after
   * it. Returns `undefined` when the id is unknown (forged, or its stream was evicted).
   */
  replayAfter(
    lastEventId: string,
    send: (event: StoredEvent) => void | Promise<void>,
  ): ReplayResult | undefined | Promise<ReplayResult | undefined>;
  /** The stream an event id belongs to, without touching storage; `undefined` if malformed. */
  streamIdOf(eventId: string): string | undefined;
  /** Forgets a stream (its session ended). Optional. */
  removeStream?(streamId: string): void | Promise<void>;
  /**
   * Forgets several streams at once (their session ended): what a remote store does in a few
   * commands instead of one per stream. Optional; without it each stream goes through
   * {@link EventStore.removeStream}.
   */
  removeStreams?(streamIds: readonly string[]): void | Promise<void>;
  /**
   * Optional, for clusters: records, when the POST stream `streamId` opens, which requests it
   * carries, so that the instance adopting the session after the one serving them died can end
   * the requests left unanswered instead of leaving their client waiting forever.
   */
  trackRequests?(streamId: string, requests: StreamRequests): void | Promise<void>;
  /**
   * The requests tracked for `streamId` that have no response stored on it yet; `undefined`
   * when the stream was not tracked or is gone.
   */
  unansweredRequests?(streamId: string): StreamRequests | undefined | Promise<StreamRequests | undefined>;
}

/**
 * The requests of `requests` that none of `messages` answers (a response or error with their id):
 * what {@link EventStore.unansweredRequests} computes from a stream's stored events.
 */
export function withoutAnswered(requests: StreamRequests, messages: Iterable<JsonRpcMessage | undefined>): StreamRequests {
  const pending = new Set<RequestId>(requests.requestIds);
  for (const message of messages) {
    if (message !== undefined && !('method' in message) && 'id' in message && message.id !== null) pending.delete(message.id);
  }
  return { requestIds: requests.requestIds.filter((id) => pending.has(id)), instanceId: requests.instanceId };
}

/** Bounds of an {@link InMemoryEventStore}. */
export interface InMemoryEventStoreOptions {
  /** Events kept per stream; older ones are evicted first. Default 1000. */
  maxEventsPerStream?: number;
  /** Streams kept; the least recently written stream is evicted whole. Default 1000. */
  maxStreams?: number;
}

interface StreamLog {
  /** Sequence number the next event gets. */
  nextSeq: number;
  /** Retained events; `events[head]` has sequence `nextSeq - (events.length - head)`. */
  events: (JsonRpcMessage | undefined)[];
  head: number;
  /** The requests the stream carries, when tracked. */
  requests?: StreamRequests;
}

function retained(log: StreamLog): number {
  return log.events.length - log.head;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

/**
 * A bounded, in-process {@link EventStore}. Event ids are `<streamId>:<seq>` with `seq`
 * counting from 0 per stream, so ids are monotonic per stream and encode it.
 *
 * @example
 * ```ts
 * const mcp = createStreamableHttpServer({
 *   connect: (transport) => server.connect(transport),
 *   eventStore: new InMemoryEventStore({ maxEventsPerStream: 500, maxStreams: 200 }),
 * });
 * ```
 */
export class InMemoryEventStore implements EventStore {
  readonly maxEventsPerStream: number;
  readonly maxStreams: number;
  /** Insertion order = least recently written first (re-inserted on every append). */
  readonly #streams = new Map<string, StreamLog>();

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.maxEventsPerStream = positiveInteger('maxEventsPerStream', options.maxEventsPerStream ?? 1000);
    this.maxStreams = positiveInteger('maxStreams', options.maxStreams ?? 1000);
  }

  /** Number of streams currently held. */
  get streamCount(): number {
    return this.#streams.size;
  }

  append(streamId: string, message: JsonRpcMessage | undefined): string {
    if (/[\r\n\0]/.test(streamId)) throw new RangeError('A stream id must not contain CR, LF or NUL');
    let log = this.#streams.get(streamId);
    if (log === undefined) {
      log = { nextSeq: 0, events: [], head: 0 };
    } else {
      this.#streams.delete(streamId);
    }
    this.#streams.set(streamId, log);
    const seq = log.nextSeq++;
    log.events.push(message);
    if (retained(log) > this.maxEventsPerStream) {
      log.events[log.head] = undefined;
      log.head++;
      if (log.head > 64 && log.head * 2 > log.events.length) {
        log.events = log.events.slice(log.head);
        log.head = 0;
      }
    }
    if (this.#streams.size > this.maxStreams) {
      const oldest = this.#streams.keys().next();
      if (oldest.done !== true) this.#streams.delete(oldest.value);
    }
    return `${streamId}:${seq}`;
  }

  streamIdOf(eventId: string): string | undefined {
    return parseEventId(eventId)?.streamId;
  }

  async replayAfter(lastEventId: string, send: (event: StoredEvent) => void | Promise<void>): Promise<ReplayResult | undefined> {
    const parsed = parseEventId(lastEventId);
    if (parsed === undefined) return undefined;
    const log = this.#streams.get(parsed.streamId);
    if (log === undefined || parsed.seq >= log.nextSeq) return undefined;
    const end = log.nextSeq;
    const firstRetained = end - retained(log);
    const truncated = parsed.seq + 1 < firstRetained;
    let seq = Math.max(parsed.seq + 1, firstRetained);
    while (seq < end) {
      // Re-read positions each step: `send` may await while appends evict old events.
      const offset = seq - (log.nextSeq - retained(log));
      if (offset >= 0) {
        const message = log.events[log.head + offset];
        if (message !== undefined) await send({ id: `${parsed.streamId}:${seq}`, message });
      }
      seq++;
    }
    return { streamId: parsed.streamId, truncated };
  }

  removeStream(streamId: string): void {
    this.#streams.delete(streamId);
  }

  removeStreams(streamIds: readonly string[]): void {
    for (const streamId of streamIds) this.#streams.delete(streamId);
  }

  trackRequests(streamId: string, requests: StreamRequests): void {
    let log = this.#streams.get(streamId);
    if (log === undefined) {
      log = { nextSeq: 0, events: [], head: 0 };
      this.#streams.set(streamId, log);
    }
    log.requests = { requestIds: [...requests.requestIds], instanceId: requests.instanceId };
  }

  unansweredRequests(streamId: string): StreamRequests | undefined {
    const log = this.#streams.get(streamId);
    if (log?.requests === undefined) return undefined;
    return withoutAnswered(log.requests, log.events.slice(log.head));
  }
}

function parseEventId(eventId: string): { streamId: string; seq: number } | undefined {
  const colon = eventId.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const digits = eventId.slice(colon + 1);
  if (!/^(0|[1-9][0-9]{0,15})$/.test(digits)) return undefined;
  const seq = Number(digits);
  if (!Number.isSafeInteger(seq)) return undefined;
  return { streamId: eventId.slice(0, colon), seq };
}
