import { InvalidArgumentError, type AuthInfo } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { sessionPrincipal } from './session-principal.js';

const oauth = (overrides: Partial<AuthInfo> = {}): AuthInfo => ({
  token: 'token-1',
  clientId: 'client-a',
  scopes: ['mcp'],
  issuer: 'https://id.example.com',
  subject: 'alice',
  tokenType: 'Bearer',
  expiresAt: 100,
  claims: { sub: 'alice', exp: 100 },
  ...overrides,
});

describe('sessionPrincipal', () => {
  it('binds nothing when there is no auth info', async () => {
    expect(await sessionPrincipal(undefined)).toBeUndefined();
    expect(await sessionPrincipal(null)).toBeUndefined();
  });

  it('keeps the principal of an OAuth AuthInfo across a refreshed token, and tells subjects, issuers and clients apart', async () => {
    const alice = await sessionPrincipal(oauth());
    expect(alice).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await sessionPrincipal(oauth({ token: 'token-2', expiresAt: 200, claims: { sub: 'alice', exp: 200 } }))).toBe(alice);
    expect(await sessionPrincipal(oauth({ subject: 'bob' }))).not.toBe(alice);
    expect(await sessionPrincipal(oauth({ issuer: 'https://other.example.com' }))).not.toBe(alice);
    expect(await sessionPrincipal(oauth({ clientId: 'client-b' }))).not.toBe(alice);
    // A client-credentials token without a subject is its client's.
    const service = await sessionPrincipal(oauth({ subject: undefined, clientId: 'service' }));
    expect(service).not.toBe(await sessionPrincipal(oauth({ subject: undefined, clientId: 'other-service' })));
  });

  it('binds custom claims by issuer, subject and client, ignoring expiry and other claims', async () => {
    const first = await sessionPrincipal({ iss: 'https://id.example.com', sub: 'alice', exp: 1, iat: 0, jti: 'a' });
    expect(await sessionPrincipal({ iss: 'https://id.example.com', sub: 'alice', exp: 2, iat: 1, jti: 'b' })).toBe(first);
    expect(await sessionPrincipal({ iss: 'https://id.example.com', sub: 'bob', exp: 1 })).not.toBe(first);
  });

  it('binds any other value as a whole, whatever the order of its keys, and keeps it out of the principal', async () => {
    const ada = await sessionPrincipal({ user: 'ada', team: 'x' });
    expect(await sessionPrincipal({ team: 'x', user: 'ada' })).toBe(ada);
    expect(await sessionPrincipal({ user: 'bob', team: 'x' })).not.toBe(ada);
    expect(ada).not.toContain('ada');
    expect(await sessionPrincipal('api-key-1')).not.toBe(await sessionPrincipal('api-key-2'));
    expect(await sessionPrincipal('api-key-1')).not.toContain('api-key');
  });

  it('uses principalOf when given, and refuses auth info with no JSON form without it', async () => {
    expect(await sessionPrincipal({ user: 'ada', at: Date.now() }, (info) => (info as { user: string }).user)).toBe('ada');
    expect(await sessionPrincipal({ user: 'ada' }, () => undefined)).toBeUndefined();
    const cyclic: Record<string, unknown> = { user: 'ada' };
    cyclic['self'] = cyclic;
    await expect(sessionPrincipal(cyclic)).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(sessionPrincipal({ user: 'ada', id: 1n })).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
