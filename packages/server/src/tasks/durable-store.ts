/**
 * Where the tasks of the `io.modelcontextprotocol/tasks` extension live (SEP-2663): a
 * {@link DurableTaskStore} keeps each task as one plain JSON record, read and written whole by
 * id, so a Redis (or SQL, or file) store implements it with get / set-with-expiry / delete and a
 * restarted server answers `tasks/get` for tasks created before the restart. What cannot be
 * stored (the running handler, its abort signal, the promises waiting on input) stays in the
 * server process that runs the task.
 *
 * {@link MemoryTaskStore} is the default: bounded (the oldest finished tasks make room first),
 * every record expiring `ttlMs` after its creation, measured on an injectable wall clock.
 */
import type { ExtensionTask, JsonObject, TaskError, TaskInputRequest } from '@statemcp/protocol';

/** One stored task: its wire state plus what `tasks/get` and `tasks/update` need. Plain JSON. */
export interface StoredTask {
  readonly task: ExtensionTask;
  /** The authorization context the task is bound to (`undefined`: none existed). */
  readonly owner: string | undefined;
  /** Outstanding input requests by key. */
  readonly inputRequests: Readonly<Record<string, TaskInputRequest>>;
  /** How many input keys were ever issued (keys are never reused over the task's life). */
  readonly inputKeysIssued: number;
  /** The result of a `completed` task. */
  readonly result?: JsonObject;
  /** The JSON-RPC error of a `failed` task. */
  readonly error?: TaskError;
  /** Wall-clock ms (epoch) after which the record may be dropped; `null`: never. */
  readonly expiresAt: number | null;
}

/**
 * The contract of a task store. Every method may be asynchronous (a network store); records
 * are replaced whole. `create` resolves only once `get` would find the record (the extension's
 * durable-creation rule); `get` returns `undefined` for an unknown or expired id.
 */
export interface DurableTaskStore {
  /** Stores a new task; resolves once `get` finds it. */
  create(record: StoredTask): Promise<void> | void;
  /** The task `taskId`, or `undefined` when unknown or expired. */
  get(taskId: string): Promise<StoredTask | undefined> | StoredTask | undefined;
  /** Replaces a task's record. */
  put(record: StoredTask): Promise<void> | void;
  /** Forgets a task. */
  delete(taskId: string): Promise<void> | void;
}

/** Limits of the in-memory task store: how many records it keeps, and its wall clock. */
export interface MemoryTaskStoreOptions {
  /** Most records kept (default 10 000); the oldest finished ones, then the oldest, make room. */
  readonly maxTasks?: number;
  /** Wall clock, ms since the epoch (default `Date.now`); tests inject their own. */
  readonly now?: () => number;
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

/** The in-memory {@link DurableTaskStore}: bounded, expiring records lazily on access. */
export class MemoryTaskStore implements DurableTaskStore {
  readonly #records = new Map<string, StoredTask>();
  readonly #max: number;
  readonly #now: () => number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.#max = Math.max(1, options.maxTasks ?? 10_000);
    this.#now = options.now ?? Date.now;
  }

  /** How many records are held (expired ones included until they are next touched). */
  get size(): number {
    return this.#records.size;
  }

  /** Stores a new task, making room within `maxTasks`. */
  create(record: StoredTask): void {
    this.#sweep();
    while (this.#records.size >= this.#max) this.#evictOne();
    this.#records.set(record.task.taskId, structuredClone(record));
  }

  /** The task `taskId`, or `undefined` when unknown or expired. */
  get(taskId: string): StoredTask | undefined {
    const record = this.#records.get(taskId);
    if (record === undefined) return undefined;
    if (this.#expired(record)) {
      this.#records.delete(taskId);
      return undefined;
    }
    return structuredClone(record);
  }

  /** Replaces a task's record. */
  put(record: StoredTask): void {
    if (!this.#records.has(record.task.taskId)) return; // expired or evicted meanwhile: stays gone
    this.#records.set(record.task.taskId, structuredClone(record));
  }

  /** Forgets a task. */
  delete(taskId: string): void {
    this.#records.delete(taskId);
  }

  #expired(record: StoredTask): boolean {
    return record.expiresAt !== null && this.#now() >= record.expiresAt;
  }

  #sweep(): void {
    for (const [id, record] of this.#records) if (this.#expired(record)) this.#records.delete(id);
  }

  #evictOne(): void {
    let victim: string | undefined;
    for (const [id, record] of this.#records) {
      if (FINISHED.has(record.task.status)) {
        victim = id;
        break;
      }
      victim ??= id;
    }
    if (victim !== undefined) this.#records.delete(victim);
  }
}
