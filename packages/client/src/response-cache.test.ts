/** The response cache on its own: keys, bounds and eviction, on a simulated clock. */
import { SimulatedClock, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { ResponseCache, canonicalJson } from './response-cache.js';

const page = (text: string, ttlMs = 60_000): JsonObject => ({ resultType: 'complete', contents: [{ uri: 'file:///x', text }], ttlMs, cacheScope: 'public' });

function counting(cache: ResponseCache, method: string, params: JsonObject, result: JsonObject) {
  let sent = 0;
  return async () => {
    await cache.call(method, params, false, () => {
      sent++;
      return Promise.resolve(result);
    });
    return sent;
  };
}

describe('ResponseCache', () => {
  describe('#call', () => {
    it('keys by method and params in any key order, never by _meta', async () => {
      const cache = new ResponseCache(new SimulatedClock());
      await cache.call('resources/read', { uri: 'file:///x', extra: 1 }, false, () => Promise.resolve(page('a')));
      const served = await cache.call('resources/read', { extra: 1, uri: 'file:///x', _meta: { progressToken: 3 } }, false, () => Promise.resolve(page('b')));
      expect(served).toEqual(page('a'));
      const other = await cache.call('resources/read', { uri: 'file:///y' }, false, () => Promise.resolve(page('c')));
      expect(other).toEqual(page('c'));
      expect(cache.stats).toMatchObject({ hits: 1, misses: 2, entries: 2 });
    });

    it('evicts the least recently used entry past maxEntries', async () => {
      const cache = new ResponseCache(new SimulatedClock(), { maxEntries: 2 });
      const a = counting(cache, 'resources/read', { uri: 'a' }, page('a'));
      const b = counting(cache, 'resources/read', { uri: 'b' }, page('b'));
      const c = counting(cache, 'resources/read', { uri: 'c' }, page('c'));
      await a();
      await b();
      await a(); // a is now the most recent
      await c(); // evicts b
      expect(await a()).toBe(1);
      expect(await b()).toBe(2);
      expect(cache.stats.evictions).toBeGreaterThanOrEqual(1);
      expect(cache.stats.entries).toBe(2);
    });

    it('keeps the held bytes under maxBytes and does not store a result larger than it', async () => {
      const small = page('x'.repeat(100));
      const bytes = JSON.stringify(small).length;
      const cache = new ResponseCache(new SimulatedClock(), { maxBytes: bytes * 2 });
      await counting(cache, 'resources/read', { uri: '1' }, small)();
      await counting(cache, 'resources/read', { uri: '2' }, small)();
      await counting(cache, 'resources/read', { uri: '3' }, small)();
      expect(cache.stats).toMatchObject({ entries: 2, bytes: bytes * 2, evictions: 1 });
      await counting(cache, 'resources/read', { uri: 'big' }, page('y'.repeat(bytes * 2)))();
      expect(cache.stats).toMatchObject({ entries: 2, stores: 3 });
    });

    it('counts multi-byte characters as their UTF-8 length', async () => {
      const result = page('é€😀');
      const cache = new ResponseCache(new SimulatedClock());
      await counting(cache, 'resources/read', { uri: 'u' }, result)();
      expect(cache.stats.bytes).toBe(Buffer.byteLength(JSON.stringify(result)));
    });

    it('refuses bounds that are not integers >= 0', () => {
      expect(() => new ResponseCache(new SimulatedClock(), { maxEntries: -1 })).toThrow(RangeError);
      expect(() => new ResponseCache(new SimulatedClock(), { maxBytes: 1.5 })).toThrow(RangeError);
    });
  });

  describe('canonicalJson', () => {
    it('sorts object keys at every depth and leaves undefined members out', () => {
      expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: undefined, e: 'x' })).toBe('{"b":[{"c":2,"d":1}],"e":"x"}');
    });
  });
});
