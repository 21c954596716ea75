/**
 * Cross-instance routing over Redis pub/sub: `publish` is one `PUBLISH` on the command
 * connection, `subscribe` one `SUBSCRIBE` on the shared subscriber connection (several local
 * handlers of a channel share it). Channels are keyed by session and stream (`busChannel`), so a
 * message reaches only the instance holding that session's or stream's HTTP exchange: O(1)
 * per message, no broadcast to every instance. Delivery is at most once, as the contract says;
 * events that must survive a missed delivery are in the {@link RedisEventStore} first.
 */
import type { BusHandler, MessageBus } from '@statemcp/http-transport/server';
import { SharedStoreUnavailableError } from '@statemcp/http-transport/server';
import type { RedisConnection } from './redis-connection.js';

const STORE = 'bus';

/** The {@link MessageBus} over Redis pub/sub. */
export class RedisMessageBus implements MessageBus {
  readonly #redis: RedisConnection;
  readonly #handlers = new Map<string, Set<BusHandler>>();

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  async publish(channel: string, payload: string): Promise<number> {
    const reached = await this.#redis.run(STORE, (client) => client.publish(this.#redis.key(channel), payload));
    return Number(reached);
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    const entry: BusHandler = (payload) => handler(payload);
    let handlers = this.#handlers.get(channel);
    if (handlers === undefined) {
      const created = new Set<BusHandler>();
      handlers = created;
      this.#handlers.set(channel, created);
      try {
        await this.#subscribeRemote(channel, created);
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
      const subscriber = this.#redis.subscriber;
      if (subscriber.isReady) await subscriber.unsubscribe(this.#redis.key(channel)).catch(() => undefined);
    };
  }

  async #subscribeRemote(channel: string, handlers: Set<BusHandler>): Promise<void> {
    const subscriber = this.#redis.subscriber;
    if (!subscriber.isReady) throw new SharedStoreUnavailableError(STORE, 'Redis is unreachable (reconnecting)');
    try {
      await subscriber.subscribe(this.#redis.key(channel), (message: string) => {
        for (const handler of [...handlers]) handler(message);
      });
    } catch (error) {
      throw new SharedStoreUnavailableError(STORE, `Redis is unreachable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}
