/**
 * An in-memory store of 2025-11-25 experimental tasks (MCP 2025-11-25 basic/utilities/tasks) with
 * the status graph
 * enforced in one place:
 *
 * ```
 * working ──▶ input_required ──▶ working
 *    │               │
 *    └───────┬───────┘
 *            ▼
 *   completed | failed | cancelled     (terminal: never change again)
 * ```
 *
 * Each task belongs to the connection that created it (only that connection can see it),
 * lives for its TTL (measured on the injected clock) and is then deleted.
 */
import { TASK_STATUS_KINDS, isTaskTerminal, systemClock, taskSuccessors, type Clock, type JsonObject, type JsonRpcError, type TimerHandle } from '@statemcp/protocol';
import type { Task, TaskStatus } from '../wire-types.js';

/** Allowed moves of the task status machine (derived from the protocol's `TASK_TABLE`). */
export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = Object.freeze(
  Object.fromEntries(TASK_STATUS_KINDS.map((status) => [status, Object.freeze(taskSuccessors(status))])) as Record<TaskStatus, readonly TaskStatus[]>,
);

export function isTerminal(status: TaskStatus): boolean {
  return isTaskTerminal(status);
}

/** Limits of the in-memory task store: default and maximum TTL, and the poll interval it suggests. */
export interface TaskStoreOptions {
  /** Lifetime when the request asks for none, ms (default 300 000). */
  readonly defaultTtlMs?: number;
  /** Upper bound on any requested lifetime, ms (default 3 600 000). */
  readonly maxTtlMs?: number;
  /** Suggested polling interval, ms (default 1 000). */
  readonly pollIntervalMs?: number;
}

/** How a task's underlying request ended. */
export type TaskOutcome = { readonly result: JsonObject } | { readonly error: JsonRpcError };

export interface TaskRecord {
  readonly task: Task;
  /** Who may see it (a connection id). */
  readonly owner: string;
  /** Creation order, for stable `tasks/list` cursors. */
  readonly sequence: number;
  /** Aborted by `tasks/cancel` or when the owner goes away. */
  readonly controller: AbortController;
  outcome: TaskOutcome | undefined;
  readonly waiters: (() => void)[];
  expiry: TimerHandle | undefined;
}

/** The in-memory task store; see the module comment for the status graph. */
export class TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #clock: Clock;
  readonly #options: Required<TaskStoreOptions>;
  readonly #onStatus: (record: TaskRecord) => void;
  #sequence = 0;

  constructor(clock: Clock | undefined, options: TaskStoreOptions, onStatus: (record: TaskRecord) => void) {
    this.#clock = clock ?? systemClock;
    this.#options = { defaultTtlMs: options.defaultTtlMs ?? 300_000, maxTtlMs: options.maxTtlMs ?? 3_600_000, pollIntervalMs: options.pollIntervalMs ?? 1_000 };
    this.#onStatus = onStatus;
  }

  /** Creates a `working` task for `owner`; `requestedTtl` is capped at `maxTtlMs`. */
  create(owner: string, requestedTtl: number | undefined): TaskRecord {
    const ttl = Math.min(requestedTtl !== undefined && requestedTtl >= 0 ? requestedTtl : this.#options.defaultTtlMs, this.#options.maxTtlMs);
    const now = new Date().toISOString();
    const task: Task = { taskId: globalThis.crypto.randomUUID(), status: 'working', createdAt: now, lastUpdatedAt: now, ttl, pollInterval: this.#options.pollIntervalMs };
    const record: TaskRecord = { task, owner, sequence: ++this.#sequence, controller: new AbortController(), outcome: undefined, waiters: [], expiry: undefined };
    record.expiry = this.#clock.setTimeout(() => this.delete(task.taskId), ttl);
    this.#tasks.set(task.taskId, record);
    return record;
  }

  /** The task if it exists and belongs to `owner`. */
  get(owner: string, taskId: string): TaskRecord | undefined {
    const record = this.#tasks.get(taskId);
    return record !== undefined && record.owner === owner ? record : undefined;
  }

  /** `owner`'s tasks in creation order. */
  list(owner: string): TaskRecord[] {
    return [...this.#tasks.values()].filter((record) => record.owner === owner);
  }

  /** Moves a task along the status graph; returns false (and changes nothing) for an illegal move. */
  setStatus(record: TaskRecord, status: TaskStatus, statusMessage?: string): boolean {
    const task = record.task;
    if (task.status === status || !TASK_TRANSITIONS[task.status].includes(status)) return false;
    task.status = status;
    if (statusMessage !== undefined) task.statusMessage = statusMessage;
    task.lastUpdatedAt = new Date().toISOString();
    if (isTerminal(status)) for (const wake of record.waiters.splice(0)) wake();
    this.#onStatus(record);
    return true;
  }

  /** Records the underlying request's outcome and moves to `status` (ignored once terminal). */
  finish(record: TaskRecord, outcome: TaskOutcome, status: 'completed' | 'failed', statusMessage?: string): void {
    if (isTerminal(record.task.status)) return;
    record.outcome = outcome;
    this.setStatus(record, status, statusMessage);
  }

  /** Cancels a non-terminal task: status first, then the abort (spec: cancelled before the reply). */
  cancel(record: TaskRecord, reason: string): boolean {
    if (!this.setStatus(record, 'cancelled', reason)) return false;
    record.controller.abort(new Error(reason));
    return true;
  }

  /** Resolves once the task is terminal. */
  whenTerminal(record: TaskRecord): Promise<void> {
    if (isTerminal(record.task.status)) return Promise.resolve();
    return new Promise((resolve) => record.waiters.push(resolve));
  }

  delete(taskId: string): void {
    const record = this.#tasks.get(taskId);
    if (record === undefined) return;
    this.#tasks.delete(taskId);
    if (record.expiry !== undefined) this.#clock.clearTimeout(record.expiry);
    if (!isTerminal(record.task.status)) this.cancel(record, 'The task expired');
    for (const wake of record.waiters.splice(0)) wake();
  }

  /** Cancels and deletes every task of `owner` (its connection ended). */
  dropOwner(owner: string): void {
    if (this.#tasks.size === 0) return; // no task ever made or all gone (most connections): no list to build
    for (const record of this.list(owner)) this.delete(record.task.taskId);
  }
}
