import { SimulatedClock } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { delay, settleWithin } from './timeouts.js';

describe('settleWithin', () => {
  it('is false when the promise does not settle before the clock passes the bound', async () => {
    const clock = new SimulatedClock();
    const outcome = settleWithin(clock, new Promise(() => undefined), 2000);
    clock.advance(1999);
    expect(clock.pendingTimers).toBe(1);
    clock.advance(1);
    await expect(outcome).resolves.toBe(false);
  });

  it('is true when the promise settles first, either way, and clears its timer', async () => {
    const clock = new SimulatedClock();
    await expect(settleWithin(clock, Promise.reject(new Error('x')), 2000)).resolves.toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('delay', () => {
  it('resolves when the injected clock passes it', async () => {
    const clock = new SimulatedClock();
    let done = false;
    void delay(clock, 20).then(() => (done = true));
    clock.advance(19);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1);
    await Promise.resolve();
    expect(done).toBe(true);
  });
});
