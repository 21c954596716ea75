/**
 * How the queue reaches Redis: a `redis://` URL or ioredis options, turned into the options
 * BullMQ's connections and the per-task run state share. BullMQ's workers block on Redis, so
 * commands are never given up on (`maxRetriesPerRequest: null`, as BullMQ requires).
 */
import type { RedisOptions } from 'ioredis';

/** Where the queue's Redis is and what its keys are called: shared by {@link TaskQueue} and {@link TaskWorker}. */
export interface TaskQueueConnectionOptions {
  /** A `redis://[user:password@]host:port[/db]` URL, or ioredis options. */
  readonly connection: string | RedisOptions;
  /** The queue's name (default `statemcp-tasks`): the same on every instance and worker of one server. */
  readonly name?: string;
  /** Prefix of every key (default `statemcp`); clusters sharing a Redis use different ones. */
  readonly prefix?: string;
}

/** The resolved connection settings. */
export interface ResolvedConnection {
  readonly redis: RedisOptions;
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

export function resolveConnection(options: TaskQueueConnectionOptions): ResolvedConnection {
  const base = typeof options.connection === 'string' ? fromUrl(options.connection) : options.connection;
  return { redis: { ...base, maxRetriesPerRequest: null }, name: options.name ?? 'statemcp-tasks', prefix: options.prefix ?? 'statemcp' };
}
