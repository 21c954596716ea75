/**
 * Every shared store of one server instance over one pair of Redis connections: what a
 * scaled-out deployment passes to its server (`eventStore`, the session and subscription
 * stores, the message bus), to the tasks extension (`tasks.store`) and to its protected
 * resource (`dpop.replayStore`).
 */
import { RedisConnection, type RedisConnectionOptions } from './redis-connection.js';
import { RedisDpopReplayStore } from './redis-dpop-replay-store.js';
import { RedisEventStore, type RedisEventStoreOptions } from './redis-event-store.js';
import { RedisLivenessStore } from './redis-liveness-store.js';
import { RedisMessageBus } from './redis-message-bus.js';
import { RedisSessionStore } from './redis-session-store.js';
import { RedisSubscriptionStore } from './redis-subscription-store.js';
import { RedisTaskStore } from './redis-task-store.js';

/** Options of {@link connectRedisStores}: the connection's plus the event store's bounds. */
export interface RedisStoresOptions extends RedisConnectionOptions, RedisEventStoreOptions {}

/** The shared stores of one instance and the connection they use. */
export interface RedisStores {
  readonly connection: RedisConnection;
  readonly sessions: RedisSessionStore;
  /** Instance liveness (`cluster.liveness`): a dead owner's sessions are adopted. */
  readonly liveness: RedisLivenessStore;
  readonly events: RedisEventStore;
  readonly bus: RedisMessageBus;
  readonly subscriptions: RedisSubscriptionStore;
  readonly tasks: RedisTaskStore;
  /**
   * The DPoP replay set the instances share (`createProtectedResource({ dpop: { replayStore } })`
   * of `@statemcp/http-transport/auth`): a proof used at one instance is refused at every other.
   */
  readonly dpopReplay: RedisDpopReplayStore;
  /** Closes the connections. Idempotent. */
  close(): Promise<void>;
}

/**
 * Connects to Redis and builds every store on that connection. Rejects with
 * `SharedStoreUnavailableError` when Redis cannot be reached.
 *
 * @example
 * ```ts
 * const stores = await connectRedisStores({ url: 'redis://127.0.0.1:6390', keyPrefix: 'myapp:' });
 * const mcp = createStreamableHttpServer({ connect: (t) => server.connect(t), eventStore: stores.events });
 * ```
 */
export async function connectRedisStores(options: RedisStoresOptions = {}): Promise<RedisStores> {
  const connection = await RedisConnection.connect(options);
  const eventOptions: RedisEventStoreOptions = {};
  if (options.maxEventsPerStream !== undefined) eventOptions.maxEventsPerStream = options.maxEventsPerStream;
  if (options.maxEventsPerSession !== undefined) eventOptions.maxEventsPerSession = options.maxEventsPerSession;
  if (options.streamTtlMs !== undefined) eventOptions.streamTtlMs = options.streamTtlMs;
  return {
    connection,
    sessions: new RedisSessionStore(connection),
    liveness: new RedisLivenessStore(connection),
    events: new RedisEventStore(connection, eventOptions),
    bus: new RedisMessageBus(connection),
    subscriptions: new RedisSubscriptionStore(connection),
    tasks: new RedisTaskStore(connection),
    dpopReplay: new RedisDpopReplayStore(connection),
    close: () => connection.close(),
  };
}
