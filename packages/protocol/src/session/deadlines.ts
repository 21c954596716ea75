/**
 * The deadlines of a session's outbound requests behind ONE clock timer, so that a request
 * costs no Node `Timeout`, timer list or calls into the event loop. Each request keeps two
 * deadlines — its timeout (reset on progress) and its hard maximum — in a min-heap ordered by
 * the earlier of the two;
 * the timer waits for the heap's top.
 *
 * The timer is re-armed only when the earliest deadline moves EARLIER than the armed one. A
 * request that settles, or a deadline that moves later, leaves it alone: it fires early, finds
 * nothing due and waits again for the new top. With nothing left to wait for it stops keeping
 * the process alive (`Clock.setKeepAlive`, or cleared when the clock cannot), so sequential
 * calls share one timer instead of creating and clearing one each. Deadlines due at the same
 * time fire in the order they were set, as separate timers did.
 *
 * Most requests of a session share one timeout, so each new deadline is the latest so far and
 * requests mostly settle oldest first. Such a deadline goes into a run: an array in deadline
 * order, appended at its end and removed by clearing its slot, so the common request costs a
 * store at each end instead of a heap's sift (≈12 comparisons with 64 in flight). A deadline
 * earlier than the run's last goes into the heap; the timer waits for the earlier of the two
 * heads. Cleared slots are compacted away once they are as many as the live ones (at least
 * {@link RUN_SLACK}), so the run never holds a settled record nor grows past twice its live size.
 */
import type { Clock, TimerHandle } from './clock.js';

/** Cleared slots a run keeps before it is compacted, whatever its size (compacting costs a copy of the live ones). */
const RUN_SLACK = 64;

/** What the heap keeps on each request record. */
export interface DeadlineSlots {
  /** When its timeout fires; `Infinity`: none (paused, between input rounds, or open by design). */
  timeoutAt: number;
  /** When its hard maximum fires; `Infinity`: none. */
  maxAt: number;
  /** When each was set, in a session-wide order: equal deadlines fire in that order. */
  timeoutSeq: number;
  maxSeq: number;
  /** Its index in the heap (0 and up), or in the run (`-2 - index`); -1 when it has no deadline. */
  slot: number;
  /** Whether its deadlines keep the process alive (every request but a keep-alive ping). */
  readonly awaited: boolean;
}

/** Who handles an expired deadline (the session's outbound requests). */
export interface DeadlineExpiry<R> {
  /** A request's deadline passed; `maximum`: it was the hard maximum. */
  deadlineExpired(record: R, maximum: boolean): void;
}

export class Deadlines<R extends DeadlineSlots> {
  readonly #clock: Clock;
  readonly #heap: R[] = [];
  /** The run: deadlines in order from `#head` to `#end`, cleared slots `undefined` (never shrunk, so a session reuses it). */
  readonly #run: Array<R | undefined> = [];
  #head = 0;
  #end = 0;
  /** Records in the run. */
  #inRun = 0;
  /** The deadline and order of the run's last append: a later one may follow it. */
  #lastAt = Number.NEGATIVE_INFINITY;
  #lastSeq = 0;
  #onExpire: DeadlineExpiry<R> | undefined;
  #seq = 0;
  /** Records in the heap whose deadlines keep the process alive. */
  #awaited = 0;
  #timer: TimerHandle | undefined;
  /** When the armed timer fires (`Infinity` when none is armed). */
  #armedAt = Number.POSITIVE_INFINITY;
  #keptAlive = false;
  /** The timer's callback, made when a deadline is first armed: a session that never waits holds none. */
  #fire: (() => void) | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Who handles an expired deadline (the session's outbound requests, created after the ledger). */
  onExpire(handler: DeadlineExpiry<R>): void {
    this.#onExpire = handler;
  }

  /** Number of requests with a deadline. */
  get size(): number {
    return this.#heap.length + this.#inRun;
  }

  /** Sets (or with `Infinity` removes) `record`'s timeout deadline. */
  setTimeout(record: R, at: number): void {
    record.timeoutAt = at;
    record.timeoutSeq = ++this.#seq;
    this.#place(record);
  }

  /** Sets `record`'s hard maximum. */
  setMaximum(record: R, at: number): void {
    record.maxAt = at;
    record.maxSeq = ++this.#seq;
    this.#place(record);
  }

  /** Forgets `record`'s deadlines (it settled). */
  remove(record: R): void {
    record.timeoutAt = record.maxAt = Number.POSITIVE_INFINITY;
    if (record.slot === -1) return;
    this.#delete(record);
    this.#schedule();
  }

  /** Clears the timer (the connection ended); a later deadline arms a new one. */
  stop(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
  }

  #place(record: R): void {
    if (record.slot < -1) this.#delete(record); // a deadline in the run that moved: placed again below
    const at = dueAt(record);
    if (at === Number.POSITIVE_INFINITY) {
      if (record.slot >= 0) this.#delete(record);
    } else if (record.slot >= 0) {
      this.#down(this.#up(record.slot));
    } else {
      const seq = dueSeq(record);
      if (record.awaited) this.#awaited++;
      if (at > this.#lastAt || (at === this.#lastAt && seq > this.#lastSeq)) {
        this.#lastAt = at;
        this.#lastSeq = seq;
        record.slot = -2 - this.#end;
        this.#run[this.#end++] = record;
        this.#inRun++;
      } else {
        const heap = this.#heap;
        record.slot = heap.length;
        heap.push(record);
        this.#up(record.slot);
      }
    }
    this.#schedule();
  }

  /** The deadline that comes first: the heap's top or the run's head. */
  #first(): R | undefined {
    const top = this.#heap[0];
    const head = this.#inRun > 0 ? this.#run[this.#head] : undefined;
    if (head === undefined) return top;
    return top === undefined || before(head, top) ? head : top;
  }

  /** Clears `record`'s slot in the run, moves the head past cleared slots and compacts when they pile up. */
  #leaveRun(record: R): void {
    const run = this.#run;
    run[-2 - record.slot] = undefined;
    record.slot = -1;
    if (--this.#inRun === 0) {
      this.#head = this.#end = 0;
      this.#lastAt = Number.NEGATIVE_INFINITY;
      return;
    }
    while (run[this.#head] === undefined) this.#head++;
    if (this.#end - this.#inRun < Math.max(RUN_SLACK, this.#inRun)) return;
    let kept = 0;
    for (let i = this.#head; i < this.#end; i++) {
      const live = run[i];
      if (live === undefined) continue;
      run[i] = undefined;
      run[kept] = live;
      live.slot = -2 - kept++;
    }
    this.#head = 0;
    this.#end = kept;
  }

  /** Arms, keeps or releases the timer for the first deadline. */
  #schedule(): void {
    const clock = this.#clock;
    const top = this.#first();
    if (top === undefined) {
      if (this.#timer === undefined || !this.#keptAlive) return;
      if (clock.setKeepAlive === undefined) this.stop();
      else clock.setKeepAlive(this.#timer, (this.#keptAlive = false));
      return;
    }
    const at = dueAt(top);
    const keepAlive = this.#awaited > 0;
    if (this.#timer !== undefined && this.#armedAt <= at) {
      if (keepAlive === this.#keptAlive) return;
      if (clock.setKeepAlive !== undefined) {
        clock.setKeepAlive(this.#timer, (this.#keptAlive = keepAlive));
        return;
      }
    }
    this.stop();
    this.#timer = clock.setTimeout((this.#fire ??= () => this.#expireDue()), Math.max(0, at - clock.now()), { keepAlive });
    this.#armedAt = at;
    this.#keptAlive = keepAlive;
  }

  /** The timer fired: every deadline due by now expires, in order; then it waits for the next. */
  #expireDue(): void {
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
    const now = this.#clock.now();
    for (let top = this.#first(); top !== undefined && dueAt(top) <= now; top = this.#first()) {
      const maximum = top.maxAt < top.timeoutAt || (top.maxAt === top.timeoutAt && top.maxSeq < top.timeoutSeq);
      this.#delete(top);
      this.#onExpire?.deadlineExpired(top, maximum);
    }
    this.#schedule();
  }

  /** Takes `record` out of the heap or the run. */
  #delete(record: R): void {
    if (record.awaited) this.#awaited--;
    if (record.slot < -1) return this.#leaveRun(record);
    const heap = this.#heap;
    const slot = record.slot;
    const last = heap.pop() as R;
    record.slot = -1;
    if (last === record) return;
    heap[slot] = last;
    last.slot = slot;
    this.#down(this.#up(slot));
  }

  /** Moves the record at `slot` up while it is due before its parent; returns where it ends. */
  #up(slot: number): number {
    const heap = this.#heap;
    const record = heap[slot] as R;
    while (slot > 0) {
      const parentSlot = (slot - 1) >> 1;
      const parent = heap[parentSlot] as R;
      if (!before(record, parent)) break;
      heap[slot] = parent;
      parent.slot = slot;
      slot = parentSlot;
    }
    heap[slot] = record;
    record.slot = slot;
    return slot;
  }

  #down(slot: number): void {
    const heap = this.#heap;
    const record = heap[slot] as R;
    for (;;) {
      let child = 2 * slot + 1;
      if (child >= heap.length) break;
      const right = child + 1;
      if (right < heap.length && before(heap[right] as R, heap[child] as R)) child = right;
      const next = heap[child] as R;
      if (!before(next, record)) break;
      heap[slot] = next;
      next.slot = slot;
      slot = child;
    }
    heap[slot] = record;
    record.slot = slot;
  }
}

function dueAt(record: DeadlineSlots): number {
  return record.timeoutAt < record.maxAt ? record.timeoutAt : record.maxAt;
}

/** The order in which the deadline that comes first was set. */
function dueSeq(record: DeadlineSlots): number {
  if (record.timeoutAt !== record.maxAt) return record.timeoutAt < record.maxAt ? record.timeoutSeq : record.maxSeq;
  return record.timeoutSeq < record.maxSeq ? record.timeoutSeq : record.maxSeq;
}

function before(a: DeadlineSlots, b: DeadlineSlots): boolean {
  const atA = dueAt(a);
  const atB = dueAt(b);
  return atA < atB || (atA === atB && dueSeq(a) < dueSeq(b));
}
