import { describe, expect, it } from 'vitest';
import { jwtVerifier } from './jwt-verifier.js';
import { ISSUER, NOW_MS, createTestIssuer } from './test-tokens.js';
import { TokenRejectedError } from './verifier-errors.js';

const RESOURCE = 'https://mcp.test.example/mcp';

describe('jwtVerifier', () => {
  describe('#verify', () => {
    it('requires the typ header at+jwt by default, in either spelling (RFC 9068 §4)', async () => {
      const issuer = await createTestIssuer(RESOURCE);
      const verifier = jwtVerifier({ issuer: ISSUER, jwks: issuer.jwks, audience: RESOURCE, now: () => NOW_MS });
      await expect(verifier.verify(await issuer.token())).resolves.toMatchObject({ subject: 'alice' });
      await expect(verifier.verify(await issuer.token({}, { typ: 'application/at+jwt' }))).resolves.toMatchObject({ subject: 'alice' });
      const refused = verifier.verify(await issuer.token({}, { typ: 'JWT' }));
      await expect(refused).rejects.toBeInstanceOf(TokenRejectedError);
      await expect(refused).rejects.toMatchObject({ code: 'AUTH_REQUIRED', category: 'auth' });
    });

    it('accepts other types when requireAccessTokenType is false', async () => {
      const issuer = await createTestIssuer(RESOURCE);
      const verifier = jwtVerifier({ issuer: ISSUER, jwks: issuer.jwks, audience: RESOURCE, now: () => NOW_MS, requireAccessTokenType: false });
      await expect(verifier.verify(await issuer.token({}, { typ: 'JWT' }))).resolves.toMatchObject({ subject: 'alice' });
    });

    it('refuses a bad token with TokenRejectedError carrying the reason as cause', async () => {
      const issuer = await createTestIssuer(RESOURCE);
      const verifier = jwtVerifier({ issuer: ISSUER, jwks: issuer.jwks, audience: RESOURCE, now: () => NOW_MS });
      const error: unknown = await verifier.verify(await issuer.token({ aud: 'https://other.example/mcp' })).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TokenRejectedError);
      expect((error as Error).cause).toBeInstanceOf(Error);
      await expect(verifier.verify('not-a-jwt')).rejects.toBeInstanceOf(TokenRejectedError);
    });
  });
});
