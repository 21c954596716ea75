/**
 * Change notifications across the instances of one server (scale-out): which subscribers follow
 * which key lives in a shared {@link SubscriptionStore}, and a change seen on any instance is
 * delivered to every follower, wherever its connection runs, over a {@link MessageBus}.
 *
 * ```
 *  follow(target, key)   store.add(key, "<target>@<instance>")          (O(1), awaited: after the
 *                                                                         ack, changes reach it)
 *  publish(key, note)    store.subscribers(key) ─▶ group by instance ─▶ own followers: delivered here
 *                                                                    └▶ others: one publish on
 *                                                                       followers:<instance> each
 *  drop(target)          store.removeAll("<target>@<instance>")         (its connection / stream ended)
 * ```
 *
 * So a change costs O(followers of that key): one store read plus at most one bus message per
 * instance that has followers of it — never a broadcast to every instance. Each instance
 * subscribes one channel (its own), the first time one of its targets follows a key. Delivery
 * is at most once, like the bus. A follower whose instance died without ending its connections
 * stays in the store (notes for it reach nobody) until something removes that instance's entries.
 */
import type { JsonObject, MessageBus, SubscriptionStore } from '@statemcp/protocol';

/** The `cluster` option of a server: this instance's id, and what the instances share. */
export interface ServerClusterOptions {
  /** This instance's id, unique per instance (the HTTP server's `cluster.instanceId`). */
  readonly instanceId: string;
  /** Cross-instance messages (change notifications, commands for running tasks). */
  readonly bus: MessageBus;
  /** Which connections and listen streams follow which resource, on every instance. */
  readonly subscriptions: SubscriptionStore;
}

/** What a follower receives when a key it follows changes: the notification to send. */
export interface ChangeNote {
  readonly method: string;
  readonly params: JsonObject;
}

/** Sends a change note to one local target (a connection, a listen stream). Never rejects. */
export type DeliverNote = (note: ChangeNote) => Promise<unknown>;

/** A note as it travels to another instance: the note and which of its targets follow the key. */
interface RoutedNote extends ChangeNote {
  readonly targets: readonly string[];
}

/** The shared-store key of a resource URI's followers. */
export function resourceKey(uri: string): string {
  return `resource:${uri}`;
}

/** The bus channel an instance receives its followers' notes on. */
function followersChannel(instanceId: string): string {
  return `followers:${instanceId}`;
}

/** Fans changes out to the followers of a key on every instance of one server. */
export class SharedSubscriptions {
  readonly #instanceId: string;
  readonly #bus: MessageBus;
  readonly #store: SubscriptionStore;
  readonly #onError: (error: unknown) => void;
  /** Local targets that follow at least one key, by target id. */
  readonly #targets = new Map<string, DeliverNote>();
  #channel: Promise<() => Promise<void>> | undefined;

  constructor(options: ServerClusterOptions, onError: (error: unknown) => void = () => undefined) {
    this.#instanceId = options.instanceId;
    this.#bus = options.bus;
    this.#store = options.subscriptions;
    this.#onError = onError;
  }

  /**
   * Makes local `target` (an id without `@`) follow `key`; resolves once a change published
   * anywhere reaches it. Rejects when the store or bus is unreachable (nothing was added then).
   */
  async follow(target: string, key: string, deliver: DeliverNote): Promise<void> {
    await this.#listen();
    await this.#store.add(key, this.#subscriber(target));
    this.#targets.set(target, deliver);
  }

  /** Stops `target` following `key`. */
  async unfollow(target: string, key: string): Promise<void> {
    if (!this.#targets.has(target)) return;
    await this.#store.remove(key, this.#subscriber(target));
  }

  /** Forgets `target` everywhere (its connection or stream ended); a no-op for a target that never followed. */
  async drop(target: string): Promise<void> {
    if (!this.#targets.delete(target)) return;
    await this.#store.removeAll(this.#subscriber(target));
  }

  /** Delivers `note` to every follower of `key` on every instance; resolves with how many followers there were. */
  async publish(key: string, note: ChangeNote): Promise<number> {
    const followers = await this.#store.subscribers(key);
    const byInstance = new Map<string, string[]>();
    for (const follower of followers) {
      const at = follower.indexOf('@');
      if (at <= 0) continue;
      const instance = follower.slice(at + 1);
      let targets = byInstance.get(instance);
      if (targets === undefined) byInstance.set(instance, (targets = []));
      targets.push(follower.slice(0, at));
    }
    const sends: Promise<unknown>[] = [];
    for (const [instance, targets] of byInstance) {
      if (instance === this.#instanceId) sends.push(this.#deliver(targets, note));
      else sends.push(Promise.resolve(this.#bus.publish(followersChannel(instance), JSON.stringify({ ...note, targets } satisfies RoutedNote))));
    }
    await Promise.all(sends);
    return followers.length;
  }

  /**
   * Stops receiving notes (the server closed): targets still registered are dropped from the
   * store and the instance's channel is left (a later `follow` subscribes it again).
   */
  async close(): Promise<void> {
    const targets = [...this.#targets.keys()];
    await Promise.all(targets.map((target) => this.drop(target).catch(this.#onError)));
    const channel = this.#channel;
    this.#channel = undefined;
    if (channel !== undefined) await (await channel.catch(() => async () => undefined))();
  }

  #subscriber(target: string): string {
    return `${target}@${this.#instanceId}`;
  }

  async #deliver(targets: readonly string[], note: ChangeNote): Promise<void> {
    const sends: Promise<unknown>[] = [];
    for (const target of targets) {
      const deliver = this.#targets.get(target);
      if (deliver !== undefined) sends.push(deliver(note));
    }
    await Promise.all(sends);
  }

  /** Subscribes this instance's channel once (again after a failed attempt). */
  #listen(): Promise<() => Promise<void>> {
    if (this.#channel === undefined) {
      const subscribing = this.#bus.subscribe(followersChannel(this.#instanceId), (payload) => {
        try {
          const routed = JSON.parse(payload) as RoutedNote;
          void this.#deliver(routed.targets, { method: routed.method, params: routed.params }).catch(this.#onError);
        } catch (error) {
          this.#onError(error);
        }
      });
      this.#channel = subscribing;
      subscribing.catch(() => {
        if (this.#channel === subscribing) this.#channel = undefined;
      });
    }
    return this.#channel;
  }
}
