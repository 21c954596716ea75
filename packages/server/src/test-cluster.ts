/**
 * Test support: a process-local `MessageBus` whose deliveries a test can hold back (to play a
 * lost message), and a `SubscriptionStore` in maps. The published in-memory implementations
 * live in `@statemcp/http-transport`, which this package cannot depend on.
 */
import type { BusHandler, MessageBus, SubscriptionStore } from '@statemcp/protocol';

/** A synchronous bus; `drop` names channels whose messages are lost (still counted as reached). */
export class TestBus implements MessageBus {
  readonly channels = new Map<string, Set<BusHandler>>();
  readonly published: string[] = [];
  readonly drop = new Set<string>();

  publish(channel: string, payload: string): number {
    this.published.push(channel);
    const handlers = this.channels.get(channel);
    if (handlers === undefined) return 0;
    if (![...this.drop].some((prefix) => channel.startsWith(prefix))) for (const handler of [...handlers]) handler(payload);
    return handlers.size;
  }

  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    let handlers = this.channels.get(channel);
    if (handlers === undefined) this.channels.set(channel, (handlers = new Set()));
    const entry: BusHandler = (payload) => handler(payload);
    handlers.add(entry);
    return Promise.resolve(() => {
      handlers.delete(entry);
      if (handlers.size === 0) this.channels.delete(channel);
      return Promise.resolve();
    });
  }
}

/** Subscriptions in a map of sets. */
export class TestSubscriptionStore implements SubscriptionStore {
  readonly byKey = new Map<string, Set<string>>();

  add(key: string, subscriber: string): void {
    let set = this.byKey.get(key);
    if (set === undefined) this.byKey.set(key, (set = new Set()));
    set.add(subscriber);
  }

  remove(key: string, subscriber: string): boolean {
    return this.byKey.get(key)?.delete(subscriber) ?? false;
  }

  subscribers(key: string): string[] {
    return [...(this.byKey.get(key) ?? [])];
  }

  removeAll(subscriber: string): number {
    let removed = 0;
    for (const set of this.byKey.values()) if (set.delete(subscriber)) removed++;
    return removed;
  }
}
