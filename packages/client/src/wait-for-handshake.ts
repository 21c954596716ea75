/**
 * Calls made while `connect()` is still running wait for the handshake to finish (the
 * client reaches Operating) and are sent then; if the handshake fails they reject with
 * its error. A call whose AbortSignal fires while it waits is cancelled without ever
 * having been sent.
 */
import { RequestCancelledError } from '@statemcp/protocol';

/** Resolves when `handshake` does; rejects with its error, or with `RequestCancelledError` if `signal` aborts first. */
export function waitForHandshake(handshake: Promise<void>, method: string, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return handshake;
  if (signal.aborted) return Promise.reject(cancelled(method, signal));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(cancelled(method, signal));
    signal.addEventListener('abort', onAbort, { once: true });
    handshake.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function cancelled(method: string, signal: AbortSignal): RequestCancelledError {
  const reason: unknown = signal.reason;
  const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'aborted by the caller';
  return new RequestCancelledError(`${method} was cancelled while waiting for the handshake: ${text}`, { reason: text });
}
