/**
 * How long a store operation may wait for Redis, kept with one timer per connection instead of
 * one per command. `@redis/client` bounds each command itself by default (5 s), with an
 * `AbortSignal.timeout` per command: a timer that cannot be cleared, so at a thousand requests
 * a second some fifteen thousand of them wait to fire, and each costs its allocation, its
 * listener and its firing (≈100 µs of server CPU per request measured, see
 * tooling/bench/profiling/README.md). Here an operation in flight is one entry of an
 * insertion-ordered set, and a sweep every quarter of the timeout rejects the ones past it:
 *
 * ```
 *  bound(work) ──▶ pending (oldest first) ──work settles──▶ removed, settled as the work
 *                      │
 *                      └─ sweep finds it older than timeoutMs ──▶ rejected (onTimeout())
 * ```
 *
 * The sweep timer runs only while something is pending and never keeps the process alive. An
 * operation is rejected between `timeoutMs` and 1.25 × `timeoutMs` after it started; its
 * command stays queued on the connection, and its late answer is dropped. Time is read from
 * the protocol's `Clock` (tests pass a `SimulatedClock`).
 */
import { systemClock, type Clock, type TimerHandle } from '@statemcp/protocol';


interface Pending {
  readonly startedAt: number;
  readonly reject: (error: Error) => void;
  readonly onTimeout: () => Error;
}

/** The deadlines of the operations in flight on one Redis connection. */
export class CommandDeadlines {
  readonly timeoutMs: number;
  readonly #clock: Clock;
  readonly #sweepEveryMs: number;
  readonly #pending = new Set<Pending>();
  #timer: TimerHandle | undefined;

  constructor(timeoutMs: number, clock: Clock = systemClock) {
    if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) throw new RangeError('commandTimeoutMs must be a positive number of ms');
    this.timeoutMs = timeoutMs;
    this.#clock = clock;
    this.#sweepEveryMs = Math.max(1, Math.floor(timeoutMs / 4));
  }

  /** How many operations are in flight. */
  get size(): number {
    return this.#pending.size;
  }

  /** Settles as `work` does, or rejects with `onTimeout()` once `work` took longer than the timeout. */
  bound<T>(work: Promise<T>, onTimeout: () => Error): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { startedAt: this.#clock.now(), reject, onTimeout };
      this.#pending.add(entry);
      this.#timer ??= this.#scheduleSweep();
      work.finally(() => this.#pending.delete(entry)).then(resolve, reject);
    });
  }

  /** Stops the sweep; operations still pending settle with their work. */
  stop(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The next sweep; its timer does not keep the process alive. */
  #scheduleSweep(): TimerHandle {
    return this.#clock.setTimeout(() => this.#sweep(), this.#sweepEveryMs);
  }

  #sweep(): void {
    this.#timer = undefined;
    const expired = this.#clock.now() - this.timeoutMs;
    for (const entry of this.#pending) {
      // Oldest first: the first one still within its time ends the sweep.
      if (entry.startedAt > expired) break;
      this.#pending.delete(entry);
      entry.reject(entry.onTimeout());
    }
    if (this.#pending.size > 0) this.#timer = this.#scheduleSweep();
  }
}
