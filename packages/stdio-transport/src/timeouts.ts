/**
 * Bounded waits of the stdio transports, on the protocol `Clock` (tests drive them with a
 * `SimulatedClock`). Someone awaits each of these waits (a close, a shutdown escalation), so
 * their timers keep the process alive until they end; every timer started is cleared.
 */
import type { Clock } from '@statemcp/protocol';

const AWAITED = { keepAlive: true } as const;

/** Resolves after `ms` milliseconds. */
export function delay(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms, AWAITED));
}

/** Resolves true when `promise` settles (either way) within `ms`, false otherwise. */
export function settleWithin(clock: Clock, promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = clock.setTimeout(() => resolve(false), ms, AWAITED);
    const done = (): void => {
      clock.clearTimeout(timer);
      resolve(true);
    };
    promise.then(done, done);
  });
}
