/**
 * Shared subscriptions in Redis sets: `<prefix>subs:<key>` holds the subscribers of a key and
 * `<prefix>subscriber:<id>` the keys of a subscriber, updated together in one `MULTI`, so a
 * session that ends drops all its subscriptions at once. Adding and removing are O(1);
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
    return this.#redis.key(`subs:${key}`);
  }

  #subscriberOf(subscriber: string): string {
    return this.#redis.key(`subscriber:${subscriber}`);
  }

  async add(key: string, subscriber: string): Promise<void> {
    await this.#redis.run(STORE, (client) => client.multi().sAdd(this.#keyOf(key), subscriber).sAdd(this.#subscriberOf(subscriber), key).exec());
  }

  async remove(key: string, subscriber: string): Promise<boolean> {
    const replies = await this.#redis.run(STORE, (client) =>
      client.multi().sRem(this.#keyOf(key), subscriber).sRem(this.#subscriberOf(subscriber), key).exec(),
    );
    return Number(replies[0]) === 1;
  }

  async subscribers(key: string): Promise<string[]> {
    return this.#redis.run(STORE, (client) => client.sMembers(this.#keyOf(key)));
  }

  async removeAll(subscriber: string): Promise<number> {
    const own = this.#subscriberOf(subscriber);
    return this.#redis.run(STORE, async (client) => {
      const keys = await client.sMembers(own);
      const multi = client.multi();
      for (const key of keys) multi.sRem(this.#keyOf(key), subscriber);
      multi.del(own);
      await multi.exec();
      return keys.length;
    });
  }
}
