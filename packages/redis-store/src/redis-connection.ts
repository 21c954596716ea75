/**
 * The Redis connections every store of one instance shares, the names of the keys they use, and
 * the one place where a Redis failure becomes a {@link SharedStoreUnavailableError}. Two
 * topologies, chosen by the options:
 *
 * ```
 *  one Redis (url)        a command client + a pub/sub client (a subscribed RESP2 connection
 *                         takes no other command); the bus uses PUBLISH / SUBSCRIBE
 *  Redis Cluster (cluster) one cluster client: commands go to the master of their key's slot
 *                         (MOVED / ASK followed); the bus uses sharded pub/sub, SPUBLISH /
 *                         SSUBSCRIBE, on a connection per master, so a message travels only
 *                         inside the shard of its channel
 * ```
 *
 * Keys are named `<prefix><kind>:{<id>}` ({@link RedisConnection.key}): the braces are a Redis
 * Cluster hash tag, so the slot of a key is the slot of its id alone, and the keys a store
 * changes together (a stream's events and its tracked requests) share a slot. Braces and `%` in
 * an id are percent-escaped inside the tag, so the tag is exactly the id and two ids never name
 * one key. The same names serve one Redis, where the tag is just part of the name.
 *
 * While Redis is unreachable commands fail at once (the offline queue is disabled, so nothing
 * waits or is replayed later out of order); the clients reconnect in the background with a
 * bounded backoff and the next command after Redis is back succeeds. Channels subscribed before
 * an outage are subscribed again on reconnection; on a cluster, a sharded channel whose slot
 * moved (a failover promoted a replica) is subscribed again on the new master.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorReply, createClient, createCluster } from '@redis/client';
import { SharedStoreUnavailableError } from '@statemcp/http-transport/server';

type ReconnectStrategy = (retries: number, cause: Error) => number | Error;

/**
 * On a cluster, the waits before a publish that reached nobody is sent again, ms. After a
 * failover, the subscribers of a sharded channel are unsubscribed by the demoted master and
 * subscribe again on the promoted one a moment later; a publish in that gap reaches nobody, and
 * "nobody" is what tells the relay that a session's owner is dead. Sent again, it arrives once
 * they are back (it reached no one the first time, so nothing is delivered twice).
 */
const EMPTY_PUBLISH_RETRIES_MS = [25, 75, 250];

function newClient(url: string, connectTimeout: number, reconnectStrategy: ReconnectStrategy) {
  return createClient({ url, disableOfflineQueue: true, socket: { connectTimeout, reconnectStrategy } });
}

function newCluster(urls: readonly string[], connectTimeout: number, reconnectStrategy: ReconnectStrategy) {
  // Discovered nodes inherit `defaults` only (not the seed URLs): credentials and TLS go there.
  const seed = new URL(urls[0] ?? '');
  const credentials = { ...(seed.username === '' ? {} : { username: decodeURIComponent(seed.username) }), ...(seed.password === '' ? {} : { password: decodeURIComponent(seed.password) }) };
  return createCluster({
    rootNodes: urls.map((url) => ({ url })),
    defaults: { ...credentials, disableOfflineQueue: true, socket: { connectTimeout, reconnectStrategy, ...(seed.protocol === 'rediss:' ? { tls: true as const } : {}) } },
  });
}

/** A command client of `@redis/client` as this package creates it for one Redis (no modules). */
export type RedisStandaloneClient = ReturnType<typeof newClient>;
/** The cluster client of `@redis/client` as this package creates it for a Redis Cluster. */
export type RedisClusterClient = ReturnType<typeof newCluster>;
/** What the stores send commands through: the client of one Redis or of a Redis Cluster. */
export type RedisCommandClient = RedisStandaloneClient | RedisClusterClient;

/** Options of {@link RedisConnection.connect}. */
export interface RedisConnectionOptions {
  /** `redis://[[user]:password@]host[:port][/db]` of one Redis. Default `redis://127.0.0.1:6379`. */
  url?: string;
  /**
   * The `redis://` URLs of some nodes of a Redis Cluster (one is enough; give several so a node
   * that is down does not stop the start): the client discovers the rest. Credentials and TLS
   * (`rediss:`) of the first URL apply to every node. Mutually exclusive with `url`.
   */
  cluster?: readonly string[];
  /**
   * Prefix of every key and channel, so several applications share one Redis. Default
   * `statemcp:`. On a cluster it must hold no `{` or `}`: a hash tag in the prefix would put
   * every key in one slot.
   */
  keyPrefix?: string;
  /** How long one connection attempt may take, ms. Default 5000. */
  connectTimeoutMs?: number;
  /** Longest wait between reconnection attempts, ms (the backoff doubles up to it). Default 2000. */
  maxReconnectDelayMs?: number;
  /** Called with connection errors (they are also what commands reject with, typed). */
  onError?: (error: Error) => void;
}

/** Receives the messages of a channel. */
export type ChannelListener = (message: string) => void;

type Topology = { readonly kind: 'standalone'; readonly client: RedisStandaloneClient; readonly subscriber: RedisStandaloneClient } | { readonly kind: 'cluster'; readonly client: RedisClusterClient };

/** The Redis connections of one instance and the key prefix its stores share. */
export class RedisConnection {
  readonly keyPrefix: string;
  /** The command client (of one Redis, or of the cluster). */
  readonly client: RedisCommandClient;
  /**
   * The pub/sub client: on one Redis a second connection (subscriptions only); on a cluster the
   * cluster client itself, whose sharded subscriptions hold a connection per master.
   */
  readonly subscriber: RedisCommandClient;
  /** `'cluster'` when connected to a Redis Cluster. */
  readonly topology: 'standalone' | 'cluster';
  readonly #topology: Topology;
  #closed = false;

  private constructor(topology: Topology, keyPrefix: string) {
    this.#topology = topology;
    this.topology = topology.kind;
    this.client = topology.client;
    this.subscriber = topology.kind === 'cluster' ? topology.client : topology.subscriber;
    this.keyPrefix = keyPrefix;
  }

  /**
   * Opens the connections; rejects with {@link SharedStoreUnavailableError} when Redis cannot be
   * reached, and with a `RangeError` on contradictory options.
   */
  static async connect(options: RedisConnectionOptions = {}): Promise<RedisConnection> {
    const keyPrefix = options.keyPrefix ?? 'statemcp:';
    if (options.cluster !== undefined) {
      if (options.url !== undefined) throw new RangeError('Give either url (one Redis) or cluster (the nodes of a Redis Cluster), not both');
      if (options.cluster.length === 0) throw new RangeError('cluster needs the URL of at least one node');
      if (/[{}]/.test(keyPrefix)) throw new RangeError('On a Redis Cluster the keyPrefix must hold no { or }: a hash tag in it would put every key in one slot');
    }
    const maxDelay = options.maxReconnectDelayMs ?? 2000;
    const connectTimeout = options.connectTimeoutMs ?? 5000;
    // The first connection fails fast (the caller learns Redis is not there); once up, reconnect forever.
    let connected = false;
    const reconnect: ReconnectStrategy = (retries, cause) => (connected ? Math.min(50 * 2 ** Math.min(retries, 10), maxDelay) : cause);
    const report = (error: unknown): void => {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
    };
    let topology: Topology;
    if (options.cluster === undefined) {
      const client = newClient(options.url ?? 'redis://127.0.0.1:6379', connectTimeout, reconnect);
      topology = { kind: 'standalone', client, subscriber: client.duplicate() };
      topology.subscriber.on('error', report);
    } else {
      topology = { kind: 'cluster', client: newCluster(options.cluster, connectTimeout, reconnect) };
      // A sharded channel that could not follow its slot to another master is reported, not lost silently.
      topology.client.on('sharded-channel-moved-error', report);
    }
    topology.client.on('error', report);
    try {
      if (topology.kind === 'standalone') await Promise.all([topology.client.connect(), topology.subscriber.connect()]);
      else await topology.client.connect();
      connected = true;
    } catch (error) {
      topology.client.destroy();
      if (topology.kind === 'standalone') topology.subscriber.destroy();
      throw new SharedStoreUnavailableError('connection', `Cannot connect to Redis: ${messageOf(error)}`, { cause: error });
    }
    return new RedisConnection(topology, keyPrefix);
  }

  /** True while the command connection is up. */
  get ready(): boolean {
    return this.#topology.client.isReady;
  }

  /**
   * The full name of the key of `kind` for `id`: `<prefix><kind>:{<id>}`, the id being the
   * key's hash tag (with `{`, `}` and `%` percent-escaped), so its slot depends on the id alone.
   */
  key(kind: string, id: string): string {
    // An empty tag (`{}`) would hash the whole name: the empty id gets `%`, which no escaped id equals.
    const tag = id === '' ? '%' : id.replace(/[%{}]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
    return `${this.keyPrefix}${kind}:{${tag}}`;
  }

  /** The full name of bus channel `name`. */
  channel(name: string): string {
    return `${this.keyPrefix}${name}`;
  }

  /**
   * Runs Redis commands for store `store`; a connection failure rejects with
   * {@link SharedStoreUnavailableError}, a command refused by Redis rejects as is.
   */
  async run<T>(store: string, commands: (client: RedisCommandClient) => Promise<T>): Promise<T> {
    if (this.#closed) throw new SharedStoreUnavailableError(store, 'The Redis connection is closed');
    if (!this.#topology.client.isReady) throw new SharedStoreUnavailableError(store, 'Redis is unreachable (reconnecting)');
    try {
      return await commands(this.#topology.client);
    } catch (error) {
      if (error instanceof ErrorReply) throw error;
      throw new SharedStoreUnavailableError(store, `Redis is unreachable: ${messageOf(error)}`, { cause: error });
    }
  }

  /**
   * Publishes on channel `name`; resolves with the subscribers reached. On a cluster it is an
   * `SPUBLISH`, sent again a few times over about 350 ms while it reaches nobody (see
   * {@link EMPTY_PUBLISH_RETRIES_MS}).
   */
  async publish(store: string, name: string, message: string): Promise<number> {
    const channel = this.channel(name);
    const topology = this.#topology;
    if (topology.kind === 'standalone') return Number(await this.run(store, () => topology.client.publish(channel, message)));
    let reached = Number(await this.run(store, () => topology.client.sPublish(channel, message)));
    for (const delay of EMPTY_PUBLISH_RETRIES_MS) {
      if (reached > 0) break;
      await sleep(delay);
      reached = Number(await this.run(store, () => topology.client.sPublish(channel, message)));
    }
    return reached;
  }

  /** Subscribes `listener` to channel `name` (`SSUBSCRIBE` on a cluster). */
  async subscribe(store: string, name: string, listener: ChannelListener): Promise<void> {
    const channel = this.channel(name);
    const topology = this.#topology;
    const subscriber = topology.kind === 'cluster' ? topology.client : topology.subscriber;
    if (this.#closed || !subscriber.isReady) throw new SharedStoreUnavailableError(store, 'Redis is unreachable (reconnecting)');
    try {
      if (topology.kind === 'cluster') await topology.client.sSubscribe(channel, listener);
      else await topology.subscriber.subscribe(channel, listener);
    } catch (error) {
      throw new SharedStoreUnavailableError(store, `Redis is unreachable: ${messageOf(error)}`, { cause: error });
    }
  }

  /** Unsubscribes channel `name`; quiet when Redis is unreachable (the subscription ends with the connection). */
  async unsubscribe(name: string): Promise<void> {
    const channel = this.channel(name);
    const topology = this.#topology;
    if (this.#closed) return;
    if (topology.kind === 'cluster') {
      if (topology.client.isReady) await topology.client.sUnsubscribe(channel).catch(() => undefined);
    } else if (topology.subscriber.isReady) {
      await topology.subscriber.unsubscribe(channel).catch(() => undefined);
    }
  }

  /** Closes the connections (pending commands finish first). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const topology = this.#topology;
    if (topology.kind === 'cluster') await closeQuietly(topology.client);
    else await Promise.all([closeQuietly(topology.client), closeQuietly(topology.subscriber)]);
  }
}

async function closeQuietly(client: RedisCommandClient): Promise<void> {
  if (!client.isOpen) return;
  try {
    await client.close();
  } catch {
    client.destroy();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
