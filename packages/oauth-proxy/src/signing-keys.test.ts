import { calculateJwkThumbprint } from 'jose';
import { describe, expect, it } from 'vitest';
import { checkSigningKeys, generateSigningKey, publicKeyOf } from './signing-keys.js';

describe('generateSigningKey', () => {
  it('makes a private ES256 key whose kid is its RFC 7638 thumbprint', async () => {
    const key = await generateSigningKey();
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(typeof key.d).toBe('string');
    expect(key.kid).toBe(await calculateJwkThumbprint(publicKeyOf(key)));
  });

  it('makes RSA and EdDSA keys too', async () => {
    expect(await generateSigningKey('RS256')).toMatchObject({ kty: 'RSA', alg: 'RS256' });
    expect(await generateSigningKey('EdDSA')).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
  });
});

describe('publicKeyOf', () => {
  it('drops every private member', async () => {
    const key = publicKeyOf(await generateSigningKey('RS256'));
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(member);
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
  });
});

describe('checkSigningKeys', () => {
  it('refuses an empty list, a public key, a duplicate kid and an unknown alg', async () => {
    const key = await generateSigningKey();
    expect(() => checkSigningKeys([])).toThrow(/at least one/);
    expect(() => checkSigningKeys([{ ...publicKeyOf(key), kid: key.kid, alg: 'ES256', use: 'sig' }])).toThrow(/public key/);
    expect(() => checkSigningKeys([key, key])).toThrow(/Two signing keys/);
    expect(() => checkSigningKeys([{ ...key, alg: 'HS256' as never }])).toThrow(/no supported alg/);
    expect(() => checkSigningKeys([key])).not.toThrow();
  });
});
