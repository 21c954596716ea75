/**
 * Aborting every in-flight request of a transport at once, without one listener per request
 * on a shared signal. Passing one long-lived `AbortSignal` to every `fetch` adds an `abort`
 * listener to it per request in flight, and past ten Node prints `MaxListenersExceededWarning`
 * (and keeps a closure per request on the shared signal). A scope gives each request a signal
 * of its own instead, remembered until the request releases it; `abort()` aborts those that
 * are still in flight and every later one.
 */
export interface ScopedSignal {
  readonly signal: AbortSignal;
  /** Aborts this request's signal alone (whatever reads its answer stops with it). */
  abort(reason?: unknown): void;
  /** The request is over: forget its signal (idempotent). */
  release(): void;
}

export class AbortScope {
  readonly #inFlight = new Set<AbortController>();
  #reason: unknown;
  #aborted = false;

  /** True once {@link abort} was called. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** How many requests hold a signal of this scope. */
  get size(): number {
    return this.#inFlight.size;
  }

  /** A signal for one request, already aborted if the scope is. */
  child(): ScopedSignal {
    const controller = new AbortController();
    if (this.#aborted) {
      controller.abort(this.#reason);
      return { signal: controller.signal, abort: (reason) => controller.abort(reason), release: () => undefined };
    }
    this.#inFlight.add(controller);
    return { signal: controller.signal, abort: (reason) => controller.abort(reason), release: () => void this.#inFlight.delete(controller) };
  }

  /** Aborts every signal still in flight and every later one. Idempotent. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const inFlight = [...this.#inFlight];
    this.#inFlight.clear();
    for (const controller of inFlight) controller.abort(reason);
  }
}
