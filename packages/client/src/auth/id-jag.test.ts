import { describe, expect, it } from 'vitest';
import { idJagAssertion } from './id-jag.js';

const ISSUER = 'https://as.example';
const context = { issuer: ISSUER, tokenEndpoint: `${ISSUER}/token`, resource: 'https://mcp.example/mcp' };

function base64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An identity provider's token endpoint answering each exchange with `token` (audiences recorded). */
function idp(token: (audience: string) => string): { fetch: typeof fetch; audiences: string[] } {
  const audiences: string[] = [];
  return {
    audiences,
    fetch: async (_input, init) => {
      const audience = new URLSearchParams(init?.body as string).get('audience') ?? '';
      audiences.push(audience);
      return Response.json({ access_token: token(audience), issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' });
    },
  };
}

function jag(aud: unknown): string {
  return `${base64url({ alg: 'ES256', typ: 'oauth-id-jag+jwt' })}.${base64url({ iss: 'https://idp.example', sub: 'u', aud })}.c2ln`;
}

function source(idpFetch: typeof fetch): ReturnType<typeof idJagAssertion> {
  return idJagAssertion({ idpIssuer: 'https://idp.example', idpTokenEndpoint: 'https://idp.example/token', idpClientId: 'c', idToken: 'id-token', fetch: idpFetch });
}

describe('idJagAssertion', () => {
  it('asks for the verified issuer and returns an ID-JAG whose aud is it (a string or in an array)', async () => {
    const single = idp((audience) => jag(audience));
    await expect(source(single.fetch)(context)).resolves.toBe(jag(ISSUER));
    expect(single.audiences).toEqual([ISSUER]);
    await expect(source(idp(() => jag(['https://other.example', ISSUER])).fetch)(context)).resolves.toBe(jag(['https://other.example', ISSUER]));
  });

  it('refuses an ID-JAG for another audience, or one that is not a JWT with an aud', async () => {
    await expect(source(idp(() => jag('https://other.example')).fetch)(context)).rejects.toMatchObject({
      name: 'OAuthDiscoveryError',
      code: 'AUTH_DISCOVERY_REFUSED',
      problem: 'audience-mismatch',
      document: 'ID-JAG',
      field: 'aud',
      expected: ISSUER,
      claimed: 'https://other.example',
    });
    await expect(source(idp(() => 'opaque-token').fetch)(context)).rejects.toMatchObject({ problem: 'audience-mismatch', claimed: undefined });
    await expect(source(idp(() => jag(undefined)).fetch)(context)).rejects.toMatchObject({ problem: 'audience-mismatch' });
  });
});
