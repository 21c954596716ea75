/**
 * Aborting every in-flight request of a transport at once, without one listener per request
 * on a shared signal. Passing one long-lived `AbortSignal` to every `fetch` adds an `abort`
 * listener to it per request in flight, and past ten Node prints `MaxListenersExceededWarning`
 * (and keeps a closure per request on the shared signal). A scope gives each request a signal
 * of its own instead, remembered until the request releases it; `abort()` aborts those that
 * are still in flight and every later one.
 *
 * The requests in flight are a linked list through their own entries: a request's signal costs
 * its controller and one entry, with no closure and no `Set` (a one-element `Set` emptied and
 * refilled per request reallocates its table every time).
 */
export interface ScopedSignal {
  readonly signal: AbortSignal;
  /** Aborts this request's signal alone (whatever reads its answer stops with it). */
  abort(reason?: unknown): void;
  /** The request is over: forget its signal (idempotent). */
  release(): void;
}

/** One request's signal, linked into its scope's list while in flight. */
class ScopeEntry implements ScopedSignal {
  readonly #controller = new AbortController();
  readonly #scope: AbortScope | undefined;
  previous: ScopeEntry | undefined = undefined;
  next: ScopeEntry | undefined = undefined;
  /** True while linked into the scope's list. */
  linked = false;

  constructor(scope: AbortScope | undefined) {
    this.#scope = scope;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  abort(reason?: unknown): void {
    this.#controller.abort(reason);
  }

  release(): void {
    this.#scope?.unlink(this);
  }
}

export class AbortScope {
  /** The most recent request in flight; older ones follow through `next`. */
  #head: ScopeEntry | undefined = undefined;
  #size = 0;
  #reason: unknown;
  #aborted = false;

  /** True once {@link abort} was called. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** How many requests hold a signal of this scope. */
  get size(): number {
    return this.#size;
  }

  /** A signal for one request, already aborted if the scope is. */
  child(): ScopedSignal {
    if (this.#aborted) {
      const late = new ScopeEntry(undefined);
      late.abort(this.#reason);
      return late;
    }
    const entry = new ScopeEntry(this);
    const head = this.#head;
    entry.next = head;
    if (head !== undefined) head.previous = entry;
    this.#head = entry;
    entry.linked = true;
    this.#size++;
    return entry;
  }

  /** Aborts every signal still in flight and every later one. Idempotent. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const inFlight: ScopeEntry[] = [];
    for (let entry = this.#head; entry !== undefined; entry = entry.next) inFlight.push(entry);
    for (const entry of inFlight) this.unlink(entry);
    for (const entry of inFlight) entry.abort(reason);
  }

  /** Takes `entry` out of the list (its request is over, or the scope aborts it). @internal */
  unlink(entry: ScopeEntry): void {
    if (!entry.linked) return;
    entry.linked = false;
    const { previous, next } = entry;
    if (previous === undefined) this.#head = next;
    else previous.next = next;
    if (next !== undefined) next.previous = previous;
    entry.previous = undefined;
    entry.next = undefined;
    this.#size--;
  }
}
