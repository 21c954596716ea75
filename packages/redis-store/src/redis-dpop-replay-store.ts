/**
 * The DPoP replay set of a cluster in Redis: one key per accepted proof
 * (`<prefix>dpop:{<digest of key thumbprint and jti>}`), written with `SET … NX PX` so the check
 * and the record are one atomic step across every instance, and expiring on its own once the
 * proof could no longer pass the `iat` window (RFC 9449 §11.1). Redis never reports the set
 * full; run it with `maxmemory-policy noeviction` (or a `volatile-*` policy that spares these
 * keys only if nothing else is volatile), so an unexpired proof id is never evicted — a write
 * Redis refuses for memory is answered 503, not accepted.
 */
import type { DpopReplayOutcome, DpopReplayStore } from '@statemcp/http-transport/auth';
import type { RedisConnection } from './redis-connection.js';

const STORE = 'dpop-replay';

/** The {@link DpopReplayStore} shared by the instances of a cluster, over Redis keys with a time to live. */
export class RedisDpopReplayStore implements DpopReplayStore {
  readonly #redis: RedisConnection;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  async record(key: string, ttlMs: number): Promise<DpopReplayOutcome> {
    const name = this.#redis.key('dpop', key);
    const written = await this.#redis.run(STORE, (client) => client.set(name, '1', { NX: true, PX: Math.max(1, Math.ceil(ttlMs)) }));
    return written === null ? { kind: 'replayed' } : { kind: 'recorded' };
  }
}
