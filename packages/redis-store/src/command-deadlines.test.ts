import { SimulatedClock } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { CommandDeadlines } from './command-deadlines.js';

const never = new Promise<never>(() => undefined);

describe('CommandDeadlines', () => {
  it('settles as the work does, and stops sweeping once nothing is pending', async () => {
    const deadlines = new CommandDeadlines(1000);
    expect(await deadlines.bound(Promise.resolve('ok'), () => new Error('late'))).toBe('ok');
    await expect(deadlines.bound(Promise.reject(new Error('refused')), () => new Error('late'))).rejects.toThrow('refused');
    expect(deadlines.size).toBe(0);
    deadlines.stop();
  });

  it('rejects work still pending after the timeout with onTimeout(), oldest first, and leaves newer work alone', async () => {
    const clock = new SimulatedClock();
    const deadlines = new CommandDeadlines(80, clock);
    let firstSettledAt: number | undefined;
    const first = deadlines.bound(never, () => {
      firstSettledAt = clock.now();
      return new Error('first timed out');
    });
    clock.advance(50);
    let resolveSecond!: (value: string) => void;
    const second = deadlines.bound(new Promise<string>((resolve) => (resolveSecond = resolve)), () => new Error('second timed out'));
    clock.advance(29);
    expect(firstSettledAt).toBeUndefined();
    expect(deadlines.size).toBe(2);
    // Swept every 20 ms: the first is rejected at the first sweep at or past its 80 ms.
    clock.advance(1);
    await expect(first).rejects.toThrow('first timed out');
    expect(firstSettledAt).toBe(80);
    expect(deadlines.size).toBe(1);
    resolveSecond('answered');
    expect(await second).toBe('answered');
    expect(deadlines.size).toBe(0);
    // The next sweep finds nothing pending and schedules no other.
    clock.advance(20);
    expect(clock.pendingTimers).toBe(0);
    deadlines.stop();
  });

  it('rejects within 1.25 × the timeout of the start, whatever the phase of the sweep', async () => {
    const clock = new SimulatedClock();
    const deadlines = new CommandDeadlines(80, clock);
    const keepSweeping = deadlines.bound(never, () => new Error('kept the sweep running'));
    keepSweeping.catch(() => undefined);
    clock.advance(7);
    let settledAt: number | undefined;
    const late = deadlines.bound(never, () => {
      settledAt = clock.now();
      return new Error('late');
    });
    clock.advance(200);
    await expect(late).rejects.toThrow('late');
    expect(settledAt).toBeDefined();
    const waited = (settledAt ?? 0) - 7;
    expect(waited).toBeGreaterThanOrEqual(80);
    expect(waited).toBeLessThanOrEqual(80 * 1.25);
    expect(clock.pendingTimers).toBe(0);
    deadlines.stop();
  });

  it('refuses a timeout that is not a positive number of ms', () => {
    expect(() => new CommandDeadlines(0)).toThrow(RangeError);
    expect(() => new CommandDeadlines(Number.NaN)).toThrow(RangeError);
    expect(() => new CommandDeadlines(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
