/**
 * How the queue reaches Redis: a `redis://` URL or ioredis options for one Redis, or the nodes of
 * a Redis Cluster, turned into the connections BullMQ and the per-task run state share. BullMQ's
 * workers block on Redis, so commands are never given up on (`maxRetriesPerRequest: null`, as
 * BullMQ requires).
 *
 * On a Redis Cluster every key of one queue must live in one slot (BullMQ's scripts touch several
 * of them at once), so the prefix carries a hash tag: default `{statemcp}`, and a prefix given
 * without one is refused. The queue then lives on one shard; the task records of
 * `@statemcp/redis-store` and the bus still spread over all of them.
 */
import { Cluster, Redis, type RedisOptions } from 'ioredis';

/** The nodes of a Redis Cluster, for {@link TaskQueueConnectionOptions.connection}. */
export interface TaskQueueClusterConnection {
  /**
   * `redis://[user:password@]host:port` URLs of some nodes of the cluster (one is enough; the
   * rest is discovered). Credentials and TLS (`rediss:`) of the first URL apply to every node.
   */
  readonly cluster: readonly string[];
  /** ioredis options for the connection to every node, merged over those of the first URL. */
  readonly redisOptions?: RedisOptions;
}

/** Where the queue's Redis is and what its keys are called: shared by {@link TaskQueue} and {@link TaskWorker}. */
export interface TaskQueueConnectionOptions {
  /** A `redis://[user:password@]host:port[/db]` URL or ioredis options (one Redis), or `{ cluster: [urls…] }` (a Redis Cluster). */
  readonly connection: string | RedisOptions | TaskQueueClusterConnection;
  /** The queue's name (default `statemcp-tasks`): the same on every instance and worker of one server. */
  readonly name?: string;
  /**
   * Prefix of every key (default `statemcp`, on a Redis Cluster `{statemcp}`); clusters sharing a
   * Redis use different ones. On a Redis Cluster it must hold a hash tag (`{…}`).
   */
  readonly prefix?: string;
}

/** The resolved connection settings. */
export interface ResolvedConnection {
  /** Opens a new connection (BullMQ and the run state each hold their own). */
  readonly open: () => Redis | Cluster;
  readonly name: string;
  readonly prefix: string;
}

/** Parses a `redis://` URL into ioredis options. */
function fromUrl(url: string): RedisOptions {
  const parsed = new URL(url);
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new TypeError(`Not a redis:// URL: ${parsed.protocol}`);
  const options: RedisOptions = { host: parsed.hostname === '' ? '127.0.0.1' : parsed.hostname, port: parsed.port === '' ? 6379 : Number(parsed.port) };
  if (parsed.username !== '') options.username = decodeURIComponent(parsed.username);
  if (parsed.password !== '') options.password = decodeURIComponent(parsed.password);
  const db = parsed.pathname.slice(1);
  if (db !== '') options.db = Number(db);
  if (parsed.protocol === 'rediss:') options.tls = {};
  return options;
}

/** True when `key` has a Redis Cluster hash tag: a `{` followed later by a `}` with something between. */
function hasHashTag(key: string): boolean {
  const open = key.indexOf('{');
  if (open === -1) return false;
  const close = key.indexOf('}', open + 1);
  return close > open + 1;
}

export function resolveConnection(options: TaskQueueConnectionOptions): ResolvedConnection {
  const name = options.name ?? 'statemcp-tasks';
  const { connection } = options;
  if (typeof connection === 'object' && 'cluster' in connection) {
    const [first] = connection.cluster;
    if (first === undefined) throw new RangeError('cluster needs the URL of at least one node');
    const prefix = options.prefix ?? '{statemcp}';
    if (!hasHashTag(prefix)) throw new RangeError(`On a Redis Cluster the queue's prefix needs a hash tag, e.g. {${prefix}}: BullMQ keeps every key of a queue in one slot`);
    // Credentials and TLS of the first URL; a cluster has no database number.
    const shared = fromUrl(first);
    delete shared.host;
    delete shared.port;
    delete shared.db;
    const redisOptions: RedisOptions = { ...shared, ...connection.redisOptions, maxRetriesPerRequest: null };
    const nodes = connection.cluster.map((url) => {
      const node = fromUrl(url);
      return { host: node.host ?? '127.0.0.1', port: node.port ?? 6379 };
    });
    return { open: () => new Cluster(nodes, { redisOptions }), name, prefix };
  }
  const base = typeof connection === 'string' ? fromUrl(connection) : connection;
  const redis: RedisOptions = { ...base, maxRetriesPerRequest: null };
  return { open: () => new Redis(redis), name, prefix: options.prefix ?? 'statemcp' };
}
