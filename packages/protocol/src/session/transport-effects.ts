/**
 * The two ways the machine ends a transport (effects `closeTransport` and
 * `terminateTransport`), each reporting back to the machine and never throwing.
 */
import type { ConnectionEvent } from '../machines/connection-types.js';
import type { Transport } from '../transport/transport.js';
import type { SessionObserver } from './observer.js';

/**
 * Graceful: lets the cancellations on their way out reach the wire first (an HTTP transport
 * aborts POSTs in flight when it closes), then closes and reports `transportClosed`. The
 * close deadline armed by the machine bounds the whole shutdown.
 */
export function closeTransport(transport: Transport | undefined, cancelsInFlight: Promise<unknown>, observer: SessionObserver, report: (event: ConnectionEvent) => void): void {
  if (transport === undefined) {
    report({ type: 'transportClosed', initiator: 'local' });
    return;
  }
  cancelsInFlight
    .then(() => transport.close())
    .then(
      () => report({ type: 'transportClosed', initiator: 'local' }),
      (error: unknown) => {
        observer.diagnostic('transport close failed', error);
        report({ type: 'transportClosed', initiator: 'error', error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
}

/** Forceful: `terminate()` where the transport has one, else `close()`; failures are diagnostics only. */
export function terminateTransport(transport: Transport | undefined, observer: SessionObserver): void {
  if (transport === undefined) return;
  const end = transport.terminate?.() ?? transport.close();
  end.catch((error: unknown) => observer.diagnostic('transport terminate failed', error));
}
