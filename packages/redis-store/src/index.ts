/**
 * @statemcp/redis-store — Redis implementations of the shared-state contracts of
 * `@statemcp/http-transport` (sessions, resumable SSE events, cross-instance routing,
 * subscriptions, the DPoP replay set of `@statemcp/http-transport/auth`) and of the tasks extension's `DurableTaskStore` (`@statemcp/server`), so one
 * MCP server runs on several instances behind a load balancer, over one Redis or a Redis
 * Cluster. The Redis client (`@redis/client`) is a dependency of this package only.
 */
export { connectRedisStores } from './redis-stores.js';
export { RedisConnection } from './redis-connection.js';
export { RedisSessionStore } from './redis-session-store.js';
export { RedisLivenessStore } from './redis-liveness-store.js';
export { RedisEventStore } from './redis-event-store.js';
export { RedisMessageBus } from './redis-message-bus.js';
export { RedisSubscriptionStore } from './redis-subscription-store.js';
export { RedisTaskStore } from './redis-task-store.js';
export { RedisDpopReplayStore } from './redis-dpop-replay-store.js';

export type { RedisStores, RedisStoresOptions } from './redis-stores.js';
export type { ChannelListener, RedisClusterClient, RedisCommandClient, RedisConnectionOptions, RedisStandaloneClient } from './redis-connection.js';
export type { RedisEventStoreOptions } from './redis-event-store.js';
