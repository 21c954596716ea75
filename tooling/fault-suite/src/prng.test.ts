import { describe, expect, it } from 'vitest';
import { SeededRandom } from './prng.js';

describe('SeededRandom', () => {
  describe('#next', () => {
    it('repeats the same sequence for the same seed', () => {
      const a = new SeededRandom(42);
      const b = new SeededRandom(42);
      const first = Array.from({ length: 50 }, () => a.next());
      expect(Array.from({ length: 50 }, () => b.next())).toEqual(first);
      expect(new Set(first).size).toBe(50);
      for (const value of first) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThan(1);
      }
    });

    it('gives different sequences for different seeds', () => {
      expect(new SeededRandom(1).next()).not.toBe(new SeededRandom(2).next());
    });
  });

  describe('#between', () => {
    it('stays inside the closed range and reaches both ends', () => {
      const random = new SeededRandom(7);
      const seen = new Set<number>();
      for (let i = 0; i < 500; i += 1) seen.add(random.between(3, 6));
      expect([...seen].sort()).toEqual([3, 4, 5, 6]);
    });
  });

  describe('#pick', () => {
    it('throws on an empty list', () => {
      expect(() => new SeededRandom(1).pick([])).toThrow(RangeError);
    });
  });
});
