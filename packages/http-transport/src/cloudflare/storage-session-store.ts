/**
 * Session records in a Durable Object's storage (`session:<id>`): what lets an object that was
 * evicted (hibernated, restarted, moved) rebuild its legacy-era session from the record, exactly
 * as a cluster instance adopts the session of an instance that died (`cluster-relay.ts`). Each
 * incarnation of the object is an instance with its own id; the record names the incarnation
 * that runs the session, and a new incarnation claims it.
 *
 * Expiry is lazy (an expired record is never returned, and is deleted when read) plus an alarm:
 * `put` and `claim` schedule the object's `alarm()` at the record's expiry, so the storage of a
 * session nobody comes back to is removed (`DurableObjectMcpServer.alarm`).
 */
import type { SessionRecord, SessionStore } from '../server/shared-state.js';
import type { DurableObjectStorageLike } from './durable-object-types.js';

const PREFIX = 'session:';

/** The storage key of a session's record. */
export function sessionKey(sessionId: string): string {
  return `${PREFIX}${sessionId}`;
}

/**
 * The {@link SessionStore} over one Durable Object's storage. Every operation is one or two
 * storage calls; `claim` reads and writes with no other I/O between them, which the object's
 * input gate makes atomic.
 *
 * @example
 * ```ts
 * const sessions = new DurableObjectSessionStore(state.storage);
 * await sessions.put({ sessionId: 's1', protocolVersion: '2025-11-25', clientCapabilities: {}, principal: undefined, owner: 'a', expiresAt: 0 }, 60_000);
 * (await sessions.get('s1'))?.owner; // 'a'
 * ```
 */
export class DurableObjectSessionStore implements SessionStore {
  readonly #storage: DurableObjectStorageLike;
  readonly #now: () => number;

  /** `now`: the wall clock expiry is measured on (default `Date.now`). */
  constructor(storage: DurableObjectStorageLike, options: { now?: () => number } = {}) {
    this.#storage = storage;
    this.#now = options.now ?? Date.now;
  }

  async put(record: SessionRecord, ttlMs: number): Promise<void> {
    await this.#write({ ...record, expiresAt: this.#now() + ttlMs });
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const record = await this.#storage.get<SessionRecord>(sessionKey(sessionId));
    if (record === undefined) return undefined;
    if (this.#now() >= record.expiresAt) {
      await this.#storage.delete(sessionKey(sessionId));
      return undefined;
    }
    return record;
  }

  async touch(sessionId: string, ttlMs: number): Promise<boolean> {
    const record = await this.get(sessionId);
    if (record === undefined) return false;
    // No new alarm: the one set at `put` finds the later expiry and moves itself there.
    await this.#storage.put(sessionKey(sessionId), { ...record, expiresAt: this.#now() + ttlMs });
    return true;
  }

  async delete(sessionId: string): Promise<boolean> {
    return this.#storage.delete(sessionKey(sessionId));
  }

  async claim(sessionId: string, from: string, to: string, ttlMs: number): Promise<SessionRecord | undefined> {
    const record = await this.get(sessionId);
    if (record?.owner !== from) return undefined;
    const claimed = { ...record, owner: to, expiresAt: this.#now() + ttlMs };
    await this.#write(claimed);
    return claimed;
  }

  /** Every stored record, expired ones included (the alarm's sweep reads them). */
  async records(): Promise<SessionRecord[]> {
    return [...(await this.#storage.list<SessionRecord>({ prefix: PREFIX })).values()];
  }

  async #write(record: SessionRecord): Promise<void> {
    await this.#storage.put(sessionKey(record.sessionId), record);
    await this.#storage.setAlarm?.(record.expiresAt);
  }
}
