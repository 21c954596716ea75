/**
 * Instance liveness in Redis: one key per instance (`<prefix>instance:{<id>}`) whose time to live
 * Redis keeps. A beat is one `SET … PX … GET` (it also tells whether the previous record was
 * still there); an instance that stops beating — killed, hung, cut off — disappears for every
 * other instance when its key expires.
 */
import type { LivenessStore } from '@statemcp/http-transport/server';
import type { RedisConnection } from './redis-connection.js';

const STORE = 'liveness';

/** The {@link LivenessStore} over Redis keys with a time to live. */
export class RedisLivenessStore implements LivenessStore {
  readonly #redis: RedisConnection;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  #key(instanceId: string): string {
    return this.#redis.key('instance', instanceId);
  }

  async beat(instanceId: string, ttlMs: number): Promise<boolean> {
    const key = this.#key(instanceId);
    const previous = await this.#redis.run(STORE, (client) => client.set(key, String(Date.now()), { PX: Math.max(1, Math.ceil(ttlMs)), GET: true }));
    return previous !== null;
  }

  async isAlive(instanceId: string): Promise<boolean> {
    const key = this.#key(instanceId);
    return Number(await this.#redis.run(STORE, (client) => client.exists(key), { idempotent: true })) === 1;
  }

  async forget(instanceId: string): Promise<void> {
    const key = this.#key(instanceId);
    await this.#redis.run(STORE, (client) => client.del(key), { idempotent: true });
  }
}
