/**
 * Every timer of every statemcp package goes through a {@link Clock}, so tests drive time
 * with a {@link SimulatedClock} and never sleep. Production uses {@link systemClock}. A timer
 * that stands for work somebody awaits (a request's timeout, a close deadline) keeps the
 * process alive (`keepAlive: true`); housekeeping timers (keep-alive pings, session reapers,
 * SSE comments, reconnect back-off) do not, so an idle session never holds a process open.
 */

/** An opaque timer handle returned by {@link Clock.setTimeout}. */
export type TimerHandle = { readonly __timer: true } | object;

/** How a timer relates to the process that runs it. */
export interface TimerOptions {
  /**
   * True when the timer stands for work somebody awaits, so the process must not exit before
   * it fires or is cleared (Node: a ref'd timer). Default false: the timer is unref'd.
   */
  readonly keepAlive?: boolean;
}

/** The time source behind every protocol timer (timeouts, deadlines, keep-alives); tests inject a {@link SimulatedClock}. */
export interface Clock {
  /** Milliseconds since an arbitrary epoch; only differences matter. */
  now(): number;
  /** Calls `callback` once after `ms`; `options.keepAlive` says whether the timer keeps the process alive. */
  setTimeout(callback: () => void, ms: number, options?: TimerOptions): TimerHandle;
  /** Cancels a timer that has not fired; a no-op otherwise. */
  clearTimeout(handle: TimerHandle): void;
  /**
   * Changes whether a pending timer keeps the process alive, without re-creating it (Node:
   * `ref()` / `unref()`). Optional: without it, a timer that must stop keeping the process
   * alive is cleared and created again.
   */
  setKeepAlive?(handle: TimerHandle, keepAlive: boolean): void;
}

/** The real clock: `performance.now()` and Node timers, unref'd unless `keepAlive` is set. */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout(callback, ms, options) {
    const timer = setTimeout(callback, ms);
    if (options?.keepAlive !== true && typeof timer === 'object' && 'unref' in timer) timer.unref();
    return timer;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
  setKeepAlive(handle, keepAlive) {
    const timer = handle as ReturnType<typeof setTimeout>;
    if (typeof timer === 'object' && 'ref' in timer) {
      if (keepAlive) timer.ref();
      else timer.unref();
    }
  },
};

interface SimulatedTimer {
  readonly id: number;
  readonly at: number;
  readonly callback: () => void;
  keepAlive: boolean;
}

/**
 * A clock that only moves when told to. `advance(ms)` fires every timer due by then, in
 * order of due time (then creation), including timers created by those callbacks.
 *
 * @example
 * ```ts
 * const clock = new SimulatedClock();
 * clock.setTimeout(() => console.log('fired'), 100);
 * clock.advance(100); // logs "fired"
 * ```
 */
export class SimulatedClock implements Clock {
  #now: number;
  #nextId = 1;
  #timers = new Map<number, SimulatedTimer>();

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** Schedules `callback` at the simulated time now + `ms`; it runs when `advance` passes that time. */
  setTimeout(callback: () => void, ms: number, options?: TimerOptions): TimerHandle {
    const timer: SimulatedTimer = { id: this.#nextId++, at: this.#now + Math.max(0, ms), callback, keepAlive: options?.keepAlive === true };
    this.#timers.set(timer.id, timer);
    return { id: timer.id };
  }

  /** Removes a scheduled timer. */
  clearTimeout(handle: TimerHandle): void {
    const id = (handle as { id?: unknown }).id;
    if (typeof id === 'number') this.#timers.delete(id);
  }

  /** Records whether a pending timer would keep a process alive (see {@link keepAliveTimers}). */
  setKeepAlive(handle: TimerHandle, keepAlive: boolean): void {
    const id = (handle as { id?: unknown }).id;
    const timer = typeof id === 'number' ? this.#timers.get(id) : undefined;
    if (timer !== undefined) timer.keepAlive = keepAlive;
  }

  /** Number of timers not yet fired or cleared. */
  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** Number of pending timers that would keep a process alive (`keepAlive`, as last set). */
  get keepAliveTimers(): number {
    let count = 0;
    for (const timer of this.#timers.values()) if (timer.keepAlive) count++;
    return count;
  }

  /** Moves time forward by `ms`, firing due timers in order. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      const next = this.#nextDue(target);
      if (next === undefined) break;
      this.#timers.delete(next.id);
      this.#now = next.at;
      next.callback();
    }
    this.#now = target;
  }

  /** Fires every pending timer (and those they create), up to `limit` timers. */
  runAll(limit = 10_000): void {
    for (let fired = 0; fired < limit; fired++) {
      const next = this.#nextDue(Number.POSITIVE_INFINITY);
      if (next === undefined) return;
      this.#timers.delete(next.id);
      this.#now = Math.max(this.#now, next.at);
      next.callback();
    }
  }

  #nextDue(limit: number): SimulatedTimer | undefined {
    let best: SimulatedTimer | undefined;
    for (const timer of this.#timers.values()) {
      if (timer.at > limit) continue;
      if (best === undefined || timer.at < best.at || (timer.at === best.at && timer.id < best.id)) best = timer;
    }
    return best;
  }
}
