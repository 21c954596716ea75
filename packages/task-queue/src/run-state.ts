/**
 * What a task's attempts hand each other, beside its BullMQ job: one Redis hash per task
 * (`<prefix>:<queue>:run:<taskId>`) holding the handler's last checkpoint, the answers to its
 * input requests (`answer:<key>`), how many times the job was handed back without an attempt
 * being spent (drains, input), and the cause the last attempt would fail with. Each write is one
 * atomic hash command, so the instance answering `tasks/update` and the worker never overwrite
 * each other's fields; the hash expires `ttlMs` after its last write and is deleted once the
 * task is finished. On a Redis Cluster the hash sits in the queue's slot (its prefix's hash tag),
 * and every transaction here touches that one key.
 */
import type { JsonObject, JsonValue } from '@statemcp/protocol';
import type { Redis } from 'ioredis';

/** The commands the run state uses, as both ioredis' `Redis` and its `Cluster` have them. */
export type RunStateRedis = Pick<Redis, 'hgetall' | 'multi' | 'del'>;

/** The run state of one task as an attempt reads it. */
export interface RunState {
  readonly checkpoint: JsonValue | undefined;
  readonly answers: Readonly<Record<string, JsonObject>>;
  readonly handbacks: number;
  readonly cause: string | undefined;
}

const ANSWER = 'answer:';

/** Reads and writes the run state of tasks. */
export class RunStates {
  readonly #redis: RunStateRedis;
  readonly #prefix: string;
  readonly #ttlMs: number;

  constructor(redis: RunStateRedis, prefix: string, ttlMs: number) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#ttlMs = ttlMs;
  }

  #key(taskId: string): string {
    return `${this.#prefix}run:${taskId}`;
  }

  async read(taskId: string): Promise<RunState> {
    const fields = await this.#redis.hgetall(this.#key(taskId));
    const answers: Record<string, JsonObject> = {};
    for (const [field, value] of Object.entries(fields)) if (field.startsWith(ANSWER)) answers[field.slice(ANSWER.length)] = JSON.parse(value) as JsonObject;
    const handbacks = Number(fields['handbacks'] ?? '0');
    return {
      checkpoint: fields['checkpoint'] === undefined ? undefined : (JSON.parse(fields['checkpoint']) as JsonValue),
      answers,
      handbacks: Number.isSafeInteger(handbacks) ? handbacks : 0,
      cause: fields['cause'],
    };
  }

  checkpoint(taskId: string, state: JsonValue): Promise<void> {
    return this.#set(taskId, { checkpoint: JSON.stringify(state) });
  }

  cause(taskId: string, cause: string): Promise<void> {
    return this.#set(taskId, { cause });
  }

  answer(taskId: string, answers: Readonly<Record<string, JsonObject>>): Promise<void> {
    return this.#set(taskId, Object.fromEntries(Object.entries(answers).map(([key, answer]) => [`${ANSWER}${key}`, JSON.stringify(answer)])));
  }

  async handback(taskId: string): Promise<void> {
    checked(await this.#redis.multi().hincrby(this.#key(taskId), 'handbacks', 1).pexpire(this.#key(taskId), this.#ttlMs).exec());
  }

  async clear(taskId: string): Promise<void> {
    await this.#redis.del(this.#key(taskId));
  }

  async #set(taskId: string, fields: Record<string, string>): Promise<void> {
    if (Object.keys(fields).length === 0) return;
    checked(await this.#redis.multi().hset(this.#key(taskId), fields).pexpire(this.#key(taskId), this.#ttlMs).exec());
  }
}

/** Throws the first error of a transaction's replies (`exec` reports them per command); returns the replies. */
export function checked(replies: [Error | null, unknown][] | null): [Error | null, unknown][] {
  if (replies === null) throw new Error('The Redis transaction was aborted');
  for (const [error] of replies) if (error !== null) throw error;
  return replies;
}
