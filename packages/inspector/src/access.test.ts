import { describe, expect, it } from 'vitest';
import { checkAccess, createAccessToken, hostsFor, isLoopbackHost, tokenMatches } from './access.js';

describe('access', () => {
  it('makes distinct 256-bit tokens', () => {
    const token = createAccessToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(createAccessToken()).not.toBe(token);
  });

  it('matches tokens exactly', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abc', 'abd')).toBe(false);
    expect(tokenMatches('abc', 'ab')).toBe(false);
    expect(tokenMatches('abc', null)).toBe(false);
  });

  it('knows loopback hosts', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '192.168.1.2', 'example.com', '::'].some(isLoopbackHost)).toBe(false);
  });

  it('lets in the right Host, same Origin and token only', () => {
    const hosts = hostsFor('127.0.0.1', 4000);
    const ok = { host: '127.0.0.1:4000', origin: undefined, token: 't' };
    expect(checkAccess(ok, 't', hosts)).toEqual({ ok: true });
    expect(checkAccess({ ...ok, host: 'localhost:4000', origin: 'http://localhost:4000' }, 't', hosts)).toEqual({ ok: true });
    expect(checkAccess({ ...ok, token: 'x' }, 't', hosts)).toMatchObject({ ok: false, status: 401 });
    expect(checkAccess({ ...ok, host: 'evil.example:4000' }, 't', hosts)).toMatchObject({ ok: false, status: 403 });
    expect(checkAccess({ ...ok, host: '127.0.0.1:4001' }, 't', hosts)).toMatchObject({ ok: false, status: 403 });
    expect(checkAccess({ ...ok, origin: 'http://localhost:4000' }, 't', hosts)).toMatchObject({ ok: false, status: 403 });
    expect(checkAccess({ ...ok, host: undefined }, 't', hosts)).toMatchObject({ ok: false, status: 403 });
    expect(checkAccess({ ...ok, host: 'anything:1' }, 't', undefined)).toEqual({ ok: true });
  });
});
