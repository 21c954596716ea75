import { describe, expect, it } from 'vitest';
import { createOAuthProxy, type OAuthProxyOptions } from './oauth-proxy.js';

const OPTIONS: OAuthProxyOptions = {
  issuer: 'https://auth.example.com',
  // Never reached: every case is refused before the upstream is discovered.
  upstream: { issuer: 'https://idp.example.com', clientId: 'proxy' },
  resources: [{ resource: 'https://mcp.example.com/mcp', scopes: ['mcp'] }],
};

describe('createOAuthProxy', () => {
  it('refuses an issuer with a path, query or fragment', async () => {
    await expect(createOAuthProxy({ ...OPTIONS, issuer: 'https://auth.example.com/oauth' })).rejects.toThrow(/must be an origin/);
    await expect(createOAuthProxy({ ...OPTIONS, issuer: 'https://auth.example.com/?a=1' })).rejects.toThrow(/must be an origin/);
    await expect(createOAuthProxy({ ...OPTIONS, issuer: 'not a url' })).rejects.toThrow(/not a URL/);
  });

  it('refuses no resource, a resource with a fragment, and an empty cookie key list', async () => {
    await expect(createOAuthProxy({ ...OPTIONS, resources: [] })).rejects.toThrow(/at least one MCP server/);
    await expect(createOAuthProxy({ ...OPTIONS, resources: [{ resource: 'https://mcp.example.com/mcp#x', scopes: [] }] })).rejects.toThrow(/without fragment/);
    await expect(createOAuthProxy({ ...OPTIONS, cookieKeys: [] })).rejects.toThrow(/cookieKeys/);
  });

  it('refuses a public signing key before reaching the upstream', async () => {
    const signingKeys = [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'k', alg: 'ES256', use: 'sig' } as const];
    await expect(createOAuthProxy({ ...OPTIONS, signingKeys })).rejects.toThrow(/public key/);
  });
});
