/**
 * Aborting every in-flight request of a transport at once, without one listener per request
 * on a shared signal. Passing one long-lived `AbortSignal` to every `fetch` adds an `abort`
 * listener to it per request in flight, and past ten Node prints `MaxListenersExceededWarning`
 * (and keeps a closure per request on the shared signal). A scope gives each request a signal
 * of its own instead, remembered until the request releases it; `abort()` aborts those that
 * are still in flight and every later one.
 *
 * The requests in flight are a linked list through their own entries: a request's signal costs
 * one entry, with no closure and no `Set` (a one-element `Set` emptied and refilled per request
 * reallocates its table every time); its `AbortController` is made only when something reads
 * `signal` (a `fetch`), so the transport's own `node:http` POSTs make none.
 */
import { abortError, abortReasonError } from './abort-error.js';

export interface ScopedSignal {
  /** The request's `AbortSignal`, made on first read (a request that never hands one to `fetch` makes none). */
  readonly signal: AbortSignal;
  /** True once aborted (read without making the signal). */
  readonly aborted: boolean;
  /** Aborts this request alone (whatever reads its answer stops with it). */
  abort(reason?: unknown): void;
  /**
   * What aborting does besides the signal: one hook, replaced by the next call (the
   * transport's own `node:http` POST destroys its request, then its response, through it).
   * Called with the abort's error; at once if already aborted.
   */
  onAbort(hook: ((error: Error) => void) | undefined): void;
  /** The request is over: forget its signal (idempotent). */
  release(): void;
}

/** One request's signal, linked into its scope's list while in flight. */
class ScopeEntry implements ScopedSignal {
  #controller: AbortController | undefined = undefined;
  #aborted = false;
  #reason: unknown = undefined;
  #hook: ((error: Error) => void) | undefined = undefined;
  readonly #scope: AbortScope | undefined;
  previous: ScopeEntry | undefined = undefined;
  next: ScopeEntry | undefined = undefined;
  /** True while linked into the scope's list. */
  linked = false;

  constructor(scope: AbortScope | undefined) {
    this.#scope = scope;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const hook = this.#hook;
    this.#hook = undefined;
    hook?.(this.#error());
  }

  onAbort(hook: ((error: Error) => void) | undefined): void {
    if (this.#aborted) {
      this.#hook = undefined;
      hook?.(this.#error());
      return;
    }
    this.#hook = hook;
  }

  release(): void {
    this.#scope?.unlink(this);
  }

  /** The error the abort stands for: its reason when that is an `Error`, else an `AbortError`. */
  #error(): Error {
    return this.#controller === undefined ? abortReasonError(this.#reason) : abortError(this.#controller.signal);
  }
}

/** A signal of no scope, for a stream the transport stops on its own (the standalone GET stream). */
export function unscopedSignal(): ScopedSignal {
  return new ScopeEntry(undefined);
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
