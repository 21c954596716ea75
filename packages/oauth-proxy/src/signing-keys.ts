/**
 * The proxy's token signing keys and their rotation. The proxy publishes every key of its list
 * in its JWKS and signs with the first: rotating is a matter of order (see the package README,
 * "Key rotation"). Keys are private JWKs with `kid`, `alg` and `use: 'sig'`; the public halves
 * are what resource servers fetch from `<issuer>/jwks`.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';

/** The asymmetric algorithms a signing key may have. */
export type SigningAlgorithm = 'ES256' | 'ES384' | 'PS256' | 'RS256' | 'EdDSA';

const ALGORITHMS: ReadonlySet<string> = new Set<SigningAlgorithm>(['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA']);

/** A private signing key as a JWK, with the fields the proxy needs. */
export interface SigningKey extends JWK {
  readonly kid: string;
  readonly alg: SigningAlgorithm;
  readonly use: 'sig';
}

/** The members of a JWK that are private (RFC 7518 §6.2.2, §6.3.2; RFC 8037 §2). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/**
 * A new private signing key, its `kid` the RFC 7638 thumbprint. Store it as a secret (its JSON)
 * and give it to the proxy in `signingKeys`.
 *
 * @example
 * ```ts
 * import { generateSigningKey } from '@statemcp/oauth-proxy';
 *
 * const key = await generateSigningKey(); // ES256
 * console.log(JSON.stringify(key)); // keep it in your secret store
 * ```
 */
export async function generateSigningKey(alg: SigningAlgorithm = 'ES256'): Promise<SigningKey> {
  if (!ALGORITHMS.has(alg)) throw new TypeError(`Unsupported signing algorithm ${String(alg)}`);
  const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'EdDSA' && { crv: 'Ed25519' }) });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg, use: 'sig' };
}

/** The public half of a key: what the JWKS publishes. */
export function publicKeyOf(key: SigningKey): JWK {
  const copy: Record<string, unknown> = { ...key };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  return copy;
}

/** Checks a key list: not empty, each a private asymmetric key with its own `kid` and a known `alg`. */
export function checkSigningKeys(keys: readonly SigningKey[]): void {
  if (keys.length === 0) throw new TypeError('signingKeys must hold at least one key');
  const kids = new Set<string>();
  for (const key of keys) {
    if (typeof key.kid !== 'string' || key.kid === '') throw new TypeError('Every signing key needs a kid');
    if (kids.has(key.kid)) throw new TypeError(`Two signing keys have the kid ${key.kid}`);
    kids.add(key.kid);
    if (!ALGORITHMS.has(key.alg)) throw new TypeError(`The signing key ${key.kid} has no supported alg (one of ${[...ALGORITHMS].join(', ')})`);
    if (key.kty === 'oct') throw new TypeError(`The signing key ${key.kid} is symmetric; the proxy signs with asymmetric keys only`);
    if (typeof key.d !== 'string') throw new TypeError(`The signing key ${key.kid} is a public key; the proxy needs the private key`);
  }
}
