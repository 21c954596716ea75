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
    const deadlines = new CommandDeadlines(80);
    const started = performance.now();
    const first = deadlines.bound(never, () => new Error('first timed out'));
    const settledAt = first.catch(() => performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
    let resolveSecond!: (value: string) => void;
    const second = deadlines.bound(new Promise<string>((resolve) => (resolveSecond = resolve)), () => new Error('second timed out'));
    await expect(first).rejects.toThrow('first timed out');
    const waited = await settledAt;
    expect(waited).toBeGreaterThanOrEqual(79);
    expect(waited).toBeLessThan(80 * 1.25 + 60);
    expect(deadlines.size).toBe(1);
    resolveSecond('answered');
    expect(await second).toBe('answered');
    expect(deadlines.size).toBe(0);
    deadlines.stop();
  });

  it('refuses a timeout that is not a positive number of ms', () => {
    expect(() => new CommandDeadlines(0)).toThrow(RangeError);
    expect(() => new CommandDeadlines(Number.NaN)).toThrow(RangeError);
    expect(() => new CommandDeadlines(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
