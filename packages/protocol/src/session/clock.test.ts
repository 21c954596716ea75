import { describe, expect, it } from 'vitest';
import { SimulatedClock, systemClock } from './clock.js';

describe('SimulatedClock', () => {
  describe('#advance', () => {
    it('fires due timers in order, including timers created by callbacks', () => {
      const clock = new SimulatedClock();
      const fired: string[] = [];
      clock.setTimeout(() => fired.push('b@20'), 20);
      clock.setTimeout(() => {
        fired.push('a@10');
        clock.setTimeout(() => fired.push('c@15'), 5);
      }, 10);
      const cleared = clock.setTimeout(() => fired.push('never'), 15);
      clock.clearTimeout(cleared);
      clock.advance(19);
      expect(fired).toEqual(['a@10', 'c@15']);
      expect(clock.now()).toBe(19);
      clock.advance(1);
      expect(fired).toEqual(['a@10', 'c@15', 'b@20']);
      expect(clock.pendingTimers).toBe(0);
    });
  });
});

describe('systemClock', () => {
  describe('#setTimeout', () => {
    it('keeps the process alive only for timers that stand for awaited work', () => {
      const housekeeping = systemClock.setTimeout(() => undefined, 60_000) as ReturnType<typeof setTimeout>;
      const awaited = systemClock.setTimeout(() => undefined, 60_000, { keepAlive: true }) as ReturnType<typeof setTimeout>;
      try {
        expect(housekeeping.hasRef()).toBe(false);
        expect(awaited.hasRef()).toBe(true);
      } finally {
        systemClock.clearTimeout(housekeeping);
        systemClock.clearTimeout(awaited);
      }
    });
  });
});
