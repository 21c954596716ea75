import type { KoaContextWithOIDC } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { providerConfiguration, publicJwks, type ProviderSettings } from './provider-config.js';
import { generateSigningKey } from './signing-keys.js';

async function settings(): Promise<ProviderSettings> {
  return {
    resources: [
      { resource: 'https://a.example/mcp', scopes: ['mcp', 'admin'] },
      { resource: 'https://b.example/mcp', scopes: ['mcp'], accessTokenTtlSeconds: 60 },
    ],
    signingKeys: [await generateSigningKey(), await generateSigningKey('RS256')],
    cookieKeys: ['cookie-key'],
    registration: true,
    clientIdMetadataDocuments: true,
    clients: [],
    adapter: undefined,
    accessTokenTtlSeconds: 900,
    refreshTokenTtlSeconds: 86_400,
    fetch: undefined,
  };
}

const ctx = {} as KoaContextWithOIDC;

describe('providerConfiguration', () => {
  it('issues JWTs for a configured resource only: its audience, its scopes, signed with the first key', async () => {
    const given = await settings();
    const indicators = providerConfiguration(given).features?.resourceIndicators;
    const info = await indicators?.getResourceServerInfo?.(ctx, 'https://b.example/mcp', {} as never);
    expect(info).toEqual({
      scope: 'mcp',
      audience: 'https://b.example/mcp',
      accessTokenTTL: 60,
      accessTokenFormat: 'jwt',
      jwt: { sign: { alg: 'ES256', kid: given.signingKeys[0]?.kid } },
    });
    expect(() => indicators?.getResourceServerInfo?.(ctx, 'https://elsewhere.example/mcp', {} as never)).toThrow(
      expect.objectContaining({ message: 'invalid_target', error_description: 'this authorization server issues no tokens for https://elsewhere.example/mcp' }),
    );
    expect(await indicators?.defaultResource?.(ctx, {} as never)).toBe('https://a.example/mcp');
  });

  it('requires PKCE of every client, offers the code flow only, and turns the development pages off', async () => {
    const config = providerConfiguration(await settings());
    expect(config.pkce?.required?.(ctx, {} as never)).toBe(true);
    expect(config.responseTypes).toEqual(['code']);
    expect(config.features?.devInteractions?.enabled).toBe(false);
    expect(config.features?.dPoP?.enabled).toBe(true);
    expect(config.features?.registration?.enabled).toBe(true);
    expect(config.features?.clientIdMetadataDocument?.enabled).toBe(true);
  });

  it('lets an allow-list decide which client ID metadata documents are fetched, or turns them off', async () => {
    const allowFetch = providerConfiguration({ ...(await settings()), clientIdMetadataDocuments: { allow: (id) => id.startsWith('https://trusted.example/') } }).features
      ?.clientIdMetadataDocument?.allowFetch;
    expect(await allowFetch?.(ctx, 'https://trusted.example/client.json')).toBe(true);
    expect(await allowFetch?.(ctx, 'https://other.example/client.json')).toBe(false);
    expect(providerConfiguration({ ...(await settings()), clientIdMetadataDocuments: false }).features?.clientIdMetadataDocument?.enabled).toBe(false);
  });
});

describe('publicJwks', () => {
  it('publishes every key without its private members, the signing key first', async () => {
    const { signingKeys } = await settings();
    const jwks = publicJwks(signingKeys);
    expect(jwks.keys.map((key) => key['kid'])).toEqual(signingKeys.map((key) => key.kid));
    expect(jwks.keys.some((key) => 'd' in key || 'p' in key)).toBe(false);
  });
});
