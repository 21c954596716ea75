import { describe, expect, it } from 'vitest';
import { readRequestTarget } from './request-target.js';

describe('readRequestTarget', () => {
  describe('origin-form', () => {
    it.each([
      ['/mcp', '/mcp', ''],
      ['/mcp?sessionId=abc', '/mcp', '?sessionId=abc'],
      ['/', '/', ''],
      ['//evil.example/mcp', '//evil.example/mcp', ''],
      ['/a%2Fb', '/a%2Fb', ''],
      ['/mcp/', '/mcp/', ''],
      ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource/mcp', ''],
    ])('reads %s as path %s', (target, pathname, search) => {
      expect(readRequestTarget(target, '127.0.0.1:3000')).toMatchObject({ ok: true, pathname, search });
    });
    it('keeps the query readable', () => {
      const read = readRequestTarget('/messages?sessionId=a%20b', undefined);
      expect(read.ok && new URLSearchParams(read.search).get('sessionId')).toBe('a b');
    });
    it.each(['/a/../mcp', '/a/./mcp', '/..', '/a/%2e%2e/mcp', '/a/.%2E/mcp', '/a\\b', '/mcp#frag', '/m cp', '/m\tcp', 'mcp', '*', 'example.com:443', ''])(
      'refuses %j',
      (target) => {
        expect(readRequestTarget(target, '127.0.0.1:3000').ok).toBe(false);
      },
    );
    it('leaves the query alone: a backslash or a dot segment there is data', () => {
      expect(readRequestTarget('/messages?q=a\\b&p=/../x', undefined)).toMatchObject({ ok: true, pathname: '/messages', search: '?q=a\\b&p=/../x' });
    });
    it('does not take segments that merely hold dots for dot segments', () => {
      expect(readRequestTarget('/v1.2/..mcp/a.', undefined)).toMatchObject({ ok: true, pathname: '/v1.2/..mcp/a.' });
    });
  });

  describe('absolute-form', () => {
    it('reads the path of a target naming the Host (RFC 9112 §3.2.2)', () => {
      expect(readRequestTarget('http://127.0.0.1:3000/mcp?x=1', '127.0.0.1:3000')).toMatchObject({ ok: true, pathname: '/mcp', search: '?x=1' });
      expect(readRequestTarget('HTTP://LOCALHOST:80/mcp', 'localhost')).toMatchObject({ ok: true, pathname: '/mcp' });
      expect(readRequestTarget('http://localhost:3000', 'localhost:3000')).toMatchObject({ ok: true, pathname: '/' });
      expect(readRequestTarget('http://localhost:3000?a=1', 'localhost:3000')).toMatchObject({ ok: true, pathname: '/', search: '?a=1' });
    });
    it('keeps a path starting with // as a path', () => {
      expect(readRequestTarget('http://localhost//evil.example/mcp', 'localhost')).toMatchObject({ ok: true, pathname: '//evil.example/mcp' });
    });
    it('refuses a target naming another host than Host, or no Host at all', () => {
      expect(readRequestTarget('http://other.example/mcp', '127.0.0.1:3000')).toEqual({ ok: false, reason: expect.stringMatching(/another host/) });
      expect(readRequestTarget('http://127.0.0.1:3001/mcp', '127.0.0.1:3000').ok).toBe(false);
      expect(readRequestTarget('http://127.0.0.1/mcp', '').ok).toBe(false);
    });
    it('refuses userinfo, other schemes and dot segments', () => {
      expect(readRequestTarget('http://user@localhost/mcp', 'localhost').ok).toBe(false);
      expect(readRequestTarget('ftp://localhost/mcp', 'localhost').ok).toBe(false);
      expect(readRequestTarget('http://localhost/a/../mcp', 'localhost').ok).toBe(false);
    });
    it('reads a runtime-built URL without comparing it to Host', () => {
      expect(readRequestTarget('https://mcp.example.com/mcp', undefined)).toMatchObject({ ok: true, pathname: '/mcp' });
    });
  });
});
