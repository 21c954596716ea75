import { describe, expect, it } from 'vitest';
import { createHostGuard, isLoopbackAddress } from './host-guard.js';

describe('createHostGuard', () => {
  describe('with no options', () => {
    const guard = createHostGuard();
    it.each(['localhost', 'localhost:3000', '127.0.0.1:8080', '[::1]:9', 'LOCALHOST:1'])('allows Host %s on a loopback bind', (host) => {
      expect(guard({ host, origin: undefined, loopbackBind: true }).ok).toBe(true);
    });
    it.each(['evil.example', 'evil.example:3000', '127.0.0.1.evil.example', 'localhost.evil.example', '', 'a/b', 'user@localhost'])(
      'refuses Host %j on a loopback or unknown bind',
      (host) => {
        expect(guard({ host, origin: undefined, loopbackBind: true }).ok).toBe(false);
        expect(guard({ host, origin: undefined, loopbackBind: undefined }).ok).toBe(false);
      },
    );
    it('refuses a missing Host on a loopback bind', () => {
      expect(guard({ host: undefined, origin: undefined, loopbackBind: true }).ok).toBe(false);
    });
    it('allows loopback origins and refuses foreign, opaque and non-http ones', () => {
      const host = 'localhost:3000';
      expect(guard({ host, origin: 'http://localhost:5173', loopbackBind: true }).ok).toBe(true);
      expect(guard({ host, origin: 'https://127.0.0.1', loopbackBind: true }).ok).toBe(true);
      expect(guard({ host, origin: 'http://evil.example', loopbackBind: true }).ok).toBe(false);
      expect(guard({ host, origin: 'null', loopbackBind: true }).ok).toBe(false);
      expect(guard({ host, origin: 'file://', loopbackBind: true }).ok).toBe(false);
    });
    it('on a public bind checks only that Origin matches Host', () => {
      expect(guard({ host: 'mcp.example.com', origin: undefined, loopbackBind: false }).ok).toBe(true);
      expect(guard({ host: 'mcp.example.com', origin: 'https://mcp.example.com', loopbackBind: false }).ok).toBe(true);
      expect(guard({ host: 'mcp.example.com', origin: 'https://evil.example', loopbackBind: false }).ok).toBe(false);
    });
  });

  describe('with lists', () => {
    it('validates Host against allowedHosts on every bind, with optional ports', () => {
      const guard = createHostGuard({ allowedHosts: ['mcp.example.com', 'api.example.com:8443'] });
      expect(guard({ host: 'mcp.example.com:1234', origin: undefined, loopbackBind: false }).ok).toBe(true);
      expect(guard({ host: 'api.example.com:8443', origin: undefined, loopbackBind: false }).ok).toBe(true);
      expect(guard({ host: 'api.example.com:8444', origin: undefined, loopbackBind: false }).ok).toBe(false);
      expect(guard({ host: 'localhost', origin: undefined, loopbackBind: true }).ok).toBe(false);
    });
    it('validates Origin exactly against allowedOrigins', () => {
      const guard = createHostGuard({ allowedOrigins: ['https://app.example.com'] });
      expect(guard({ host: 'localhost', origin: 'https://app.example.com', loopbackBind: true }).ok).toBe(true);
      expect(guard({ host: 'localhost', origin: 'https://app.example.com:444', loopbackBind: true }).ok).toBe(false);
      expect(guard({ host: 'localhost', origin: 'http://localhost:3000', loopbackBind: true }).ok).toBe(false);
    });
    it('rejects invalid list entries at construction', () => {
      expect(() => createHostGuard({ allowedHosts: ['a b'] })).toThrow(RangeError);
      expect(() => createHostGuard({ allowedOrigins: ['not a url'] })).toThrow(RangeError);
    });
  });

  describe('enabled', () => {
    it('false allows everything; true validates even on public binds', () => {
      expect(createHostGuard({ enabled: false })({ host: 'evil.example', origin: 'http://evil.example', loopbackBind: true }).ok).toBe(true);
      expect(createHostGuard({ enabled: true })({ host: 'mcp.example.com', origin: undefined, loopbackBind: false }).ok).toBe(false);
    });
  });
});

describe('isLoopbackAddress', () => {
  it('recognises IPv4, IPv6 and mapped loopback addresses', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('127.1.2.3')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
    expect(isLoopbackAddress('::')).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
  });
});
