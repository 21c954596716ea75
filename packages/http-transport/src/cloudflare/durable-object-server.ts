/**
 * The Streamable HTTP server inside a Cloudflare Durable Object. The Worker front
 * (`worker-front.ts`) gives each legacy-era session (MCP 2025-11-25, Transports §Session
 * Management) an object of its own, and sends the 2026-07-28 stateless requests — listen streams
 * and tasks included — to a shard object; either kind of object runs this server.
 *
 * An object keeps its state in memory while it lives and in its storage for when it does not:
 *
 * ```
 *  session record   DurableObjectSessionStore   the negotiated version, client capabilities,
 *                                               principal and the incarnation that runs it
 *  SSE events       DurableObjectEventStore     every event before it is written: GET with
 *                                               Last-Event-ID resumes after an eviction
 *  task records     DurableObjectTaskStore      the tasks extension's store (give it to McpServer)
 * ```
 *
 * Each incarnation of the object is one instance of a cluster (docs/guide/scale-out.md) whose
 * bus reaches only itself: a request for a session that an earlier incarnation ran finds the
 * record, reaches no running owner, claims the record and rebuilds the session straight into
 * Operating (`cluster-relay.ts`) — an evicted object rehydrates its session exactly as a cluster
 * instance adopts the session of an instance that died. Nothing keeps the object awake between
 * requests, so it may hibernate whenever no stream is open.
 */
import { createStreamableHttpServer } from '../server/streamable-http-server.js';
import { InMemoryMessageBus } from '../server/memory-shared-state.js';
import type { StreamableHttpServer, StreamableHttpServerOptions } from '../server/server-options.js';
import type { DurableObjectStateLike, DurableObjectStorageLike } from './durable-object-types.js';
import { DurableObjectEventStore, type DurableObjectEventStoreOptions } from './storage-event-store.js';
import { DurableObjectSessionStore } from './storage-session-store.js';
import { DurableObjectTaskStore, type TaskRecordLike } from './storage-task-store.js';

/** The stores of one Durable Object, all on its storage. */
export interface DurableObjectStores<T extends TaskRecordLike = TaskRecordLike> {
  readonly sessions: DurableObjectSessionStore;
  readonly events: DurableObjectEventStore;
  /** For the `McpServer`'s `taskExtension.store`. */
  readonly tasks: DurableObjectTaskStore<T>;
}

/** Options of {@link durableObjectStores}: the event store's bound and the wall clock records expire on. */
export interface DurableObjectStoresOptions extends DurableObjectEventStoreOptions {
  /** Wall clock, ms since the epoch (default `Date.now`). */
  now?: () => number;
}

/**
 * The stores of a Durable Object over its storage; `T` is the task record type
 * (`durableObjectStores<StoredTask>(state.storage)` for `@statemcp/server`).
 *
 * @example
 * ```ts
 * import type { StoredTask } from '@statemcp/server';
 *
 * const stores = durableObjectStores<StoredTask>(state.storage);
 * const server = new McpServer({ name: 'edge', version: '1.0.0' }, { taskExtension: { store: stores.tasks } });
 * ```
 */
export function durableObjectStores<T extends TaskRecordLike = TaskRecordLike>(storage: DurableObjectStorageLike, options: DurableObjectStoresOptions = {}): DurableObjectStores<T> {
  const clock = options.now === undefined ? {} : { now: options.now };
  return { sessions: new DurableObjectSessionStore(storage, clock), events: new DurableObjectEventStore(storage, options), tasks: new DurableObjectTaskStore<T>(storage, clock) };
}

/**
 * Options of {@link createDurableObjectServer}: those of `createStreamableHttpServer` except the
 * ones the object decides (its stores, session ids, the cluster of its incarnations).
 */
export interface DurableObjectServerOptions extends Omit<StreamableHttpServerOptions, 'cluster' | 'eventStore' | 'stateless' | 'sessionIdGenerator' | 'legacySse'> {
  /** The object's stores, when its constructor made them already (to hand `tasks` to its `McpServer`). */
  stores?: Pick<DurableObjectStores, 'sessions' | 'events'>;
  /**
   * The client's address for `context.http.remoteAddress`. Default: the `CF-Connecting-IP`
   * header, which Cloudflare's edge sets on every request.
   */
  remoteAddress?: (request: Request) => string | undefined;
  /** Wall clock of the alarm's expiry checks, ms since the epoch (default `Date.now`); give the stores the same. */
  now?: () => number;
}

/** The server of one Durable Object: what its class's `fetch` and `alarm` call. */
export interface DurableObjectMcpServer {
  /** Serves one request the Worker front forwarded (the object's `fetch`). */
  fetch(request: Request): Promise<Response>;
  /**
   * The object's `alarm()`: removes the storage of sessions that expired while nobody came back
   * (the session store schedules it at each record's expiry), or moves the alarm to the next expiry.
   */
  alarm(): Promise<void>;
  /** The Streamable HTTP server, built on the first request (Workers allow random values only inside a request). */
  readonly server: StreamableHttpServer | undefined;
}

/**
 * The server a Durable Object class runs: `fetch` and `alarm` are what the class forwards.
 *
 * @example
 * ```ts
 * export class McpObject {
 *   constructor(state: DurableObjectState) {
 *     const server = new McpServer({ name: 'edge', version: '1.0.0' });
 *     this.mcp = createDurableObjectServer(state, { path: '/mcp', allowedHosts: ['mcp.example.com'], connect: (transport) => server.connect(transport) });
 *   }
 *   fetch(request: Request) { return this.mcp.fetch(request); }
 *   alarm() { return this.mcp.alarm(); }
 * }
 * ```
 */
export function createDurableObjectServer(state: DurableObjectStateLike, options: DurableObjectServerOptions): DurableObjectMcpServer {
  const { stores: given, remoteAddress, now = Date.now, ...serverOptions } = options;
  const stores = given ?? durableObjectStores(state.storage, { now });
  const objectId = state.id.toString();
  const idle = serverOptions.sessionIdleTimeoutMs ?? 30 * 60_000;
  const recordTtl = Number.isFinite(idle) ? idle : 24 * 60 * 60_000;
  let server: StreamableHttpServer | undefined;
  const build = (): StreamableHttpServer =>
    createStreamableHttpServer({
      ...serverOptions,
      eventStore: stores.events,
      // The front routes a session's requests by the object id before the dot; the rest is random.
      sessionIdGenerator: () => `${objectId}.${globalThis.crypto.randomUUID()}`,
      // The object's storage is local: a record refreshed on every request expires exactly an idle timeout after its last use.
      cluster: { instanceId: globalThis.crypto.randomUUID(), sessions: stores.sessions, bus: new InMemoryMessageBus(), recordRefresh: 'every-request' },
    });
  const addressOf = remoteAddress ?? ((request: Request) => request.headers.get('cf-connecting-ip') ?? undefined);
  return {
    fetch: (request) => {
      server ??= build();
      const address = addressOf(request);
      return server.handleFetch(request, address === undefined ? {} : { remoteAddress: address });
    },
    alarm: async () => {
      const time = now();
      let next = Number.POSITIVE_INFINITY;
      let keep = false;
      for (const record of await stores.sessions.records()) {
        if (record.expiresAt > time) {
          next = Math.min(next, record.expiresAt);
          keep = true;
        } else if (server?.sessions.get(record.sessionId) !== undefined) {
          // Still running here (an open stream is activity too): its record lives on, and `put` sets the next alarm.
          await stores.sessions.put(record, recordTtl);
          keep = true;
        }
      }
      if (!keep) await state.storage.deleteAll?.();
      else if (Number.isFinite(next)) await state.storage.setAlarm?.(next);
    },
    get server() {
      return server;
    },
  };
}
