/**
 * Session records in Redis hashes (`<prefix>session:{<id>}`, the session id as hash tag, so a
 * cluster shards sessions by id), one per session, whose time to
 * live Redis keeps: `put` and `touch` set it (`PEXPIRE`), so an expired session disappears for
 * every instance at the same moment and nothing has to sweep. `expiresAt` is not stored: it is
 * read back from the key's remaining time to live. Every operation is O(1); `claim` is one Lua
 * script on that one key (compare the owner, then set it), so of several instances adopting a dead
 * owner's session exactly one wins; on a cluster it runs on the master of the session's slot.
 */
import type { JsonObject } from '@statemcp/protocol';
import type { SessionRecord, SessionStore } from '@statemcp/http-transport/server';
import type { RedisConnection } from './redis-connection.js';

const STORE = 'sessions';

/** KEYS[1] the record; ARGV: expected owner, new owner, ttl ms. 1 when moved, 0 otherwise. */
const CLAIM = `if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'owner', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 1
end
return 0`;

/** The {@link SessionStore} over Redis hashes with a time to live refreshed on use. */
export class RedisSessionStore implements SessionStore {
  readonly #redis: RedisConnection;
  readonly #now: () => number;

  /** `now`: the wall clock `expiresAt` is computed with (default `Date.now`). */
  constructor(redis: RedisConnection, options: { now?: () => number } = {}) {
    this.#redis = redis;
    this.#now = options.now ?? Date.now;
  }

  #key(sessionId: string): string {
    return this.#redis.key('session', sessionId);
  }

  async put(record: SessionRecord, ttlMs: number): Promise<void> {
    const key = this.#key(record.sessionId);
    const fields: Record<string, string> = { sessionId: record.sessionId, owner: record.owner };
    if (record.protocolVersion !== undefined) fields['protocolVersion'] = record.protocolVersion;
    if (record.principal !== undefined) fields['principal'] = record.principal;
    if (record.clientCapabilities !== undefined) fields['clientCapabilities'] = JSON.stringify(record.clientCapabilities);
    if (record.clientInfo !== undefined) fields['clientInfo'] = JSON.stringify(record.clientInfo);
    await this.#redis.run(STORE, (client) => client.multi().del(key).hSet(key, fields).pExpire(key, Math.max(1, Math.ceil(ttlMs))).exec(), { idempotent: true });
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const key = this.#key(sessionId);
    const [fields, ttl] = await this.#redis.run(STORE, async (client) => {
      const replies = await client.multi().hGetAll(key).pTTL(key).exec();
      return [replies[0] as unknown as Record<string, string>, Number(replies[1])] as const;
    }, { idempotent: true });
    const owner = fields['owner'];
    if (owner === undefined || ttl <= 0) return undefined;
    const capabilities = fields['clientCapabilities'];
    const clientInfo = fields['clientInfo'];
    return {
      sessionId,
      protocolVersion: fields['protocolVersion'],
      clientCapabilities: capabilities === undefined ? undefined : (JSON.parse(capabilities) as JsonObject),
      principal: fields['principal'],
      clientInfo: clientInfo === undefined ? undefined : (JSON.parse(clientInfo) as JsonObject),
      owner,
      expiresAt: this.#now() + ttl,
    };
  }

  async touch(sessionId: string, ttlMs: number): Promise<boolean> {
    const key = this.#key(sessionId);
    const applied = await this.#redis.run(STORE, (client) => client.pExpire(key, Math.max(1, Math.ceil(ttlMs))), { idempotent: true });
    return Number(applied) === 1;
  }

  async delete(sessionId: string): Promise<boolean> {
    const key = this.#key(sessionId);
    const removed = await this.#redis.run(STORE, (client) => client.del(key));
    return Number(removed) === 1;
  }

  async claim(sessionId: string, from: string, to: string, ttlMs: number): Promise<SessionRecord | undefined> {
    const key = this.#key(sessionId);
    const moved = await this.#redis.run(STORE, (client) => client.eval(CLAIM, { keys: [key], arguments: [from, to, String(Math.max(1, Math.ceil(ttlMs)))] }));
    return Number(moved) === 1 ? this.get(sessionId) : undefined;
  }
}
