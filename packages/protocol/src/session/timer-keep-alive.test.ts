/** Which protocol timers keep the process alive (issue 18 #7, issue 11 #6). */
import { describe, expect, it } from 'vitest';
import { RequestTimeoutError } from '../errors/errors.js';
import { SimulatedClock, type TimerHandle, type TimerOptions } from './clock.js';
import { createPair, flush } from './test-support.js';

/** A simulated clock that records the options of every timer it arms, by delay. */
class RecordingClock extends SimulatedClock {
  readonly armed: { ms: number; keepAlive: boolean }[] = [];
  override setTimeout(callback: () => void, ms: number, options?: TimerOptions): TimerHandle {
    this.armed.push({ ms, keepAlive: options?.keepAlive === true });
    return super.setTimeout(callback, ms, options);
  }
}

describe('Session timers', () => {
  it('keeps the process alive while a request awaits its timeout or hard maximum, not for keep-alive pings nor once nothing is pending, and for the close deadline', async () => {
    const clock = new RecordingClock();
    const pair = createPair({
      client: { clock, keepAlive: { intervalMs: 5_000, timeoutMs: 777 }, closeDeadlineMs: 4_321 },
      server: { clock },
    });
    await pair.handshake();
    pair.server.setRequestHandler('tools/list', () => new Promise(() => undefined));
    expect(clock.keepAliveTimers).toBe(0);
    const timedOut = pair.client.request('tools/list', {}, { timeoutMs: 1_234, maxTotalTimeoutMs: 9_876 }).catch((error: unknown) => error);
    await flush();
    expect(clock.armed).toContainEqual({ ms: 1_234, keepAlive: true });
    expect(clock.keepAliveTimers).toBe(1);
    clock.advance(1_234);
    expect(await timedOut).toBeInstanceOf(RequestTimeoutError);
    expect(clock.keepAliveTimers).toBe(0);
    const capped = pair.client.request('tools/list', {}, { timeoutMs: 60_000, maxTotalTimeoutMs: 1_000 }).catch((error: unknown) => error);
    await flush();
    expect(clock.armed).toContainEqual({ ms: 1_000, keepAlive: true });
    expect(clock.keepAliveTimers).toBe(1);
    clock.advance(1_000);
    expect(((await capped) as Error).message).toMatch(/hard maximum/);
    // A request answered in time leaves the shared timer behind, but it no longer keeps the process alive.
    await pair.client.request('ping', undefined, { timeoutMs: 2_000 });
    expect(clock.pendingTimers).toBeGreaterThan(0);
    expect(clock.keepAliveTimers).toBe(0);
    clock.advance(5_000 - 2_234); // the keep-alive ping goes out at 5 000
    await flush();
    expect(clock.armed).toContainEqual({ ms: 5_000, keepAlive: false });
    expect(clock.armed).toContainEqual({ ms: 777, keepAlive: false });
    expect(clock.keepAliveTimers).toBe(0);
    const closing = pair.client.close();
    await flush();
    expect(clock.armed).toContainEqual({ ms: 4_321, keepAlive: true });
    await closing;
  });
});
