/** Which protocol timers keep the process alive (issue 18 #7, issue 11 #6). */
import { describe, expect, it } from 'vitest';
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
  it('keeps the process alive for request timeouts, the hard maximum and the close deadline, not for keep-alive pings', async () => {
    const clock = new RecordingClock();
    const pair = createPair({
      client: { clock, keepAlive: { intervalMs: 5_000, timeoutMs: 777 }, closeDeadlineMs: 4_321 },
      server: { clock },
    });
    await pair.handshake();
    pair.server.setRequestHandler('tools/list', () => new Promise(() => undefined));
    const pending = pair.client.request('tools/list', {}, { timeoutMs: 1_234, maxTotalTimeoutMs: 9_876 }).catch((error: unknown) => error);
    await flush();
    clock.advance(5_000); // the keep-alive ping goes out
    await flush();
    expect(clock.armed).toContainEqual({ ms: 1_234, keepAlive: true });
    expect(clock.armed).toContainEqual({ ms: 9_876, keepAlive: true });
    expect(clock.armed).toContainEqual({ ms: 5_000, keepAlive: false });
    expect(clock.armed).toContainEqual({ ms: 777, keepAlive: false });
    const closing = pair.client.close();
    await flush();
    expect(clock.armed).toContainEqual({ ms: 4_321, keepAlive: true });
    await closing;
    await pending;
  });
});
