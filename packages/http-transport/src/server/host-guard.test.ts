import { describe, expect, it } from 'vitest';
import { AllowedHostsRequiredError, createHostGuard, isLoopbackAddress, requireAllowedHostsFor } from './host-guard.js';

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
    it('on a public address accepts only that address as Host, never a name, even with a matching Origin', () => {
      const localAddress = '192.0.2.10';
      expect(guard({ host: '192.0.2.10:3000', origin: undefined, loopbackBind: false, localAddress }).ok).toBe(true);
      expect(guard({ host: '192.0.2.10:3000', origin: 'http://192.0.2.10:5173', loopbackBind: false, localAddress }).ok).toBe(true);
      expect(guard({ host: '192.0.2.10:3000', origin: 'http://evil.example', loopbackBind: false, localAddress }).ok).toBe(false);
      const rebound = guard({ host: 'evil.example:3000', origin: 'http://evil.example:3000', loopbackBind: false, localAddress });
      expect(rebound).toEqual({ ok: false, reason: expect.stringMatching(/^Host not allowed: evil\.example:3000 \(this server has no allowedHosts/) });
      expect(guard({ host: 'mcp.example.com', origin: undefined, loopbackBind: false, localAddress }).ok).toBe(false);
      expect(guard({ host: 'localhost', origin: undefined, loopbackBind: false, localAddress }).ok).toBe(false);
    });
    it('reads IPv6 and IPv4-mapped local addresses', () => {
      expect(guard({ host: '[2001:db8::1]:3000', origin: undefined, loopbackBind: false, localAddress: '2001:db8::1' }).ok).toBe(true);
      expect(guard({ host: '192.0.2.10', origin: undefined, loopbackBind: false, localAddress: '::ffff:192.0.2.10' }).ok).toBe(true);
    });
    it('refuses every Host on a public address it was not told', () => {
      expect(guard({ host: '192.0.2.10', origin: undefined, loopbackBind: false }).ok).toBe(false);
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

describe('requireAllowedHostsFor', () => {
  it('lets loopback binds through with no options', () => {
    for (const bind of ['127.0.0.1', '::1', 'localhost', '127.0.0.2']) expect(() => requireAllowedHostsFor(bind, {}, 'listen()')).not.toThrow();
  });
  it('refuses non-loopback binds without allowedHosts, naming the option and an example', () => {
    for (const bind of ['0.0.0.0', '::', '', '192.0.2.10', 'mcp.example.com']) {
      let thrown: unknown;
      try {
        requireAllowedHostsFor(bind, {}, `listen({ host: ${JSON.stringify(bind)} })`);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AllowedHostsRequiredError);
      expect(thrown).toMatchObject({ code: 'INVALID_ARGUMENT', category: 'invalid-request', bindAddress: bind, option: 'allowedHosts' });
      expect((thrown as Error).message).toContain(`listen({ host: ${JSON.stringify(bind)} })`);
      expect((thrown as Error).message).toContain("allowedHosts: ['mcp.example.com']");
    }
  });
  it('lets a non-loopback bind through with allowedHosts, or with the protection set explicitly', () => {
    expect(() => requireAllowedHostsFor('0.0.0.0', { allowedHosts: ['mcp.example.com'] }, 'listen()')).not.toThrow();
    expect(() => requireAllowedHostsFor('0.0.0.0', { dnsRebindingProtection: true }, 'listen()')).not.toThrow();
    expect(() => requireAllowedHostsFor('0.0.0.0', { dnsRebindingProtection: false }, 'listen()')).not.toThrow();
  });
});
