/**
 * The tasks extension's records (`io.modelcontextprotocol/tasks`, 2026-07-28) in a Durable
 * Object's storage (`task:<id>`): the `DurableTaskStore` contract of `@statemcp/server`, so
 * `tasks/get` answers for a task after the object that runs it was evicted and came back.
 *
 * This package does not depend on `@statemcp/server`, so the record type is a parameter that
 * only needs the fields the store reads; `new DurableObjectTaskStore<StoredTask>(storage)` is
 * the server's `DurableTaskStore` exactly.
 */
import type { DurableObjectStorageLike } from './durable-object-types.js';

/** What the store reads of a task record (`StoredTask` of `@statemcp/server` has these and more). */
export interface TaskRecordLike {
  readonly task: { readonly taskId: string };
  /** Wall-clock ms (epoch) after which the record is gone; `null`: never. */
  readonly expiresAt: number | null;
}

const taskKey = (taskId: string): string => `task:${taskId}`;

/**
 * Task records in one Durable Object's storage, expiring lazily at their `expiresAt`. `create`
 * resolves once the write is stored, so `get` finds the record from then on.
 *
 * @example
 * ```ts
 * import type { StoredTask } from '@statemcp/server';
 *
 * const tasks = new DurableObjectTaskStore<StoredTask>(state.storage);
 * const server = new McpServer({ name: 'edge', version: '1.0.0' }, { taskExtension: { store: tasks } });
 * ```
 */
export class DurableObjectTaskStore<T extends TaskRecordLike = TaskRecordLike> {
  readonly #storage: DurableObjectStorageLike;
  readonly #now: () => number;

  /** `now`: the wall clock expiry is measured on (default `Date.now`). */
  constructor(storage: DurableObjectStorageLike, options: { now?: () => number } = {}) {
    this.#storage = storage;
    this.#now = options.now ?? Date.now;
  }

  /** Stores a new task. */
  async create(record: T): Promise<void> {
    await this.#storage.put(taskKey(record.task.taskId), record);
  }

  /** The task `taskId`, or `undefined` when unknown or expired (an expired record is deleted). */
  async get(taskId: string): Promise<T | undefined> {
    const record = await this.#storage.get<T>(taskKey(taskId));
    if (record === undefined) return undefined;
    if (record.expiresAt !== null && this.#now() >= record.expiresAt) {
      await this.#storage.delete(taskKey(taskId));
      return undefined;
    }
    return record;
  }

  /** Replaces a live record; one that expired or was deleted meanwhile stays gone. */
  async put(record: T): Promise<void> {
    if ((await this.get(record.task.taskId)) === undefined) return;
    await this.#storage.put(taskKey(record.task.taskId), record);
  }

  /** Forgets a task. */
  async delete(taskId: string): Promise<void> {
    await this.#storage.delete(taskKey(taskId));
  }
}
