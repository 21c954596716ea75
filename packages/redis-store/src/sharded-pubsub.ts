/**
 * The bus's pub/sub on a Redis Cluster: sharded pub/sub (`SPUBLISH` / `SSUBSCRIBE`, Redis 7), so a
 * channel lives in the slot of its name and its messages travel only inside that shard. The
 * subscriber count `SPUBLISH` answers is what the relay reads to tell that a session's owner is
 * gone, and a failover can make it lie:
 *
 * ```
 *  subscriber   the demoted master unsubscribes it (`sunsubscribe` push); the client re-reads the
 *               slot map and subscribes again on the promoted master, a moment later
 *  publisher    until a keyed command answers MOVED, the client still sends SPUBLISH to the
 *               demoted node, which accepts it (a replica serves sharded pub/sub), hands it to the
 *               shard, and counts only its own subscribers: 0
 * ```
 *
 * So a publish that reached nobody is checked before 0 is believed: one keyed read of the channel
 * name through the cluster (`EXISTS`), which a demoted node answers MOVED, making the client
 * re-read the slot map. When the masters changed — at that moment or within `uncertainMs`
 * before, while subscribers may still be moving — the count is not known and the publish
 * resolves `undefined`, so the relay waits for the owner's liveness rather than adopting a
 * session whose owner is alive. Nothing is published twice: the message may have arrived.
 */
import type { RedisClusterClient } from './redis-connection.js';

/** Receives the messages of a channel. */
export type ChannelListener = (message: string) => void;

/** Sharded pub/sub over one cluster client; see the module comment. */
export class ShardedPubSub {
  readonly #client: RedisClusterClient;
  readonly #uncertainMs: number;
  #masters: string;
  #mastersChangedAt = Number.NEGATIVE_INFINITY;

  /** `uncertainMs`: how long after a change of masters a publish reaching nobody resolves `undefined`. */
  constructor(client: RedisClusterClient, uncertainMs: number) {
    this.#client = client;
    this.#uncertainMs = uncertainMs;
    this.#masters = this.#mastersNow();
  }

  /** `SPUBLISH`: the subscribers reached, or `undefined` when it reached none just as the masters changed. */
  async publish(channel: string, message: string): Promise<number | undefined> {
    const reached = Number(await this.#client.sPublish(channel, message));
    if (reached > 0) return reached;
    // The slot may have moved under a stale map: a keyed read answers MOVED from a demoted node.
    try {
      await this.#client.exists(channel);
    } catch {
      // Cut while the client re-read the slot map: the masters are changing.
      this.#mastersChangedAt = Date.now();
    }
    const masters = this.#mastersNow();
    if (masters !== this.#masters) {
      this.#masters = masters;
      this.#mastersChangedAt = Date.now();
    }
    return Date.now() - this.#mastersChangedAt < this.#uncertainMs ? undefined : 0;
  }

  async subscribe(channel: string, listener: ChannelListener): Promise<void> {
    await this.#client.sSubscribe(channel, listener);
  }

  async unsubscribe(channel: string): Promise<void> {
    await this.#client.sUnsubscribe(channel);
  }

  #mastersNow(): string {
    return this.#client.masters
      .map((master) => master.address)
      .sort()
      .join(' ');
  }
}
