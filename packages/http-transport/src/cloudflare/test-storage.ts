/**
 * An in-memory Durable Object storage for unit tests: values are structured-cloned in and out
 * (as the runtime stores them), `list` returns keys in ascending order, and the alarm is
 * recorded so a test can fire it.
 */
import type { DurableObjectListOptionsLike, DurableObjectStorageLike } from './durable-object-types.js';

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
