/**
 * `client.listen(filter)`: one stream of change notifications over both eras.
 *
 * - 2026-07-28 (modern): a `subscriptions/listen` request that stays open (no timeout). The
 *   server acknowledges the subset it honours, then tags every notification of the stream with
 *   the request's id (`_meta["io.modelcontextprotocol/subscriptionId"]`); the streams of one
 *   connection are told apart by that id. `close()` cancels the request (`notifications/cancelled`
 *   on stdio and WebSocket; over Streamable HTTP the transport closes the SSE response).
 * - Legacy: list changes arrive on the connection anyway (over HTTP on the GET stream) and
 *   `resourceSubscriptions` become `resources/subscribe` calls; the acknowledgement is what the
 *   server's capabilities allow. `close()` unsubscribes.
 *
 * ```
 *  listen(filter) ─▶ opening ─▶ acknowledged ─▶ notifications … ─▶ ended
 *                                                   close() ──────────┤ 'closed'
 *                          server's SubscriptionsListenResult ────────┤ 'server'
 *                          connection closed / request failed ────────┘ 'connection' (with the error)
 * ```
 *
 * Notifications of a stream also reach the client-wide listeners (`onToolsListChanged`, the
 * `listChanged` auto-refresh), so a listen stream is what feeds them in the modern era; the
 * client opens one for them itself (`list-changed-stream.ts`).
 *
 * A stream outlives a lost connection (the server process exited, the transport failed; not
 * `client.close()`): it waits, and the client's next `connect()` opens it again in the era the
 * new connection speaks — `subscriptions/listen` re-sent with the same filter (the server keeps
 * no subscription state, MCP 2026-07-28 basic/patterns/subscriptions), or `resources/subscribe`
 * again — under a new id; its
 * listeners and iterators carry on, and `onResumed` reports the new acknowledgement. A legacy
 * connection whose Streamable HTTP session the server forgot re-runs its handshake and the
 * stream subscribes again. On a connection that stays up (stateless Streamable HTTP), a
 * `subscriptions/listen` whose response stream broke after it was acknowledged (a
 * `TransportError`: the server restarted, a proxy cut it) is sent again at once — once per
 * acknowledgement, so a server that is gone ends the stream instead of a loop.
 * `{ resume: false }` ends the stream with the connection instead.
 *
 * ```
 *  acknowledged ── connection lost ──▶ waiting ── connect() ──▶ re-sent ──▶ acknowledged (onResumed)
 *                                         └── close() / client.close() ──▶ ended
 * ```
 */
import { ConnectionClosedError, RequestCancelledError, SUBSCRIPTION_ID_META_KEY, isJsonObject, type JsonObject, type RequestId, type Session } from '@statemcp/protocol';
import type { CloseInfo } from '@statemcp/protocol';
import type { ServerCapabilities } from './types.js';

/**
 * Which notifications a listen stream delivers (the 2026-07-28 `SubscriptionFilter`); omitted or
 * `false` means not wanted. Extensions add keys (the tasks extension: `taskIds`).
 */
export interface SubscriptionFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  /** URIs whose `notifications/resources/updated` the stream delivers. */
  readonly resourceSubscriptions?: readonly string[];
  readonly [key: string]: unknown;
}

/** One notification delivered on a listen stream. */
export interface ListenNotification {
  readonly method: string;
  readonly params: JsonObject;
}

/** How a listen stream ended: `closed` by `close()`, `server` ended it gracefully, or the `connection` ended (with the error). */
export interface ListenEnd {
  readonly reason: 'closed' | 'server' | 'connection';
  readonly error?: Error;
}

/** Options of `client.listen`. */
export interface ListenOptions {
  /** Aborting it closes the stream (like `close()`). */
  readonly signal?: AbortSignal;
  /**
   * Whether the stream survives a lost connection and is opened again by the client's next
   * `connect()` (default true). `false`: it ends with the connection (`reason: 'connection'`).
   */
  readonly resume?: boolean;
}

/**
 * A live listen stream: iterate it (`for await`) or add listeners; `close()` ends it.
 *
 * @example
 * ```ts
 * const stream = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['file:///notes.md'] });
 * console.log(stream.acknowledged); // what the server honours
 * for await (const { method, params } of stream) console.log(method, params.uri);
 * ```
 */
export interface ListenHandle extends AsyncIterable<ListenNotification> {
  /** The subscription id (the `subscriptions/listen` request's id; undefined in the legacy era). */
  readonly id: RequestId | undefined;
  /** The filter the server honours: its acknowledgement (modern) or what its capabilities allow (legacy). */
  readonly acknowledged: SubscriptionFilter;
  /** Resolves once, when the stream has ended. */
  readonly ended: Promise<ListenEnd>;
  /** Calls `listener` with every notification of the stream; returns a function that removes it. */
  onNotification(listener: (notification: ListenNotification) => void): () => void;
  /**
   * Calls `listener` each time the stream was opened again after a lost connection and the
   * server acknowledged it (with what it honours now); returns a function that removes it.
   */
  onResumed(listener: (acknowledged: SubscriptionFilter) => void): () => void;
  /** Ends the stream (idempotent); resolves once it has ended. */
  close(): Promise<void>;
}

/** The close reasons a stream waits out for the next `connect()`: the connection was lost, not closed by this side. */
const LOST: ReadonlySet<CloseInfo['reason']> = new Set(['peerClosed', 'transportError', 'sessionChanged', 'sessionExpired']);

/** The close reasons of `client.close()` / `terminate()`. */
const CLOSED_HERE: ReadonlySet<CloseInfo['reason']> = new Set(['closed', 'terminated', 'closeTimeout']);

/** The methods a legacy connection delivers to a stream, and whether a filter asks for each. */
const LEGACY_ROUTES: Readonly<Record<string, (filter: SubscriptionFilter, params: JsonObject) => boolean>> = {
  'notifications/tools/list_changed': (filter) => filter.toolsListChanged === true,
  'notifications/prompts/list_changed': (filter) => filter.promptsListChanged === true,
  'notifications/resources/list_changed': (filter) => filter.resourcesListChanged === true,
  'notifications/resources/updated': (filter, params) => filter.resourceSubscriptions?.includes(String(params.uri)) === true,
};

/** The legacy acknowledgement: the part of `filter` the server's capabilities allow. */
export function legacyHonoured(filter: SubscriptionFilter, capabilities: ServerCapabilities | undefined): SubscriptionFilter {
  const honoured: Record<string, unknown> = {};
  if (filter.toolsListChanged === true && capabilities?.tools?.listChanged === true) honoured.toolsListChanged = true;
  if (filter.promptsListChanged === true && capabilities?.prompts?.listChanged === true) honoured.promptsListChanged = true;
  if (filter.resourcesListChanged === true && capabilities?.resources?.listChanged === true) honoured.resourcesListChanged = true;
  const uris = filter.resourceSubscriptions ?? [];
  if (uris.length > 0 && capabilities?.resources?.subscribe === true) honoured.resourceSubscriptions = [...new Set(uris)];
  return honoured;
}

/** One stream's state and deliveries (the `ListenHandle` implementation). */
export class ListenStream implements ListenHandle {
  id: RequestId | undefined;
  /** Settles with the acknowledgement, or rejects when the stream ends before it. */
  readonly opened: Promise<SubscriptionFilter>;
  readonly ended: Promise<ListenEnd>;
  /** The honoured filter, once acknowledged (legacy routing reads it). */
  filter: SubscriptionFilter | undefined;
  /** The filter asked for (re-sent as is when the stream is opened again). */
  readonly requested: SubscriptionFilter;
  /** Whether the stream waits out a lost connection (`ListenOptions.resume`). */
  readonly resume: boolean;
  readonly #listeners = new Set<(notification: ListenNotification) => void>();
  readonly #resumedListeners = new Set<(acknowledged: SubscriptionFilter) => void>();
  #stop: () => Promise<void>;
  #acknowledged = false;
  #acknowledge!: (filter: SubscriptionFilter) => void;
  #refuse!: (error: Error) => void;
  #end!: (end: ListenEnd) => void;
  #done = false;

  /** `stop` asks the era's mechanism to end the stream (cancel the request, or unsubscribe). */
  constructor(stop: () => Promise<void>, requested: SubscriptionFilter = {}, resume = false) {
    this.#stop = stop;
    this.requested = requested;
    this.resume = resume;
    this.opened = new Promise((resolve, reject) => {
      this.#acknowledge = resolve;
      this.#refuse = reject;
    });
    this.opened.catch(() => undefined); // observed through `ended` when nobody awaits it
    this.ended = new Promise((resolve) => (this.#end = resolve));
  }

  get acknowledged(): SubscriptionFilter {
    return this.filter ?? {};
  }

  /** True once the stream has ended. */
  get done(): boolean {
    return this.#done;
  }

  /** How many acknowledgements the stream has had (one per time it was opened). */
  acknowledgements = 0;

  /** The server acknowledged `filter` (again, after a reconnection: `onResumed` hears it). */
  acknowledge(filter: SubscriptionFilter): void {
    this.filter = filter;
    this.acknowledgements += 1;
    if (!this.#acknowledged) {
      this.#acknowledged = true;
      this.#acknowledge(filter);
      return;
    }
    for (const listener of [...this.#resumedListeners]) {
      try {
        listener(filter);
      } catch {
        // one listener's failure does not stop the others
      }
    }
  }

  /** The stream is opened again (after a lost connection): `stop` is how it ends from now on. */
  reopen(stop: () => Promise<void>): void {
    this.#stop = stop;
  }

  onResumed(listener: (acknowledged: SubscriptionFilter) => void): () => void {
    const entry = (acknowledged: SubscriptionFilter): void => listener(acknowledged);
    this.#resumedListeners.add(entry);
    return () => void this.#resumedListeners.delete(entry);
  }

  /** Delivers one notification of this stream to its listeners and iterators. */
  deliver(method: string, params: JsonObject): void {
    if (this.#done) return;
    const notification: ListenNotification = { method, params };
    for (const listener of [...this.#listeners]) {
      try {
        listener(notification);
      } catch {
        // one listener's failure does not stop the others, nor the stream
      }
    }
  }

  /** The stream is over: settles `ended` (and `acknowledged`, if it never came). */
  finish(end: ListenEnd): void {
    if (this.#done) return;
    this.#done = true;
    this.#refuse(end.error ?? new RequestCancelledError(`The listen stream ended (${end.reason}) before it was acknowledged`, { reason: end.reason }));
    this.#end(end);
  }

  onNotification(listener: (notification: ListenNotification) => void): () => void {
    const entry = (notification: ListenNotification): void => listener(notification);
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  async close(): Promise<void> {
    if (!this.#done) await this.#stop();
    await this.ended;
  }

  [Symbol.asyncIterator](): AsyncIterator<ListenNotification> {
    const queue: ListenNotification[] = [];
    let wake: (() => void) | undefined;
    const remove = this.onNotification((notification) => {
      queue.push(notification);
      wake?.();
    });
    void this.ended.then(() => wake?.());
    return {
      next: async () => {
        for (;;) {
          const next = queue.shift();
          if (next !== undefined) return { value: next, done: false };
          if (this.#done) {
            remove();
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      },
      return: async () => {
        remove();
        await this.close();
        return { value: undefined, done: true };
      },
    };
  }
}

/** A task followed through `notifications/tasks` on the client's listen streams: `covered` while an open stream names it; `stop()` ends the watch. */
export interface TaskWatch {
  /** True while an open stream's acknowledged `taskIds` names the task (its changes will be pushed). */
  readonly covered: boolean;
  /** Stops watching. */
  stop(): void;
}

/** The listen streams of one client: routes the server's notifications to them. */
export class ListenStreams {
  // Each collection is built by its first entry: most clients never open a stream.
  /** Modern streams by subscription id. */
  #tagged: Map<RequestId, ListenStream> | undefined;
  #legacy: Set<ListenStream> | undefined;
  /** Streams whose connection was lost, waiting for the next one. */
  #waiting: Set<ListenStream> | undefined;
  #taskWatchers: Set<{ readonly taskId: string; readonly listener: (params: JsonObject | undefined) => void }> | undefined;

  /**
   * Follows task `taskId`: `listener` gets the params of each `notifications/tasks` for it that
   * arrives on a stream, and `undefined` when a stream ends (coverage may have changed).
   */
  watchTask(taskId: string, listener: (params: JsonObject | undefined) => void): TaskWatch {
    const watcher = { taskId, listener };
    const watchers = (this.#taskWatchers ??= new Set());
    watchers.add(watcher);
    const tagged = (this.#tagged ??= new Map());
    return {
      get covered(): boolean {
        for (const stream of tagged.values()) {
          const ids = stream.done ? undefined : (stream.acknowledged as { taskIds?: unknown }).taskIds;
          if (Array.isArray(ids) && ids.includes(taskId)) return true;
        }
        return false;
      },
      stop: () => watchers.delete(watcher),
    };
  }

  /**
   * Ends every stream with `session` — but when the connection was lost rather than closed,
   * the resumable ones wait for the next connection. (Its acknowledgements and task
   * notifications reach `route` through the client's handler table.)
   */
  install(session: Session): void {
    void session.closed.then((info) => {
      // The error (and its stack trace) is built only when a stream is open: most closes have none.
      const live = this.#live();
      const error = live.length > 0 ? new ConnectionClosedError('The connection closed') : undefined;
      const lost = LOST.has(info.reason);
      for (const stream of live) {
        this.remove(stream);
        if (lost && stream.resume) this.#wait(stream);
        else stream.finish({ reason: 'connection', error: error ?? new ConnectionClosedError('The connection closed') });
      }
      // Closed by this side: the streams still waiting from an earlier connection end too (a failed reconnection keeps them).
      if (CLOSED_HERE.has(info.reason)) this.endWaiting();
    });
  }

  /** Whether a stream waits for a connection (or a legacy stream is live): something to open again once Operating. */
  get resumable(): boolean {
    return (this.#waiting?.size ?? 0) > 0 || (this.#legacy?.size ?? 0) > 0;
  }

  /** The streams waiting for a connection; the caller opens each again (they are no longer waiting). */
  takeWaiting(): ListenStream[] {
    const streams = [...(this.#waiting ?? [])];
    this.#waiting?.clear();
    return streams;
  }

  /** The live legacy streams (to subscribe again after the connection's handshake was re-run). */
  get legacyStreams(): readonly ListenStream[] {
    return [...(this.#legacy ?? [])];
  }

  /** Ends the streams waiting for a connection (the client was closed while disconnected). */
  endWaiting(): void {
    if (this.#waiting === undefined || this.#waiting.size === 0) return; // every close() asks: most clients have none
    for (const stream of this.takeWaiting()) stream.finish({ reason: 'connection', error: new ConnectionClosedError('The client was closed before it connected again') });
  }

  #wait(stream: ListenStream): void {
    const waiting = (this.#waiting ??= new Set());
    waiting.add(stream);
    stream.reopen(() => {
      waiting.delete(stream);
      stream.finish({ reason: 'closed' });
      return Promise.resolve();
    });
  }

  /** A modern stream, routed by its id from now on. */
  addTagged(id: RequestId, stream: ListenStream): void {
    stream.id = id;
    (this.#tagged ??= new Map()).set(id, stream);
  }

  /** A legacy stream, routed by its filter. */
  addLegacy(stream: ListenStream): void {
    (this.#legacy ??= new Set()).add(stream);
  }

  remove(stream: ListenStream): void {
    if (stream.id !== undefined && this.#tagged?.get(stream.id) === stream) this.#tagged.delete(stream.id);
    this.#legacy?.delete(stream);
    if (this.#taskWatchers !== undefined) for (const watcher of [...this.#taskWatchers]) watcher.listener(undefined);
  }

  /** True when a legacy stream still asks for updates of `uri` (its `resources/subscribe` stays). */
  legacyWants(uri: string): boolean {
    for (const stream of this.#legacy ?? []) if (stream.filter?.resourceSubscriptions?.includes(uri) === true) return true;
    return false;
  }

  /** Every stream of the connection ends with it. */
  endAll(error: Error): void {
    for (const stream of this.#live()) {
      this.remove(stream);
      stream.finish({ reason: 'connection', error });
    }
  }

  /** The connection's streams, modern and legacy (a copy: ending them removes them). */
  #live(): ListenStream[] {
    return [...(this.#tagged?.values() ?? []), ...(this.#legacy ?? [])];
  }

  /** A notification from the server: a tagged one goes to its stream, an untagged one to the legacy streams that asked for it. */
  route(method: string, params: JsonObject): void {
    const meta = isJsonObject(params._meta) ? params._meta : undefined;
    const id = meta?.[SUBSCRIPTION_ID_META_KEY];
    if (typeof id === 'string' || typeof id === 'number') {
      const stream = this.#tagged?.get(id);
      if (stream === undefined) return;
      if (method === 'notifications/subscriptions/acknowledged') stream.acknowledge(isJsonObject(params.notifications) ? params.notifications : {});
      else stream.deliver(method, params);
      if (method === 'notifications/tasks' && this.#taskWatchers !== undefined) for (const watcher of [...this.#taskWatchers]) if (watcher.taskId === params.taskId) watcher.listener(params);
      return;
    }
    const wanted = Object.hasOwn(LEGACY_ROUTES, method) ? LEGACY_ROUTES[method] : undefined;
    if (wanted === undefined) return;
    for (const stream of this.#legacy ?? []) if (stream.filter !== undefined && wanted(stream.filter, params)) stream.deliver(method, params);
  }
}
