/**
 * `subscriptions/listen` (2026-07-28+, MCP 2026-07-28 basic/patterns/subscriptions): the one place
 * a stateless server pushes
 * change notifications. A listen request stays open: its first message is
 * `notifications/subscriptions/acknowledged` with the subset of the filter this server honours,
 * then every notification it publishes to the stream carries the listen request's id in
 * `_meta["io.modelcontextprotocol/subscriptionId"]` (on stdio and WebSocket the client
 * demultiplexes by it; on Streamable HTTP the stream is the POST's SSE response).
 *
 * ```
 *  subscriptions/listen ─▶ honour the filter ─▶ acknowledged ─▶ live: publish() ─▶ tagged notifications
 *                                                                 │
 *          client cancels / connection ends ─▶ dropped (no reply) ┤
 *          server ends it (end / Server.close) ─▶ SubscriptionsListenResult, tagged ─▶ gone
 * ```
 *
 * Which filter keys exist is data: each {@link ListenFilterField} says what of a requested key
 * the server honours. The core keys (list changes, resource URIs) are built in; an extension
 * adds its own with {@link ListenSubscriptions.defineField} (the tasks extension: `taskIds`).
 */
import { SUBSCRIPTION_ID_META_KEY, isJsonObject, type JsonObject, type RequestId } from '@statemcp/protocol';
import type { ServerRequestContext } from './server.js';
import { resourceKey, type SharedSubscriptions } from './shared-subscriptions.js';
import type { ServerConnection } from './server-connection.js';

/** One key of the `SubscriptionFilter`: what of the client's request for it the server honours. */
export interface ListenFilterField {
  /** The filter key, e.g. `toolsListChanged` or `taskIds`. */
  readonly key: string;
  /**
   * The honoured value of `requested` (the client's value for {@link key}) for this request,
   * or undefined to leave the key out of the acknowledgement (unsupported, or not asked for).
   */
  honour(requested: unknown, context: ServerRequestContext): unknown;
}

/** A live listen stream, as {@link ListenSubscriptions.publish} sees it. */
export interface ListenSubscription {
  /** The id of the `subscriptions/listen` request (the `subscriptionId` of its notifications). */
  readonly id: RequestId;
  /** The honoured filter: what the acknowledgement announced. */
  readonly filter: Readonly<JsonObject>;
  /** The connection the stream runs on. */
  readonly connection: ServerConnection;
  /** The listen request's own context (its authorization, declared capabilities, identity). */
  readonly context: ServerRequestContext;
}

/**
 * Starts something a stream needs before it is acknowledged (following its keys across a
 * cluster): resolves with the function that stops it, or returns undefined when there is nothing to start.
 */
export type ListenOpenHook = (filter: Readonly<JsonObject>, context: ServerRequestContext) => Promise<() => void> | undefined;

interface LiveSubscription extends ListenSubscription {
  /** Answers the listen request with the graceful `SubscriptionsListenResult`. */
  readonly finish: () => void;
  /** Runs once when the stream is gone (ended or cancelled): its shared follows end. */
  readonly gone: () => void;
}

let listenTargets = 0;

/** A list-change key, honoured when the connection declared `listChanged` for its list. */
function listChangedField(key: string, list: 'tools' | 'prompts' | 'resources'): ListenFilterField {
  return {
    key,
    honour: (requested, context) => (requested === true && context.connection.capabilities[list]?.listChanged === true ? true : undefined),
  };
}

/** `resourceSubscriptions`: the URIs, honoured when the connection declared `resources.subscribe`. */
const RESOURCE_SUBSCRIPTIONS: ListenFilterField = {
  key: 'resourceSubscriptions',
  honour: (requested, context) => {
    if (!Array.isArray(requested) || context.connection.capabilities.resources?.subscribe !== true) return undefined;
    const uris = [...new Set(requested.filter((uri): uri is string => typeof uri === 'string'))];
    return uris.length === 0 ? undefined : uris;
  },
};

/** The core keys of the 2026-07-28 `SubscriptionFilter`. */
export const CORE_LISTEN_FIELDS: readonly ListenFilterField[] = Object.freeze([
  listChangedField('toolsListChanged', 'tools'),
  listChangedField('promptsListChanged', 'prompts'),
  listChangedField('resourcesListChanged', 'resources'),
  RESOURCE_SUBSCRIPTIONS,
]);

/** `params` tagged with the stream's id in `_meta` (a copy; the params' own `_meta` is kept). */
function tagged(params: JsonObject | undefined, id: RequestId): JsonObject {
  const meta = isJsonObject(params?._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, [SUBSCRIPTION_ID_META_KEY]: id } };
}

/**
 * Every live listen stream of one server, the filter keys it understands, and publishing to
 * the streams whose honoured filter matches.
 *
 * @example
 * ```ts
 * const { subscriptions } = mcpServer.server;
 * subscriptions.defineField({ key: 'com.example/alerts', honour: (requested) => (requested === true ? true : undefined) });
 * await subscriptions.publish('notifications/com.example/alert', { level: 'high' }, (filter) => filter['com.example/alerts'] === true);
 * ```
 */
export class ListenSubscriptions {
  readonly #fields = new Map<string, ListenFilterField>(CORE_LISTEN_FIELDS.map((field) => [field.key, field]));
  readonly #live = new Set<LiveSubscription>();
  readonly #openHooks: ListenOpenHook[] = [];
  #shared: SharedSubscriptions | undefined;

  /**
   * @internal Makes streams whose filter names resources follow them across the instances of a
   * cluster (the server's `cluster` option): a change published on any instance reaches them.
   */
  share(shared: SharedSubscriptions | undefined): void {
    this.#shared = shared;
  }

  /** @internal The cross-instance subscriptions of a cluster member; undefined alone. */
  get shared(): SharedSubscriptions | undefined {
    return this.#shared;
  }

  /** Adds (or replaces) a filter key; streams opened afterwards honour it. */
  defineField(field: ListenFilterField): void {
    this.#fields.set(field.key, field);
  }

  /** @internal The live streams themselves (no copies): the objects `publish` hands its matcher. */
  streams(): IterableIterator<ListenSubscription> {
    return this.#live.values();
  }

  /** The live streams. */
  get live(): readonly ListenSubscription[] {
    return [...this.#live].map(({ id, filter, connection, context }) => ({ id, filter, connection, context }));
  }

  /**
   * Sends `method` with `params` (tagged with each stream's id) on every live stream whose
   * honoured filter passes `matches` (which also sees the stream, e.g. to check who opened it);
   * resolves with how many streams it went to.
   */
  async publish(method: string, params: JsonObject | undefined, matches: (filter: Readonly<JsonObject>, subscription: ListenSubscription) => boolean): Promise<number> {
    const sends: Promise<void>[] = [];
    for (const subscription of this.#live) {
      if (!matches(subscription.filter, subscription)) continue;
      sends.push(subscription.context.sendNotification(method, tagged(params, subscription.id)).catch(() => undefined));
    }
    await Promise.all(sends);
    return sends.length;
  }

  /**
   * Ends streams gracefully (all of them, or those `which` selects): each listen request is
   * answered with `SubscriptionsListenResult` (`resultType: "complete"`, tagged with its id).
   * Resolves once the answers have been handed to their transports.
   */
  async end(which: (subscription: ListenSubscription) => boolean = () => true): Promise<void> {
    let ended = 0;
    for (const subscription of [...this.#live]) {
      if (!which(subscription)) continue;
      this.#live.delete(subscription);
      subscription.finish();
      subscription.gone();
      ended++;
    }
    // The replies are written once the handlers' promise chains have run: one macrotask later.
    if (ended > 0) await new Promise<void>((resolve) => setTimeout(resolve, 0));
  }

  /**
   * @internal Runs `hook` for every stream about to open, before it is acknowledged: what it
   * starts (a promise of its stop function) is awaited, a rejection fails the listen request,
   * and the stop function runs once the stream is gone.
   */
  onOpen(hook: ListenOpenHook): void {
    this.#openHooks.push(hook);
  }

  /** @internal The `subscriptions/listen` handler: acknowledge, then stay open until ended. */
  listen(params: JsonObject, context: ServerRequestContext): Promise<JsonObject> {
    const requested = isJsonObject(params.notifications) ? params.notifications : {};
    const filter: JsonObject = {};
    for (const [key, value] of Object.entries(requested)) {
      const honoured = this.#fields.get(key)?.honour(value, context);
      if (honoured !== undefined) filter[key] = honoured;
    }
    const starts: Promise<() => void>[] = [];
    for (const hook of [this.#followResources, ...this.#openHooks]) {
      const started = hook(filter, context);
      if (started !== undefined) starts.push(started);
    }
    if (starts.length === 0) return this.#open(filter, context, () => undefined);
    return Promise.allSettled(starts).then((settled) => {
      const stops = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
      const gone = (): void => {
        for (const stop of stops) stop();
      };
      const failed = settled.find((outcome) => outcome.status === 'rejected');
      if (failed === undefined) return this.#open(filter, context, gone);
      gone();
      throw failed.reason;
    });
  }

  /** In a cluster the stream follows its resources in the shared store before it is acknowledged. */
  readonly #followResources: ListenOpenHook = (filter, context) => {
    const uris = Array.isArray(filter.resourceSubscriptions) ? filter.resourceSubscriptions.filter((uri): uri is string => typeof uri === 'string') : [];
    return this.followShared(context, uris.map(resourceKey));
  };

  /**
   * @internal In a cluster: makes the listen stream of `context` follow `keys` in the shared
   * store, so a note published under one of them on any instance is sent on it (tagged with its
   * id). Resolves once it follows all of them, with the function that stops following; undefined
   * when there is no cluster or no key. For an open hook (see {@link onOpen}).
   */
  followShared(context: ServerRequestContext, keys: readonly string[]): Promise<() => void> | undefined {
    const shared = this.#shared;
    if (shared === undefined || keys.length === 0) return undefined;
    const target = `listen-${++listenTargets}`;
    const gone = (): void => void shared.drop(target).catch(() => undefined);
    const deliver = (note: { method: string; params: JsonObject }): Promise<unknown> => context.sendNotification(note.method, tagged(note.params, context.requestId)).catch(() => undefined);
    return Promise.all(keys.map((key) => shared.follow(target, key, deliver))).then(
      () => gone,
      (error: unknown) => {
        gone();
        throw error;
      },
    );
  }

  /** Acknowledges `filter` and keeps the stream live until it is ended or cancelled; `gone` runs then. */
  #open(filter: JsonObject, context: ServerRequestContext, gone: () => void): Promise<JsonObject> {
    const id = context.requestId;
    const result: JsonObject = { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: id } };
    return new Promise<JsonObject>((resolve) => {
      if (context.signal.aborted) {
        gone();
        resolve(result);
        return;
      }
      // Written before the stream goes live: nothing of this subscription can precede it.
      context.sendNotification('notifications/subscriptions/acknowledged', { _meta: { [SUBSCRIPTION_ID_META_KEY]: id }, notifications: filter }).catch(() => undefined);
      const subscription: LiveSubscription = { id, filter, connection: context.connection, context, finish: () => resolve(result), gone };
      this.#live.add(subscription);
      // Cancelled by the client, or the connection ended: the session sends no reply.
      context.signal.addEventListener(
        'abort',
        () => {
          if (this.#live.delete(subscription)) gone();
          resolve(result);
        },
        { once: true },
      );
    });
  }
}
