/**
 * The shutdown effects the connection machine asks for: closing the transport gracefully once
 * the cancellations have left, or forcefully, and the error every abandoned request gets.
 */
import { ConnectionClosedError } from '../errors/errors.js';
import type { ConnectionEvent } from '../machines/connection-types.js';
import type { Transport, TransportCloseInfo } from '../transport/transport.js';
import type { SessionObserver } from './observer.js';

/**
 * Closes `transport` once `cancelsSent` settles (an HTTP transport aborts POSTs in flight when
 * it closes, so cancellations go first; the close deadline still bounds the whole shutdown),
 * then reports `transportClosed` to the machine.
 */
export function closeTransport(
  transport: Transport | undefined,
  cancelsSent: () => Promise<unknown>,
  dispatch: (event: ConnectionEvent) => void,
  observer: SessionObserver,
): void {
  if (transport === undefined) {
    dispatch({ type: 'transportClosed', initiator: 'local' });
    return;
  }
  cancelsSent()
    .then(() => transport.close())
    .then(
      () => dispatch({ type: 'transportClosed', initiator: 'local' }),
      (error: unknown) => {
        observer.diagnostic('transport close failed', error);
        dispatch({ type: 'transportClosed', initiator: 'error', error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
}

/** Closes `transport` forcefully (`terminate()`, else `close()`). */
export function terminateTransport(transport: Transport | undefined, observer: SessionObserver): void {
  if (transport === undefined) return;
  const end = transport.terminate?.() ?? transport.close();
  end.catch((error: unknown) => observer.diagnostic('transport terminate failed', error));
}

/** The error of a request abandoned by the connection's end, carrying the transport's details and cause. */
export function connectionClosedError(message: string, info: TransportCloseInfo | undefined): ConnectionClosedError {
  const details = info?.details;
  const cause = info?.error;
  return new ConnectionClosedError(message, {
    ...(details !== undefined ? { details } : {}),
    ...(cause !== undefined ? { cause } : {}),
  });
}
