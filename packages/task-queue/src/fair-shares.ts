/**
 * Fair shares of one queue between the principals whose tasks it runs, so one principal queuing
 * thousands of tasks cannot starve the others. Each principal (a task's `fairnessKey`: a digest
 * of the authorization context it is bound to; unbound tasks share one key) has a Redis set of
 * its unfinished tasks (`<prefix>:<queue>:fair:<key>`). A new job's BullMQ priority is the size of
 * that set once the task is added — its rank among the principal's own unfinished tasks — and
 * BullMQ runs lower priorities first, in order of arrival within one priority:
 *
 * ```
 *  alice queues a1 a2 a3 a4     priorities 1 2 3 4
 *  bob queues b1 (after a4)     priority 1
 *  run order                    a1 b1 a2 a3 a4  (b1 waits for one job, not for four)
 * ```
 *
 * So the principals take turns: the n-th unfinished task of each runs before the (n+1)-th of any.
 * A task leaves its set once it is finished (or its job removed); adding and removing are
 * idempotent, so a job run twice (at least once) counts once. A set expires `ttlMs` after its
 * last write, so a task whose job vanished without a word only skews its principal's order
 * until then — never whether the task runs.
 */
import type { Cluster, Redis } from 'ioredis';
import { checked } from './run-state.js';

/** BullMQ's lowest priority (2^21). */
const LOWEST_PRIORITY = 2_097_152;

/** The fairness key of tasks bound to no authorization context. */
const UNBOUND = 'unbound';

/** The fairness key of a job (see the module comment). */
export function fairnessKey(job: { readonly fairnessKey?: string }): string {
  return job.fairnessKey ?? UNBOUND;
}

/** The sets of unfinished tasks per principal of one queue. */
export class FairShares {
  readonly #redis: Redis | Cluster;
  readonly #prefix: string;
  readonly #ttlMs: number;

  constructor(redis: Redis | Cluster, prefix: string, ttlMs: number) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#ttlMs = ttlMs;
  }

  #key(key: string): string {
    return `${this.#prefix}fair:${key}`;
  }

  /** Counts `taskId` as unfinished for `key` and returns the priority its job takes (1 = first). */
  async take(key: string, taskId: string): Promise<number> {
    const set = this.#key(key);
    const replies = checked(await this.#redis.multi().sadd(set, taskId).scard(set).pexpire(set, this.#ttlMs).exec());
    const rank = Number(replies[1]?.[1]);
    return Number.isSafeInteger(rank) ? Math.min(LOWEST_PRIORITY, Math.max(1, rank)) : LOWEST_PRIORITY;
  }

  /** `taskId` is finished (or its job removed): it no longer counts for `key`. */
  async release(key: string, taskId: string): Promise<void> {
    await this.#redis.srem(this.#key(key), taskId);
  }
}
