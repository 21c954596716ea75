/**
 * The Redis connections every store of one instance shares: one client for commands and one
 * for pub/sub (a subscribed RESP2 connection accepts no other command), a key prefix, and the
 * one place where a Redis failure becomes a {@link SharedStoreUnavailableError}.
 *
 * While Redis is unreachable commands fail at once (the offline queue is disabled, so nothing
 * waits or is replayed later out of order); the client reconnects in the background with a
 * bounded backoff and the next command after it is back succeeds. Channels subscribed before
 * the outage are subscribed again by the client on reconnection.
 */
import { ErrorReply, createClient } from '@redis/client';
import { SharedStoreUnavailableError } from '@statemcp/http-transport/server';

function newClient(url: string, connectTimeout: number, reconnectStrategy: (retries: number, cause: Error) => number | Error) {
  return createClient({ url, disableOfflineQueue: true, socket: { connectTimeout, reconnectStrategy } });
}

/** A command client of `@redis/client` as this package creates it (RESP3, no modules). */
export type RedisCommandClient = ReturnType<typeof newClient>;

/** Options of {@link RedisConnection.connect}. */
export interface RedisConnectionOptions {
  /** `redis://[[user]:password@]host[:port][/db]`. Default `redis://127.0.0.1:6379`. */
  url?: string;
  /** Prefix of every key and channel, so several applications share one Redis. Default `statemcp:`. */
  keyPrefix?: string;
  /** How long one connection attempt may take, ms. Default 5000. */
  connectTimeoutMs?: number;
  /** Longest wait between reconnection attempts, ms (the backoff doubles up to it). Default 2000. */
  maxReconnectDelayMs?: number;
  /** Called with connection errors (they are also what commands reject with, typed). */
  onError?: (error: Error) => void;
}

/** The two Redis connections of one instance and the key prefix its stores share. */
export class RedisConnection {
  readonly keyPrefix: string;
  /** The command client. */
  readonly client: RedisCommandClient;
  /** The pub/sub client (subscriptions only). */
  readonly subscriber: RedisCommandClient;
  #closed = false;

  private constructor(client: RedisCommandClient, subscriber: RedisCommandClient, keyPrefix: string) {
    this.client = client;
    this.subscriber = subscriber;
    this.keyPrefix = keyPrefix;
  }

  /**
   * Opens both connections; rejects with {@link SharedStoreUnavailableError} when Redis cannot
   * be reached.
   */
  static async connect(options: RedisConnectionOptions = {}): Promise<RedisConnection> {
    const maxDelay = options.maxReconnectDelayMs ?? 2000;
    // The first connection fails fast (the caller learns Redis is not there); once up, reconnect forever.
    let connected = false;
    const client = newClient(options.url ?? 'redis://127.0.0.1:6379', options.connectTimeoutMs ?? 5000, (retries, cause) =>
      connected ? Math.min(50 * 2 ** Math.min(retries, 10), maxDelay) : cause,
    );
    const subscriber = client.duplicate();
    const report = (error: unknown): void => {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
    };
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
    return new RedisConnection(client, subscriber, options.keyPrefix ?? 'statemcp:');
  }

  /** True while the command connection is up. */
  get ready(): boolean {
    return this.client.isReady;
  }

  /** The full key (or channel) name of `name`. */
  key(name: string): string {
    return `${this.keyPrefix}${name}`;
  }

  /**
   * Runs Redis commands for store `store`; a connection failure rejects with
   * {@link SharedStoreUnavailableError}, a command refused by Redis rejects as is.
   */
  async run<T>(store: string, commands: (client: RedisCommandClient) => Promise<T>): Promise<T> {
    if (this.#closed) throw new SharedStoreUnavailableError(store, 'The Redis connection is closed');
    if (!this.client.isReady) throw new SharedStoreUnavailableError(store, 'Redis is unreachable (reconnecting)');
    try {
      return await commands(this.client);
    } catch (error) {
      if (error instanceof ErrorReply) throw error;
      throw new SharedStoreUnavailableError(store, `Redis is unreachable: ${messageOf(error)}`, { cause: error });
    }
  }

  /** Closes both connections (pending commands finish first). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([closeQuietly(this.client), closeQuietly(this.subscriber)]);
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
