/**
 * Task records of the tasks extension (`DurableTaskStore` of `@statemcp/server`) as JSON
 * strings (`<prefix>task:{<id>}`, the task id as hash tag: a cluster shards tasks by id) that Redis expires at the record's `expiresAt` (`PXAT`), so a
 * task created on one instance is read, updated and cancelled on any other until its TTL ends.
 * `create` resolves after Redis acknowledged the write, so `get` finds the record from then on
 * (the durable-creation rule). Every operation is O(1) in the number of tasks.
 */
import type { DurableTaskStore, StoredTask } from '@statemcp/server';
import type { RedisConnection } from './redis-connection.js';

const STORE = 'tasks';

/** The {@link DurableTaskStore} over Redis strings with the task's expiry. */
export class RedisTaskStore implements DurableTaskStore {
  readonly #redis: RedisConnection;

  constructor(redis: RedisConnection) {
    this.#redis = redis;
  }

  #key(taskId: string): string {
    return this.#redis.key('task', taskId);
  }

  async create(record: StoredTask): Promise<void> {
    await this.#write(record, false);
  }

  async get(taskId: string): Promise<StoredTask | undefined> {
    const text = await this.#redis.run(STORE, (client) => client.get(this.#key(taskId)), { idempotent: true });
    return text === null ? undefined : (JSON.parse(text) as StoredTask);
  }

  /** Replaces a live record; a record that expired or was deleted meanwhile stays gone. */
  async put(record: StoredTask): Promise<void> {
    await this.#write(record, true);
  }

  async delete(taskId: string): Promise<void> {
    await this.#redis.run(STORE, (client) => client.del(this.#key(taskId)), { idempotent: true });
  }

  async #write(record: StoredTask, onlyIfPresent: boolean): Promise<void> {
    const key = this.#key(record.task.taskId);
    const text = JSON.stringify(record);
    const expiry = record.expiresAt === null ? {} : { expiration: { type: 'PXAT' as const, value: Math.ceil(record.expiresAt) } };
    const condition = onlyIfPresent ? { condition: 'XX' as const } : {};
    await this.#redis.run(STORE, (client) => client.set(key, text, { ...expiry, ...condition }), { idempotent: true });
  }
}
