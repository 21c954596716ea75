import { describe, expect, it } from 'vitest';
import type { VerifiedToken } from './auth-info.js';
import { IntrospectionCache } from './introspection-cache.js';

const principal = (expiresAt?: number): VerifiedToken => ({ clientId: 'c', scopes: ['mcp'], expiresAt, resource: undefined, issuer: undefined, subject: undefined, confirmationThumbprint: undefined, claims: {} });

describe('IntrospectionCache', () => {
  describe('#accepted', () => {
    it('reuses an active answer for its time to live, never past the token exp', () => {
      let now = 1_000_000;
      const cache = new IntrospectionCache({ ttlMs: 30_000 }, () => now);
      cache.accepted('long', principal(now / 1000 + 3600));
      cache.accepted('short', principal(now / 1000 + 5));
      now += 5000;
      expect(cache.get('short')).toBeUndefined();
      expect(cache.get('long')).toMatchObject({ ok: true });
      now += 25_000;
      expect(cache.get('long')).toBeUndefined();
    });
  });

  describe('#refused', () => {
    it('reuses a refusal for the negative time to live', () => {
      let now = 0;
      const cache = new IntrospectionCache({ negativeTtlMs: 1000 }, () => now);
      const error = new Error('inactive');
      cache.refused('t', error);
      expect(cache.get('t')).toEqual({ ok: false, error });
      now = 1000;
      expect(cache.get('t')).toBeUndefined();
    });
  });

  describe('#get', () => {
    it('keeps at most maxEntries answers, dropping the least recently used', () => {
      const cache = new IntrospectionCache({ maxEntries: 2 }, () => 0);
      cache.accepted('a', principal());
      cache.accepted('b', principal());
      expect(cache.get('a')).toBeDefined();
      cache.accepted('c', principal());
      expect(cache.get('b')).toBeUndefined();
      expect(cache.get('a')).toBeDefined();
      expect(cache.get('c')).toBeDefined();
    });

    it('keys tokens by a digest, not their text', async () => {
      const key = await IntrospectionCache.keyOf('secret-token');
      expect(key).not.toContain('secret');
      expect(key).toHaveLength(43);
    });
  });
});
