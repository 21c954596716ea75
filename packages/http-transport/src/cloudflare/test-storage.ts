/**
 * In-memory stand-ins of Durable Object storage and namespaces for unit tests. The storage: values are structured-cloned in and out
 * (as the runtime stores them), `list` returns keys in ascending order, and the alarm is
 * recorded so a test can fire it.
 */
import type { DurableObjectIdLike, DurableObjectListOptionsLike, DurableObjectNamespaceLike, DurableObjectStateLike, DurableObjectStorageLike, DurableObjectStubLike } from './durable-object-types.js';

export class MemoryDurableObjectStorage implements DurableObjectStorageLike {
  readonly entries = new Map<string, unknown>();
  /** The scheduled alarm time, ms since the epoch. */
  alarm: number | undefined;

  get<T = unknown>(key: string): Promise<T | undefined> {
    return Promise.resolve(this.entries.has(key) ? structuredClone(this.entries.get(key) as T) : undefined);
  }

  put<T>(key: string, value: T): Promise<void> {
    this.entries.set(key, structuredClone(value));
    return Promise.resolve();
  }

  delete(key: string): Promise<boolean>;
  delete(keys: string[]): Promise<number>;
  delete(keys: string | string[]): Promise<boolean> | Promise<number> {
    if (typeof keys === 'string') return Promise.resolve(this.entries.delete(keys));
    return Promise.resolve(keys.filter((key) => this.entries.delete(key)).length);
  }

  list<T = unknown>(options: DurableObjectListOptionsLike = {}): Promise<Map<string, T>> {
    const keys = [...this.entries.keys()]
      .filter((key) => (options.prefix === undefined || key.startsWith(options.prefix)) && (options.startAfter === undefined || key > options.startAfter))
      .sort();
    const picked = options.limit === undefined ? keys : keys.slice(0, options.limit);
    return Promise.resolve(new Map(picked.map((key) => [key, structuredClone(this.entries.get(key) as T)])));
  }

  setAlarm(scheduledTime: number): Promise<void> {
    this.alarm = scheduledTime;
    return Promise.resolve();
  }

  deleteAll(): Promise<void> {
    this.entries.clear();
    return Promise.resolve();
  }
}

/** An object as the stand-in namespace runs it: what the class's `fetch` does. */
export interface MemoryDurableObject {
  fetch(request: Request): Promise<Response>;
}

/**
 * An in-memory Durable Object namespace: ids are 64 hex digits (`idFromString` refuses anything
 * else, as the runtime does for ids not of its namespace), each id has one storage for good, and
 * `evict` drops an object's memory — the next request builds a new instance over the same storage.
 */
export class MemoryDurableObjectNamespace implements DurableObjectNamespaceLike {
  readonly storages = new Map<string, MemoryDurableObjectStorage>();
  readonly #instances = new Map<string, MemoryDurableObject>();
  readonly #create: (state: DurableObjectStateLike) => MemoryDurableObject;
  /** How many instances were built (an eviction and a new object each add one). */
  built = 0;

  constructor(create: (state: DurableObjectStateLike) => MemoryDurableObject) {
    this.#create = create;
  }

  newUniqueId(): DurableObjectIdLike {
    return hexId(globalThis.crypto.randomUUID() + globalThis.crypto.randomUUID());
  }

  idFromName(name: string): DurableObjectIdLike {
    return hexId(`name:${name}`);
  }

  idFromString(id: string): DurableObjectIdLike {
    if (!/^[0-9a-f]{64}$/.test(id)) throw new TypeError('Invalid Durable Object ID');
    return { toString: () => id };
  }

  get(id: DurableObjectIdLike): DurableObjectStubLike {
    const key = id.toString();
    return {
      fetch: (request) => {
        let instance = this.#instances.get(key);
        if (instance === undefined) {
          let storage = this.storages.get(key);
          if (storage === undefined) {
            storage = new MemoryDurableObjectStorage();
            this.storages.set(key, storage);
          }
          instance = this.#create({ id: { toString: () => key }, storage });
          this.built++;
          this.#instances.set(key, instance);
        }
        return instance.fetch(request);
      },
    };
  }

  /** Drops every object's memory; their storage stays. */
  evictAll(): void {
    this.#instances.clear();
  }
}

/** 64 hex digits derived from `text` (not a hash: distinct texts of one test give distinct ids). */
function hexId(text: string): DurableObjectIdLike {
  const hex = [...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  const id = hex.length >= 64 ? hex.slice(hex.length - 64) : hex.padStart(64, '0');
  return { toString: () => id };
}
