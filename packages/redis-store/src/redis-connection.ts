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
 *                         inside the shard of its channel (sharded-pubsub.ts)
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
 * bounded backoff and the next command after Redis is back succeeds. A Redis that is reachable but
 * does not answer fails an operation after `commandTimeoutMs`, kept by one timer per connection
 * (command-deadlines.ts) rather than the client's timer per command. Channels subscribed before
 * an outage are subscribed again on reconnection; on a cluster, a sharded channel whose slot
 * moved (a failover promoted a replica) is subscribed again on the new master.
 */
import { DisconnectsClientError, ErrorReply, createClient, createCluster } from '@redis/client';
import { SharedStoreUnavailableError } from '@statemcp/http-transport/server';
import { CommandDeadlines } from './command-deadlines.js';
import { ShardedPubSub, type ChannelListener } from './sharded-pubsub.js';

export type { ChannelListener } from './sharded-pubsub.js';

type ReconnectStrategy = (retries: number, cause: Error) => number | Error;

/** On a cluster, how long after the masters changed a publish reaching nobody is not believed, ms (sharded-pubsub.ts). */
const UNCERTAIN_AFTER_FAILOVER_MS = 2000;

/** No per-command timeout of the client (a falsy `timeout`): {@link CommandDeadlines} keeps the bound. */
const NO_COMMAND_TIMER = { timeout: 0 };

function newClient(url: string, connectTimeout: number, reconnectStrategy: ReconnectStrategy) {
  return createClient({ url, disableOfflineQueue: true, commandOptions: NO_COMMAND_TIMER, socket: { connectTimeout, reconnectStrategy } });
}

function newCluster(urls: readonly string[], connectTimeout: number, reconnectStrategy: ReconnectStrategy) {
  // Discovered nodes inherit `defaults` only (not the seed URLs): credentials and TLS go there.
  const seed = new URL(urls[0] ?? '');
  const credentials = { ...(seed.username === '' ? {} : { username: decodeURIComponent(seed.username) }), ...(seed.password === '' ? {} : { password: decodeURIComponent(seed.password) }) };
  return createCluster({
    rootNodes: urls.map((url) => ({ url })),
    commandOptions: NO_COMMAND_TIMER,
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
  /**
   * How long a store operation waits for a Redis that is connected but does not answer before it
   * rejects with `SharedStoreUnavailableError`, ms. Default 5000.
   */
  commandTimeoutMs?: number;
  /** Called with connection errors (they are also what commands reject with, typed). */
  onError?: (error: Error) => void;
}

type Topology =
  | { readonly kind: 'standalone'; readonly client: RedisStandaloneClient; readonly subscriber: RedisStandaloneClient }
  | { readonly kind: 'cluster'; readonly client: RedisClusterClient; readonly pubsub: ShardedPubSub };

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
  readonly #deadlines: CommandDeadlines;
  #closed = false;

  private constructor(topology: Topology, keyPrefix: string, deadlines: CommandDeadlines) {
    this.#topology = topology;
    this.#deadlines = deadlines;
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
    const deadlines = new CommandDeadlines(options.commandTimeoutMs ?? 5000);
    const maxDelay = options.maxReconnectDelayMs ?? 2000;
    const connectTimeout = options.connectTimeoutMs ?? 5000;
    // The first connection fails fast (the caller learns Redis is not there); once up, reconnect forever.
    let connected = false;
    const reconnect: ReconnectStrategy = (retries, cause) => (connected ? Math.min(50 * 2 ** Math.min(retries, 10), maxDelay) : cause);
    const report = (error: unknown): void => {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
    };
    if (options.cluster === undefined) {
      const client = newClient(options.url ?? 'redis://127.0.0.1:6379', connectTimeout, reconnect);
      const subscriber = client.duplicate();
      client.on('error', report);
      subscriber.on('error', report);
      try {
        await Promise.all([client.connect(), subscriber.connect()]);
        connected = true;
      } catch (error) {
        client.destroy();
        subscriber.destroy();
        throw new SharedStoreUnavailableError('connection', `Cannot connect to Redis: ${messageOf(error)}`, { cause: error });
      }
      return new RedisConnection({ kind: 'standalone', client, subscriber }, keyPrefix, deadlines);
    }
    const client = newCluster(options.cluster, connectTimeout, reconnect);
    client.on('error', report);
    // A sharded channel that could not follow its slot to another master is reported, not lost silently.
    client.on('sharded-channel-moved-error', report);
    try {
      await client.connect();
      connected = true;
    } catch (error) {
      client.destroy();
      throw new SharedStoreUnavailableError('connection', `Cannot connect to Redis: ${messageOf(error)}`, { cause: error });
    }
    return new RedisConnection({ kind: 'cluster', client, pubsub: new ShardedPubSub(client, UNCERTAIN_AFTER_FAILOVER_MS) }, keyPrefix, deadlines);
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
   *
   * `idempotent`: the commands may run twice with the same outcome. On a cluster, re-reading the
   * slot map after a failover drops the connection to the demoted master, rejecting the commands
   * still waiting for its answer (which was a redirection, or an answer lost with the
   * connection); idempotent commands are then sent once more, to the promoted master. Others
   * (a compare-and-set, a set-if-absent) reject as unreachable: running them twice could
   * misreport them. An event store's batch is made idempotent by its token (redis-event-store.ts).
   * Without an answer within `commandTimeoutMs` the operation rejects as unreachable too.
   */
  async run<T>(store: string, commands: (client: RedisCommandClient) => Promise<T>, options: { idempotent?: boolean } = {}): Promise<T> {
    if (this.#closed) throw new SharedStoreUnavailableError(store, 'The Redis connection is closed');
    if (!this.#topology.client.isReady) throw new SharedStoreUnavailableError(store, 'Redis is unreachable (reconnecting)');
    try {
      return await this.#deadlines.bound(this.#attempt(commands, options.idempotent === true), () => this.#timedOut(store));
    } catch (error) {
      if (error instanceof ErrorReply || error instanceof SharedStoreUnavailableError) throw error;
      throw new SharedStoreUnavailableError(store, `Redis is unreachable: ${messageOf(error)}`, { cause: error });
    }
  }

  async #attempt<T>(commands: (client: RedisCommandClient) => Promise<T>, idempotent: boolean): Promise<T> {
    try {
      return await commands(this.#topology.client);
    } catch (error) {
      if (!(idempotent && error instanceof DisconnectsClientError && this.#topology.kind === 'cluster')) throw error;
      return await commands(this.#topology.client);
    }
  }

  #timedOut(store: string): SharedStoreUnavailableError {
    return new SharedStoreUnavailableError(store, `Redis did not answer within ${this.#deadlines.timeoutMs} ms`);
  }

  /**
   * Publishes on channel `name`; resolves with the subscribers reached. On a cluster it is an
   * `SPUBLISH`, and a publish that reached nobody just after the masters changed resolves
   * `undefined` (not known: see `sharded-pubsub.ts`).
   */
  async publish(store: string, name: string, message: string): Promise<number | undefined> {
    const channel = this.channel(name);
    const topology = this.#topology;
    if (topology.kind === 'standalone') return Number(await this.run(store, () => topology.client.publish(channel, message)));
    return this.run(store, () => topology.pubsub.publish(channel, message));
  }

  /** Subscribes `listener` to channel `name` (`SSUBSCRIBE` on a cluster). */
  async subscribe(store: string, name: string, listener: ChannelListener): Promise<void> {
    const channel = this.channel(name);
    const topology = this.#topology;
    const subscriber = topology.kind === 'cluster' ? topology.client : topology.subscriber;
    if (this.#closed || !subscriber.isReady) throw new SharedStoreUnavailableError(store, 'Redis is unreachable (reconnecting)');
    try {
      const subscribed = topology.kind === 'cluster' ? topology.pubsub.subscribe(channel, listener) : topology.subscriber.subscribe(channel, listener);
      await this.#deadlines.bound(subscribed, () => this.#timedOut(store));
    } catch (error) {
      if (error instanceof SharedStoreUnavailableError) throw error;
      throw new SharedStoreUnavailableError(store, `Redis is unreachable: ${messageOf(error)}`, { cause: error });
    }
  }

  /** Unsubscribes channel `name`; quiet when Redis is unreachable (the subscription ends with the connection). */
  async unsubscribe(name: string): Promise<void> {
    const channel = this.channel(name);
    const topology = this.#topology;
    if (this.#closed) return;
    if (topology.kind === 'cluster') {
      if (topology.client.isReady) await topology.pubsub.unsubscribe(channel).catch(() => undefined);
    } else if (topology.subscriber.isReady) {
      await topology.subscriber.unsubscribe(channel).catch(() => undefined);
    }
  }

  /** Closes the connections (pending commands finish first). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#deadlines.stop();
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
