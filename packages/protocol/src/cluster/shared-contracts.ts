/**
 * The two shared-state contracts that both the transports and the server role use when one MCP
 * server runs as several instances (scale-out): a {@link MessageBus} that carries messages
 * between instances, and a {@link SubscriptionStore} that says which subscribers follow which
 * key. `@statemcp/http-transport` has the in-memory implementations and the HTTP-side contracts
 * (session records, events); `@statemcp/redis-store` implements them all over Redis.
 *
 * ```
 *  instance A ── publish(channel, payload) ──▶ MessageBus ──▶ handlers of B subscribed to channel
 *  instance A ── subscribers(key) ──▶ SubscriptionStore ──▶ ["conn-1@b", "listen-4@c"]
 * ```
 */

/** Receives the messages published on a channel (JSON text, delivered in publish order). */
export type BusHandler = (payload: string) => void;

/**
 * Cross-instance message routing: fire-and-forget publish/subscribe on named channels.
 * Delivery is at most once, to the subscribers present at publish time; what must survive a
 * missed delivery is stored first.
 */
export interface MessageBus {
  /** Publishes `payload` on `channel`; resolves with the number of subscribers reached, when known. */
  publish(channel: string, payload: string): Promise<number | undefined> | number | undefined;
  /**
   * Subscribes `handler` to `channel`; resolves once messages published afterwards are
   * delivered. The returned function unsubscribes (idempotent).
   */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
}

/**
 * Subscriptions shared by every instance: which subscribers (sessions, listen streams) follow
 * which key (a resource URI, a listen topic), so a change seen on one instance notifies them all.
 */
export interface SubscriptionStore {
  /** Adds `subscriber` to the followers of `key`. */
  add(key: string, subscriber: string): Promise<void> | void;
  /** Removes `subscriber` from the followers of `key`. Resolves false when it was not there. */
  remove(key: string, subscriber: string): Promise<boolean> | boolean;
  /** The followers of `key`, in no particular order. */
  subscribers(key: string): Promise<string[]> | string[];
  /** Removes `subscriber` from every key (its session ended). Resolves with how many were dropped. */
  removeAll(subscriber: string): Promise<number> | number;
}
