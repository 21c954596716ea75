import { describe, expect, it } from 'vitest';

import { ReconnectTracker, reconnectDelay, resolveReconnectOptions } from './reconnect.js';

describe('reconnectDelay', () => {
  const options = resolveReconnectOptions({ initialDelayMs: 100, maxDelayMs: 1000, factor: 2, jitter: 0.5, maxRetries: 10 });

  it('grows exponentially and is capped at maxDelayMs (no jitter at random = 0)', () => {
    const delays = [1, 2, 3, 4, 5, 6].map((attempt) => reconnectDelay(attempt, options, undefined, () => 0));
    expect(delays).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('keeps jittered delays within [delay × (1 − jitter), delay]', () => {
    for (let attempt = 1; attempt <= 6; attempt++) {
      const base = Math.min(1000, 100 * 2 ** (attempt - 1));
      const low = reconnectDelay(attempt, options, undefined, () => 0.999_999);
      const high = reconnectDelay(attempt, options, undefined, () => 0);
      expect(low).toBeGreaterThanOrEqual(Math.floor(base * 0.5));
      expect(high).toBe(base);
      for (let sample = 0; sample < 50; sample++) {
        const delay = reconnectDelay(attempt, options, undefined);
        expect(delay).toBeGreaterThanOrEqual(Math.floor(base * 0.5));
        expect(delay).toBeLessThanOrEqual(base);
      }
    }
  });

  it('uses the server retry value exactly, without jitter or growth', () => {
    expect(reconnectDelay(1, options, 500, () => 0.7)).toBe(500);
    expect(reconnectDelay(9, options, 500, () => 0.7)).toBe(500);
  });
});

describe('resolveReconnectOptions', () => {
  it('rejects nonsense', () => {
    expect(() => resolveReconnectOptions({ jitter: 2 })).toThrow(RangeError);
    expect(() => resolveReconnectOptions({ maxRetries: -1 })).toThrow(RangeError);
    expect(() => resolveReconnectOptions({ initialDelayMs: 10, maxDelayMs: 5 })).toThrow(RangeError);
  });
});

describe('ReconnectTracker', () => {
  describe('#next', () => {
    it('counts attempts across reconnections and gives up after maxRetries', () => {
      const tracker = new ReconnectTracker(resolveReconnectOptions({ maxRetries: 3, jitter: 0 }));
      expect([tracker.next()?.attempt, tracker.next()?.attempt, tracker.next()?.attempt]).toEqual([1, 2, 3]);
      expect(tracker.next()).toBeUndefined();
    });

    it('starts afresh after progress', () => {
      const tracker = new ReconnectTracker(resolveReconnectOptions({ maxRetries: 2, jitter: 0, initialDelayMs: 10 }));
      tracker.next();
      tracker.next();
      tracker.progress();
      expect(tracker.next()).toEqual({ attempt: 1, delayMs: 10 });
    });
  });
});
