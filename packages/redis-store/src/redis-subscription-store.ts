/**
 * Shared subscriptions in Redis sets: `<prefix>subs:{<key>}` holds the subscribers of a key and
 * `<prefix>subscriber:{<id>}` the keys of a subscriber (its index), so a session that ends drops
 * all its subscriptions. The two sets of one change live in different slots on a Redis Cluster,
 * so they are written one after the other, in an order that keeps the index a superset of the
 * memberships: `add` indexes first, `remove` and `removeAll` unindex last. A write cut between
 * the two steps leaves at most an index entry naming a set the subscriber is not in, which the
 * next `removeAll` clears; never a membership the index has lost. Adding and removing are O(1);
 * `subscribers` is O(N) in the followers of the key (the fan-out of a change).
 */
import type { SubscriptionStore } from '@statemcp/http-transport/server';
import type { RedisConnection } from './redis-connection.js';

const STORE = 'subscriptions';

/** The {@link SubscriptionStore} over two families of Redis sets. */
export class RedisSubscriptionStore implements SubscriptionStore {
  readonly #redis: RedisConnection;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  #keyOf(key: string): string {
    return this.#redis.key('subs', key);
  }

  #subscriberOf(subscriber: string): string {
    return this.#redis.key('subscriber', subscriber);
  }

  async add(key: string, subscriber: string): Promise<void> {
    await this.#redis.run(STORE, async (client) => {
      await client.sAdd(this.#subscriberOf(subscriber), key);
      await client.sAdd(this.#keyOf(key), subscriber);
    }, { idempotent: true });
  }

  async remove(key: string, subscriber: string): Promise<boolean> {
    return this.#redis.run(STORE, async (client) => {
      const removed = await client.sRem(this.#keyOf(key), subscriber);
      await client.sRem(this.#subscriberOf(subscriber), key);
      return Number(removed) === 1;
    });
  }

  async subscribers(key: string): Promise<string[]> {
    return this.#redis.run(STORE, (client) => client.sMembers(this.#keyOf(key)), { idempotent: true });
  }

  async removeAll(subscriber: string): Promise<number> {
    const own = this.#subscriberOf(subscriber);
    return this.#redis.run(STORE, async (client) => {
      const keys = await client.sMembers(own);
      if (keys.length === 0) return 0;
      await Promise.all(keys.map((key) => client.sRem(this.#keyOf(key), subscriber)));
      // Only what was read: a key indexed meanwhile (a concurrent add) stays, with its membership.
      await client.sRem(own, keys);
      return keys.length;
    });
  }
}
