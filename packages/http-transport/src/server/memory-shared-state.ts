/**
 * The in-process implementations of the shared-state contracts (`shared-state.ts`): the
 * zero-configuration default of a single instance, and the reference behaviour a network store
 * (`@statemcp/redis-store`) matches. Time comes from an injected wall clock so tests drive
 * expiry without sleeping.
 */
import type { BusHandler, LivenessStore, MessageBus, SessionRecord, SessionStore, SubscriptionStore } from './shared-state.js';

/** Options of an {@link InMemorySessionStore}. */
export interface InMemorySessionStoreOptions {
  /** Wall clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

/**
 * Session records in a `Map`, each expiring `ttlMs` after its last `put` or `touch` (checked
 * lazily on access: an expired record is never returned).
 *
 * @example
 * ```ts
 * const sessions = new InMemorySessionStore();
 * sessions.put({ sessionId: 's1', protocolVersion: '2025-11-25', clientCapabilities: {}, principal: undefined, owner: 'a', expiresAt: 0 }, 60_000);
 * sessions.get('s1')?.owner; // 'a'
 * ```
 */
export class InMemorySessionStore implements SessionStore {
  readonly #records = new Map<string, SessionRecord>();
  readonly #now: () => number;

  constructor(options: InMemorySessionStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Records held, expired ones included until they are next touched. */
  get size(): number {
    return this.#records.size;
  }

  put(record: SessionRecord, ttlMs: number): void {
    this.#records.set(record.sessionId, { ...record, expiresAt: this.#now() + ttlMs });
  }

  get(sessionId: string): SessionRecord | undefined {
    const record = this.#records.get(sessionId);
    if (record === undefined) return undefined;
    if (this.#now() >= record.expiresAt) {
      this.#records.delete(sessionId);
      return undefined;
    }
    return record;
  }

  touch(sessionId: string, ttlMs: number): boolean {
    const record = this.get(sessionId);
    if (record === undefined) return false;
    this.#records.set(sessionId, { ...record, expiresAt: this.#now() + ttlMs });
    return true;
  }

  delete(sessionId: string): boolean {
    return this.#records.delete(sessionId);
  }

  claim(sessionId: string, from: string, to: string, ttlMs: number): SessionRecord | undefined {
    const record = this.get(sessionId);
    if (record?.owner !== from) return undefined;
    const claimed = { ...record, owner: to, expiresAt: this.#now() + ttlMs };
    this.#records.set(sessionId, claimed);
    return claimed;
  }
}

/**
 * Instance liveness in a `Map` of expiry times (wall clock). Servers of one process sharing it
 * behave as instances of a cluster; a test declares an instance dead by letting time pass
 * without its beats, or with {@link InMemoryLivenessStore.forget}.
 */
export class InMemoryLivenessStore implements LivenessStore {
  readonly #expiries = new Map<string, number>();
  readonly #now: () => number;

  constructor(options: InMemorySessionStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  beat(instanceId: string, ttlMs: number): boolean {
    const wasAlive = this.isAlive(instanceId);
    this.#expiries.set(instanceId, this.#now() + ttlMs);
    return wasAlive;
  }

  isAlive(instanceId: string): boolean {
    const expiry = this.#expiries.get(instanceId);
    return expiry !== undefined && this.#now() < expiry;
  }

  forget(instanceId: string): void {
    this.#expiries.delete(instanceId);
  }
}

/**
 * A {@link MessageBus} inside one process: handlers run synchronously, in subscription order,
 * when a message is published. Several servers in one process sharing it behave as instances
 * of a cluster.
 */
export class InMemoryMessageBus implements MessageBus {
  readonly #channels = new Map<string, Set<BusHandler>>();

  publish(channel: string, payload: string): number {
    const handlers = this.#channels.get(channel);
    if (handlers === undefined) return 0;
    for (const handler of [...handlers]) handler(payload);
    return handlers.size;
  }

  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    // A fresh function per subscription, so the same handler may subscribe twice.
    const entry: BusHandler = (payload) => handler(payload);
    let handlers = this.#channels.get(channel);
    if (handlers === undefined) {
      handlers = new Set();
      this.#channels.set(channel, handlers);
    }
    handlers.add(entry);
    const unsubscribe = (): Promise<void> => {
      const current = this.#channels.get(channel);
      current?.delete(entry);
      if (current?.size === 0) this.#channels.delete(channel);
      return Promise.resolve();
    };
    return Promise.resolve(unsubscribe);
  }

  /** Channels with at least one subscriber. */
  get channelCount(): number {
    return this.#channels.size;
  }
}

/** Subscriptions in two maps (key → subscribers, subscriber → keys). */
export class InMemorySubscriptionStore implements SubscriptionStore {
  readonly #byKey = new Map<string, Set<string>>();
  readonly #bySubscriber = new Map<string, Set<string>>();

  add(key: string, subscriber: string): void {
    addTo(this.#byKey, key, subscriber);
    addTo(this.#bySubscriber, subscriber, key);
  }

  remove(key: string, subscriber: string): boolean {
    removeFrom(this.#bySubscriber, subscriber, key);
    return removeFrom(this.#byKey, key, subscriber);
  }

  subscribers(key: string): string[] {
    return [...(this.#byKey.get(key) ?? [])];
  }

  removeAll(subscriber: string): number {
    const keys = this.#bySubscriber.get(subscriber);
    if (keys === undefined) return 0;
    this.#bySubscriber.delete(subscriber);
    for (const key of keys) removeFrom(this.#byKey, key, subscriber);
    return keys.size;
  }
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  set.add(value);
}

function removeFrom(map: Map<string, Set<string>>, key: string, value: string): boolean {
  const set = map.get(key);
  if (set === undefined || !set.delete(value)) return false;
  if (set.size === 0) map.delete(key);
  return true;
}
