/**
 * Cross-instance routing over Redis pub/sub: `publish` is one `PUBLISH` and `subscribe` one
 * `SUBSCRIBE` on the shared subscriber connection (several local handlers of a channel share
 * it); on a Redis Cluster they are the sharded `SPUBLISH` / `SSUBSCRIBE`, so a message travels
 * only inside the shard that serves its channel's slot instead of over every node. Channels are
 * keyed by session and stream (`busChannel`), so a message reaches only the instance holding
 * that session's or stream's HTTP exchange: O(1) per message, no broadcast to every instance.
 * Delivery is at most once, as the contract says; events that must survive a missed delivery
 * are in the {@link RedisEventStore} first.
 */
import type { BusHandler, MessageBus } from '@statemcp/http-transport/server';
import type { RedisConnection } from './redis-connection.js';

const STORE = 'bus';

/** The {@link MessageBus} over Redis pub/sub (sharded pub/sub on a cluster). */
export class RedisMessageBus implements MessageBus {
  readonly #redis: RedisConnection;
  readonly #handlers = new Map<string, Set<BusHandler>>();

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  async publish(channel: string, payload: string): Promise<number | undefined> {
    return this.#redis.publish(STORE, channel, payload);
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    const entry: BusHandler = (payload) => handler(payload);
    let handlers = this.#handlers.get(channel);
    if (handlers === undefined) {
      const created = new Set<BusHandler>();
      handlers = created;
      this.#handlers.set(channel, created);
      try {
        await this.#redis.subscribe(STORE, channel, (message) => {
          for (const each of [...created]) each(message);
        });
      } catch (error) {
        this.#handlers.delete(channel);
        throw error;
      }
    }
    handlers.add(entry);
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      const current = this.#handlers.get(channel);
      current?.delete(entry);
      if (current === undefined || current.size > 0) return;
      this.#handlers.delete(channel);
      await this.#redis.unsubscribe(channel);
    };
  }
}
