/**
 * `typ: at+jwt` (issue 32, low): the JWT verifier requires the access-token type header by
 * default (RFC 9068 §4), so another JWT of the same issuer (an ID token whose `aud` is this
 * resource, a logout token) is not taken for an access token; `application/at+jwt` is accepted,
 * and `requireAccessTokenType: false` relaxes it for servers that do not type their tokens.
 */
import { createProtectedResource, jwtVerifier, type JwtVerifierOptions } from '@statemcp/http-transport/auth';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ISSUER, createIssuer, postInitialize, serveJwks, serveProtected, type TestIssuer } from '../src/serverauth-issuer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await createIssuer();
});

/** A protected resource whose verifier fetches the issuer's keys from a JWKS endpoint on loopback. */
async function setup(options: Partial<JwtVerifierOptions> = {}): Promise<{ url: string; call: (token: string) => ReturnType<typeof postInitialize> }> {
  const jwks = await serveJwks({ jwks: issuer.jwks });
  cleanups.push(jwks.close);
  const server = await serveProtected((url) =>
    createProtectedResource({
      resource: url,
      authorizationServers: [ISSUER],
      verifier: jwtVerifier({ issuer: ISSUER, jwksUri: jwks.url, audience: url, ...options }),
    }),
  );
  cleanups.push(server.close);
  return { url: server.url, call: (token) => postInitialize(server.url, { authorization: `Bearer ${token}` }) };
}

describe('jwtVerifier typ', () => {
  it('refuses by default a JWT of the issuer that is not typed as an access token', async () => {
    const { url, call } = await setup();
    const idToken = await issuer.token({ aud: url, nonce: 'n-1' }, { typ: 'JWT' });
    const refused = await call(idToken);
    expect(refused.status, 'a JWT with typ "JWT" must not pass as an access token').toBe(401);
    expect(refused.challenge).toContain('error="invalid_token"');
    expect((await call(await issuer.token({ aud: url }, { typ: null }))).status).toBe(401);
    expect((await call(await issuer.token({ aud: url }, { typ: 'logout+jwt' }))).status).toBe(401);
  });

  it('accepts at+jwt and application/at+jwt', async () => {
    const { url, call } = await setup();
    expect((await call(await issuer.token({ aud: url }))).status).toBe(200);
    expect((await call(await issuer.token({ aud: url }, { typ: 'application/at+jwt' }))).status).toBe(200);
  });

  it('accepts untyped tokens when requireAccessTokenType is false', async () => {
    const { url, call } = await setup({ requireAccessTokenType: false });
    expect((await call(await issuer.token({ aud: url }, { typ: 'JWT' }))).status).toBe(200);
    expect((await call(await issuer.token({ aud: url }, { typ: null }))).status).toBe(200);
  });
});
