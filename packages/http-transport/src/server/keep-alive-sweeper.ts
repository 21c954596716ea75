/**
 * SSE keep-alive comments on one timer for many connections: rather than a `Timeout`, a
 * callback and its context held by every idle session, the connections that share a clock and
 * an interval share one sweeper.
 *
 * Each connection keeps its own due time (opened + interval, then fired + interval), so each
 * still gets its comment every interval, in the phase it was opened in. Due times are set to
 * `now + interval` and the clock does not go back, so the order connections were (re)added in
 * is the order they fall due: the sweeper looks only at the front.
 *
 * The timer runs only while a connection is registered, and like the per-stream timer it
 * replaces it is housekeeping: it never keeps the process alive.
 */
import type { Clock, TimerHandle } from '@statemcp/protocol';

/** What the sweeper keeps alive: a connection that writes one keep-alive comment when due. */
export interface KeepAliveTarget {
  /** Writes a keep-alive comment (or nothing, when bytes are in flight already). */
  sendKeepAlive(): void;
}

/** The sweepers of each clock, by interval: connections on one clock and interval share one. */
const sweepers = new WeakMap<Clock, Map<number, KeepAliveSweeper>>();

export class KeepAliveSweeper {
  readonly #clock: Clock;
  readonly #intervalMs: number;
  /** Registered connections and when each is due, in due order. */
  readonly #due = new Map<KeepAliveTarget, number>();
  #timer: TimerHandle | undefined;
  readonly #onTimer = (): void => this.#sweep();

  private constructor(clock: Clock, intervalMs: number) {
    this.#clock = clock;
    this.#intervalMs = intervalMs;
  }

  /** The sweeper of `clock` for `intervalMs` (created on first use). */
  static of(clock: Clock, intervalMs: number): KeepAliveSweeper {
    let byInterval = sweepers.get(clock);
    if (byInterval === undefined) sweepers.set(clock, (byInterval = new Map()));
    let sweeper = byInterval.get(intervalMs);
    if (sweeper === undefined) byInterval.set(intervalMs, (sweeper = new KeepAliveSweeper(clock, intervalMs)));
    return sweeper;
  }

  /** Starts keeping `target` alive: its first comment is due one interval from now. */
  add(target: KeepAliveTarget): void {
    this.#due.set(target, this.#clock.now() + this.#intervalMs);
    // Others registered already fall due earlier: the armed timer is for the front.
    this.#timer ??= this.#clock.setTimeout(this.#onTimer, this.#intervalMs);
  }

  /** Stops keeping `target` alive; the timer stops with the last one. Idempotent. */
  delete(target: KeepAliveTarget): void {
    if (!this.#due.delete(target) || this.#due.size > 0 || this.#timer === undefined) return;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Sends the comments that are due, moves each to the back, then arms the timer for the new front. */
  #sweep(): void {
    this.#timer = undefined;
    const now = this.#clock.now();
    const due = this.#due;
    for (const [target, at] of due) {
      // Re-added entries come after this one, due an interval from now: the loop stops at them.
      if (at > now) break;
      due.delete(target);
      due.set(target, now + this.#intervalMs);
      // May write, or find the connection gone and delete it.
      target.sendKeepAlive();
    }
    // A connection added while sweeping armed a timer for itself: the front may be due sooner.
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    const front = due.values().next();
    this.#timer = front.done === true ? undefined : this.#clock.setTimeout(this.#onTimer, front.value - now);
  }
}
