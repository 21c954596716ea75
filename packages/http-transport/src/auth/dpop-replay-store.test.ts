import { describe, expect, it } from 'vitest';
import { InMemoryDpopReplayStore } from './dpop-replay-store.js';

describe('InMemoryDpopReplayStore', () => {
  describe('#record', () => {
    it('records an id once and calls it a replay while it is remembered', () => {
      let now = 1000;
      const store = new InMemoryDpopReplayStore({ now: () => now });
      expect(store.record('a', 500)).toEqual({ kind: 'recorded' });
      expect(store.record('a', 500)).toEqual({ kind: 'replayed' });
      now = 1499;
      expect(store.record('a', 500)).toEqual({ kind: 'replayed' });
      now = 1500;
      expect(store.record('a', 500)).toEqual({ kind: 'recorded' });
    });

    it('refuses a new id when full instead of forgetting an unexpired one, and says when room frees up', () => {
      let now = 0;
      const store = new InMemoryDpopReplayStore({ maxEntries: 2, now: () => now });
      store.record('a', 1000);
      now = 100;
      store.record('b', 1000);
      expect(store.record('c', 1000)).toEqual({ kind: 'full', retryAfterMs: 900 });
      // The remembered ids are still replays.
      expect(store.record('a', 1000)).toEqual({ kind: 'replayed' });
      expect(store.record('b', 1000)).toEqual({ kind: 'replayed' });
      now = 500;
      expect(store.record('d', 1000)).toEqual({ kind: 'full', retryAfterMs: 500 });
      now = 1000;
      expect(store.record('c', 1000)).toEqual({ kind: 'recorded' });
      expect(store.size).toBe(2);
    });

    it('frees expired ids recorded out of expiry order', () => {
      let now = 0;
      const store = new InMemoryDpopReplayStore({ maxEntries: 2, now: () => now });
      store.record('long', 10_000);
      store.record('short', 100);
      now = 200;
      expect(store.record('c', 100)).toEqual({ kind: 'recorded' });
      expect(store.record('long', 100)).toEqual({ kind: 'replayed' });
    });

    it('refuses a size that is not a positive integer', () => {
      expect(() => new InMemoryDpopReplayStore({ maxEntries: 0 })).toThrow(RangeError);
    });
  });
});
