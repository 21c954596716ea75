/**
 * Test-only token factory: an issuer key pair with its JWKS, signed access tokens with
 * overridable claims, and a DPoP key that signs proofs. Not exported from the package.
 */
import { SignJWT, base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, type JWTPayload, type CryptoKey } from 'jose';

export const NOW_MS = Date.UTC(2026, 10, 25, 12, 0, 0);
export const NOW_S = NOW_MS / 1000;
export const ISSUER = 'https://auth.test.example';

export interface TestIssuer {
  readonly jwks: { keys: JWK[] };
  token(claims?: JWTPayload, options?: { alg?: string; expiresIn?: number; typ?: string }): Promise<string>;
}

export async function createTestIssuer(audience: string): Promise<TestIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  return {
    jwks: { keys: [jwk] },
    token: (claims = {}, options = {}) =>
      new SignJWT({ scope: 'mcp', client_id: 'client-a', sub: 'alice', iss: ISSUER, aud: audience, ...claims })
        .setProtectedHeader({ alg: options.alg ?? 'ES256', kid: 'k1', typ: options.typ ?? 'at+jwt' })
        .setIssuedAt(NOW_S - 10)
        .setExpirationTime(NOW_S + (options.expiresIn ?? 3600))
        .sign(privateKey),
  };
}

/** A token with `alg: none` (no signature), as an attacker would send it. */
export function unsignedToken(payload: JWTPayload): string {
  const encode = (value: unknown): string => base64url.encode(JSON.stringify(value));
  return `${encode({ alg: 'none', typ: 'at+jwt' })}.${encode(payload)}.`;
}

export interface DpopKey {
  readonly thumbprint: string;
  proof(claims: { htm: string; htu: string; token?: string; nonce?: string; iat?: number; jti?: string }): Promise<string>;
}

export async function createDpopKey(): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  const thumbprint = await calculateJwkThumbprint(jwk, 'sha256');
  let counter = 0;
  return {
    thumbprint,
    proof: async ({ htm, htu, token, nonce, iat, jti }) => {
      const ath = token === undefined ? undefined : base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))));
      return signProof(privateKey, jwk, { htm, htu, ath, nonce, iat: iat ?? NOW_S, jti: jti ?? `proof-${++counter}` });
    },
  };
}

function signProof(key: CryptoKey, jwk: JWK, claims: Record<string, unknown>): Promise<string> {
  const payload = Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined));
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk }).sign(key);
}
