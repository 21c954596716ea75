/**
 * `@statemcp/http-transport/cloudflare`: a stateful Streamable HTTP endpoint on Cloudflare
 * Workers and Durable Objects. A stateless Worker front routes each request by its
 * `Mcp-Session-Id`; each legacy-era session lives in a Durable Object of its own, and the
 * 2026-07-28 stateless requests (listen streams, tasks) in a shard object. Session records, SSE
 * events and task records are kept in the objects' storage, so a session survives its object's
 * eviction and a stream resumes with `Last-Event-ID`. No Cloudflare library is needed or
 * installed: the runtime's types are structural (`durable-object-types.ts`).
 */
export { createDurableObjectServer, durableObjectStores } from './durable-object-server.js';
export type { DurableObjectMcpServer, DurableObjectServerOptions, DurableObjectStores, DurableObjectStoresOptions } from './durable-object-server.js';
export { createWorkerFront, DEFAULT_SHARD } from './worker-front.js';
export type { WorkerFront, WorkerFrontOptions } from './worker-front.js';
export { DurableObjectSessionStore } from './storage-session-store.js';
export { DurableObjectEventStore } from './storage-event-store.js';
export type { DurableObjectEventStoreOptions } from './storage-event-store.js';
export { DurableObjectTaskStore } from './storage-task-store.js';
export type { TaskRecordLike } from './storage-task-store.js';
export type {
  DurableObjectIdLike,
  DurableObjectListOptionsLike,
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStorageLike,
  DurableObjectStubLike,
} from './durable-object-types.js';
