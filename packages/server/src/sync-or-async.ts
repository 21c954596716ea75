/**
 * Steps that are synchronous in the common case (a zod check, a handler returning its result)
 * and asynchronous only when a schema or a handler is: chained with {@link thenMaybe}, a
 * synchronous step costs no promise, no microtask and no async frame. Errors keep their
 * channel: a step that throws while the chain is synchronous throws to its caller, which
 * for a request handler is the session (it answers with the same error as for a rejection).
 */

/** A value now, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/** True for a promise or any other thenable (a handler may return one). */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** `next(value)` now when `value` is ready; after it resolves when it is a thenable. */
export function thenMaybe<T, R>(value: T | PromiseLike<T>, next: (ready: T) => MaybePromise<R>): MaybePromise<R> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value);
}
