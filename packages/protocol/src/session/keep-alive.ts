/**
 * Periodic ping while operating (rule 51). The timers are housekeeping: neither the interval
 * nor the ping's own timeout keeps the process alive. After `maxFailures` consecutive pings
 * without an answer the connection is stale and the session is told to fail.
 */
import { ConnectionClosedError } from '../errors/errors.js';
import type { ConnectionState } from '../machines/connection-types.js';
import type { Clock, TimerHandle } from './clock.js';
import type { SessionObserver } from './observer.js';
import type { SessionOptions } from './options.js';

/** What keep-alive needs from its session. */
export interface KeepAliveHost {
  readonly clock: Clock;
  state(): ConnectionState;
  onTransition(listener: (to: ConnectionState) => void): void;
  /** Sends a ping whose timers do not keep the process alive. */
  ping(timeoutMs: number): Promise<unknown>;
  readonly observer: SessionObserver;
  /** The peer stopped answering: end the connection. */
  fail(error: Error): void;
}

export function startKeepAlive(host: KeepAliveHost, keepAlive: NonNullable<SessionOptions['keepAlive']>): void {
  let timer: TimerHandle | undefined;
  let failures = 0;
  const schedule = () => {
    timer = host.clock.setTimeout(() => {
      timer = undefined;
      host.ping(keepAlive.timeoutMs ?? keepAlive.intervalMs).then(
        () => {
          failures = 0;
          if (host.state().kind === 'operating') schedule();
        },
        (error: unknown) => {
          if (host.state().kind !== 'operating') return;
          failures++;
          host.observer.diagnostic(`keep-alive ping failed (${failures})`, error);
          if (failures >= (keepAlive.maxFailures ?? 1)) host.fail(new ConnectionClosedError('The peer stopped answering pings', { cause: error }));
          else schedule();
        },
      );
    }, keepAlive.intervalMs);
  };
  host.onTransition((to) => {
    if (to.kind === 'operating' && timer === undefined) schedule();
    if ((to.kind === 'shuttingDown' || to.kind === 'terminated') && timer !== undefined) {
      host.clock.clearTimeout(timer);
      timer = undefined;
    }
  });
}
