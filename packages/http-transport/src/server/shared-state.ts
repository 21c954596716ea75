/**
 * What several instances of one Streamable HTTP server must share to serve the same sessions
 * behind a load balancer (scale-out, issue 15). Each piece is a small storage contract; the
 * in-memory implementations (`memory-shared-state.ts`) are the zero-configuration default, and
 * `@statemcp/redis-store` implements every one of them over Redis.
 *
 * ```
 *  SessionStore       session records: id, negotiated version, client capabilities, principal,
 *                     the instance running the session's machine, expiry (refreshed on use)
 *  LivenessStore      which instances are alive: a record per instance with a short time to
 *                     live, refreshed on a timer; a dead owner's sessions are adopted (failover)
 *  EventStore         SSE events for `Last-Event-ID` resumption, bounded per stream (event-store.ts)
 *  MessageBus         cross-instance routing: a message produced on instance A for a stream or
 *                     a session whose HTTP exchange is held open on instance B
 *  SubscriptionStore  listen / resource subscriptions: which subscribers follow which key
 *  DurableTaskStore   the tasks extension's records (`@statemcp/server`, tasks/durable-store.ts)
 * ```
 *
 * A session's connection machine is never shared: it stays one machine on the instance that
 * runs it (its record's `owner`); the other instances reach it through the `MessageBus`, or,
 * with `cluster.replicas`, serve its requests on a replica of their own (`cluster-replicas.ts`).
 * Every method may be asynchronous; a store that cannot reach its backend rejects with
 * {@link SharedStoreUnavailableError}, so a request fails with a typed error instead of
 * corrupting anything.
 */
import { LocalErrorCode, McpError, type JsonObject } from '@statemcp/protocol';

/** The shared record of one stateful (legacy-era) session. Plain JSON. */
export interface SessionRecord {
  /** The `Mcp-Session-Id`. */
  readonly sessionId: string;
  /** The version the session negotiated; `undefined` while its handshake is in flight. */
  readonly protocolVersion: string | undefined;
  /** The capabilities the client declared in `initialize`. */
  readonly clientCapabilities: JsonObject | undefined;
  /**
   * The principal that created the session (`sessionPrincipal`, or the authorization layer's
   * `principalOf`); requests of another principal get 404 and are neither relayed nor adopted.
   */
  readonly principal: string | undefined;
  /** The `clientInfo` the client sent in `initialize`, when recorded (restored on adoption). */
  readonly clientInfo?: JsonObject | undefined;
  /** The id of the instance running the session's connection machine. */
  readonly owner: string;
  /** Wall-clock ms (epoch) after which the session is gone unless used again. */
  readonly expiresAt: number;
}

/**
 * Shared session records. `put` and `touch` (re)start the record's time to live; an expired
 * record is gone for every instance at once.
 */
export interface SessionStore {
  /** Stores (or replaces) a record that lives `ttlMs` from now. */
  put(record: SessionRecord, ttlMs: number): Promise<void> | void;
  /** The record, or `undefined` when unknown, deleted or expired. */
  get(sessionId: string): Promise<SessionRecord | undefined> | SessionRecord | undefined;
  /** Restarts the record's time to live. Resolves false when the record is gone. */
  touch(sessionId: string, ttlMs: number): Promise<boolean> | boolean;
  /** Deletes the record. Resolves false when it was already gone. */
  delete(sessionId: string): Promise<boolean> | boolean;
  /**
   * Atomically moves the session to instance `to` if its record still names `from` as owner,
   * restarting its time to live (failover: exactly one of several instances adopting a dead
   * owner's session wins). Resolves with the updated record, or `undefined` when the record is
   * gone or names another owner. Optional: with a store that lacks it, the sessions of a dead
   * owner are lost (404) instead of adopted.
   */
  claim?(sessionId: string, from: string, to: string, ttlMs: number): Promise<SessionRecord | undefined> | SessionRecord | undefined;
}

/**
 * Which instances of a cluster are alive. Each instance that runs sessions refreshes its own
 * record every third of `ttlMs`; an instance whose record expired is dead (crashed, killed,
 * partitioned from the store), and the sessions it ran may be adopted by another instance.
 */
export interface LivenessStore {
  /**
   * Records that `instanceId` is alive for the next `ttlMs`. Resolves true when its previous
   * record was still there; false on the first beat and when it had expired (the instance was
   * presumed dead meanwhile).
   */
  beat(instanceId: string, ttlMs: number): Promise<boolean> | boolean;
  /** True while the last beat of `instanceId` has not expired. */
  isAlive(instanceId: string): Promise<boolean> | boolean;
  /** Removes the record of an instance that stops (graceful shutdown). */
  forget(instanceId: string): Promise<void> | void;
}

/**
 * The bus and the subscription store are shared with the server role, so their contracts live
 * in `@statemcp/protocol` (`BusHandler`, `MessageBus`, `SubscriptionStore`); re-exported here.
 */
export type { BusHandler, MessageBus, SubscriptionStore } from '@statemcp/protocol';

/** The channel names the server uses on a `MessageBus`, keyed by session and stream. */
export const busChannel = {
  /** Messages for the instance running session `sessionId` (POSTed items, replies, DELETE). */
  session: (sessionId: string): string => `session:${sessionId}`,
  /** Messages for whichever instance holds stream `streamId` of session `sessionId` open. */
  stream: (sessionId: string, streamId: string): string => `stream:${sessionId}:${streamId}`,
  /** Messages for every replica of session `sessionId` (`cluster-replicas.ts`): its end, the notifications its owner received. */
  replicas: (sessionId: string): string => `replicas:${sessionId}`,
  /** Messages for instance `instanceId` itself: the answers of the requests it relayed, and their aborts. */
  instance: (instanceId: string): string => `instance:${instanceId}`,
} as const;

/**
 * A shared store's backend (e.g. Redis) cannot be reached. Requests that needed it fail with
 * this error (HTTP servers answer 503); nothing was half-written. A typed local error of the
 * statemcp family with the `TRANSPORT_ERROR` code (category `interrupted`: retry later).
 */
export class SharedStoreUnavailableError extends McpError {
  override readonly name: string = 'SharedStoreUnavailableError';
  /** Which store failed, e.g. `'sessions'`, `'events'`, `'bus'`, `'tasks'`. */
  readonly store: string;

  constructor(store: string, message: string, options?: { cause?: unknown }) {
    super(LocalErrorCode.TransportError, message, options);
    this.store = store;
  }
}
