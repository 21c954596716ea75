/**
 * The writes one task makes to one SSE stream (an I/O callback and the microtasks it queues),
 * gathered into one Redis command. A request on its owner makes three in the same task when its
 * answer is ready at once (a fast tool): its stream's requests record, the priming event and the
 * answer. Sent as one script
 * they cost Redis one command and the instance one command to encode, one reply to parse and one
 * promise to settle, instead of three of each (see tooling/bench/profiling/README.md).
 *
 * ```
 *  track / append ──▶ open batch of the stream (call order kept) ──nextTick──▶ one script
 *                                                                    │
 *       every append settles with its entry id, the record with it ◀─┘ (or all reject together)
 * ```
 *
 * The requests record only serves failover: an instance adopting the session ends the requests
 * it lists that have no answer on the stream (`endUnanswered`, MCP 2025-11-25, Transports
 * §Resumability and Redelivery). When every request it lists is answered by an event of the same
 * batch, the record and those answers would be written by one atomic script, so no reader could
 * ever find a request of it unanswered: the record is left out. Otherwise it is written with the
 * events, before any later batch of the stream (one ordered connection).
 */
import type { JsonRpcMessage, RequestId } from '@statemcp/protocol';
import type { StreamRequests } from '@statemcp/http-transport/server';

/** What the requests key of a stream gets in one batch. */
export type RecordWrite =
  /** A record (JSON) to set, with the stream's time to live. */
  | { readonly kind: 'set'; readonly value: string }
  /** No record in this batch: refresh the time to live of one written earlier, if any. */
  | { readonly kind: 'refresh' }
  /** The record of this batch was answered within it: nothing to write or refresh. */
  | { readonly kind: 'none' };

/** One batch as sent: the events' data in call order and what to do with the record. */
export interface StreamBatch {
  readonly streamId: string;
  readonly events: readonly string[];
  readonly record: RecordWrite;
}

interface Waiter<T> {
  readonly resolve: (value: T) => void;
  readonly reject: (error: unknown) => void;
}

interface OpenBatch {
  readonly events: string[];
  /** `waiters[i]` is the caller of `events[i]`. */
  readonly waiters: Waiter<string>[];
  readonly answered: Set<RequestId>;
  requests: StreamRequests | undefined;
  readonly recordWaiters: Waiter<void>[];
  /** Called once the batch is settled, whatever its outcome ({@link StreamWrites.written}). */
  readonly afterwards: (() => void)[];
}

/** Sends one batch; resolves with the entry ids of its events, in order. */
export type SendBatch = (batch: StreamBatch) => Promise<readonly string[]>;

/** The open batches of every stream of one store, flushed together once the current task's microtasks ran. */
export class StreamWrites {
  readonly #send: SendBatch;
  readonly #open = new Map<string, OpenBatch>();
  #scheduled = false;

  constructor(send: SendBatch) {
    this.#send = send;
  }

  /** Stores `message` (`undefined`: a priming event, empty data) as the next event of the stream; resolves with its entry id. */
  append(streamId: string, message: JsonRpcMessage | undefined): Promise<string> {
    const batch = this.#batchOf(streamId);
    if (message !== undefined && !('method' in message) && 'id' in message && message.id !== null) batch.answered.add(message.id);
    batch.events.push(message === undefined ? '' : JSON.stringify(message));
    return new Promise<string>((resolve, reject) => batch.waiters.push({ resolve, reject }));
  }

  /** Records which requests the stream carries (with its next batch, or not at all: see the header). */
  track(streamId: string, requests: StreamRequests): Promise<void> {
    const batch = this.#batchOf(streamId);
    batch.requests = requests;
    return new Promise<void>((resolve, reject) => batch.recordWaiters.push({ resolve, reject }));
  }

  /**
   * Resolves once the writes already called for the stream are settled (at once when none is
   * waiting for its turn): what reads or removes the stream waits for, so it never overtakes them.
   */
  written(streamId: string): Promise<void> {
    const batch = this.#open.get(streamId);
    if (batch === undefined) return Promise.resolve();
    return new Promise<void>((resolve) => batch.afterwards.push(resolve));
  }

  #batchOf(streamId: string): OpenBatch {
    let batch = this.#open.get(streamId);
    if (batch === undefined) {
      batch = { events: [], waiters: [], answered: new Set(), requests: undefined, recordWaiters: [], afterwards: [] };
      this.#open.set(streamId, batch);
    }
    if (!this.#scheduled) {
      this.#scheduled = true;
      // After the microtasks of the current task: a handler that answers without I/O is in the
      // batch, and the client's own write (its setImmediate) still leaves in this loop turn.
      process.nextTick(() => this.#flush());
    }
    return batch;
  }

  #flush(): void {
    this.#scheduled = false;
    for (const [streamId, batch] of this.#open) void this.#sendOne(streamId, batch);
    this.#open.clear();
  }

  async #sendOne(streamId: string, batch: OpenBatch): Promise<void> {
    const { requests, answered } = batch;
    const record: RecordWrite =
      requests === undefined
        ? { kind: 'refresh' }
        : requests.requestIds.every((id) => answered.has(id))
          ? { kind: 'none' }
          : { kind: 'set', value: JSON.stringify({ requestIds: requests.requestIds, instanceId: requests.instanceId }) };
    try {
      // A record answered within its batch and no event: nothing to send.
      const entries = batch.events.length === 0 && record.kind !== 'set' ? [] : await this.#send({ streamId, events: batch.events, record });
      batch.waiters.forEach((waiter, index) => {
        const entry = entries[index];
        if (typeof entry === 'string') waiter.resolve(entry);
        else waiter.reject(new TypeError('XADD answered without an entry id'));
      });
      for (const waiter of batch.recordWaiters) waiter.resolve();
    } catch (error) {
      for (const waiter of [...batch.waiters, ...batch.recordWaiters]) waiter.reject(error);
    }
    for (const next of batch.afterwards) next();
  }
}
