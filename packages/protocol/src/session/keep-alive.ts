/**
 * Keep-alive pings (MCP 2025-11-25 basic/utilities/ping): while the connection is Operating, a `ping` every
 * `intervalMs`; after `maxFailures` unanswered pings in a row the session ends with a fatal
 * error. The timer is housekeeping: it never keeps a process alive on its own.
 */
import { ConnectionClosedError } from '../errors/errors.js';
import type { ConnectionState } from '../machines/connection-types.js';
import type { Clock, TimerHandle } from './clock.js';
import type { SessionOptions } from './options.js';

/** What keep-alive needs from its session. */
export interface KeepAliveHost {
  readonly clock: Clock;
  state(): ConnectionState;
  ping(timeoutMs: number): Promise<unknown>;
  onTransition(listener: (to: ConnectionState) => void): void;
  diagnostic(message: string, detail?: unknown): void;
  fail(error: Error): void;
}

export function startKeepAlive(host: KeepAliveHost, keepAlive: NonNullable<SessionOptions['keepAlive']>): void {
  let timer: TimerHandle | undefined;
  let failures = 0;
  const schedule = (): void => {
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
          host.diagnostic(`keep-alive ping failed (${failures})`, error);
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
