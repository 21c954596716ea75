/**
 * DPoP (RFC 9449) for an OAuth client: one key pair per provider, oauth4webapi's handle for
 * the token endpoint (it tracks the authorization server's nonces), and proofs for the
 * resource server's requests — a fresh `jti` each time, `ath` binding the access token, and
 * the nonce the resource server last supplied for that origin.
 */
import { SignJWT, base64url, exportJWK, importJWK } from 'jose';
import * as oauth from 'oauth4webapi';
import type { OAuthStoredTokens } from './store.js';

type KeyPair = Awaited<ReturnType<typeof oauth.generateKeyPair>>;
type StoredDpopKey = NonNullable<OAuthStoredTokens['dpop_key']>;

/** A DPoP key and the resource servers' nonces. */
export class DpopKey {
  readonly #keyPair: KeyPair;
  readonly #nonces = new Map<string, string>();
  readonly handle: oauth.DPoPHandle;
  #jwk: Promise<Record<string, unknown>> | undefined;

  private constructor(keyPair: KeyPair) {
    this.#keyPair = keyPair;
    this.handle = oauth.DPoP({}, keyPair);
  }

  /** A new ES256 key pair; the private key is extractable, to be stored with the tokens bound to it. */
  static async generate(): Promise<DpopKey> {
    return new DpopKey(await oauth.generateKeyPair('ES256', { extractable: true }));
  }

  /** The key pair of a stored private JWK (as {@link toJwk} wrote it). */
  static async fromJwk(jwk: StoredDpopKey): Promise<DpopKey> {
    const { kty, crv, x, y, d } = jwk;
    const privateKey = await importJWK({ kty, crv, x, y, d }, 'ES256', { extractable: true });
    const publicKey = await importJWK({ kty, crv, x, y }, 'ES256', { extractable: true });
    if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) throw new TypeError('A stored DPoP key must be an EC key');
    return new DpopKey({ privateKey, publicKey });
  }

  /** The private key as a JWK (`d` included): store it as a secret, with the tokens bound to it. */
  async toJwk(): Promise<StoredDpopKey> {
    const { kty, crv, x, y, d } = await exportJWK(this.#keyPair.privateKey);
    if (kty === undefined || crv === undefined || x === undefined || y === undefined || d === undefined) throw new TypeError('The DPoP key did not export as an EC private JWK');
    return { kty, crv, x, y, d };
  }

  /** Remembers the nonce a resource server sent (`DPoP-Nonce`); true when it is new. */
  takeNonce(url: string, nonce: string): boolean {
    const origin = new URL(url).origin;
    if (this.#nonces.get(origin) === nonce) return false;
    this.#nonces.set(origin, nonce);
    return true;
  }

  /** A proof for one request to a resource server, bound to `accessToken`. */
  async proof(method: string, url: string, accessToken: string): Promise<string> {
    const target = new URL(url);
    this.#jwk ??= exportJWK(this.#keyPair.publicKey).then(({ kty, crv, x, y }) => ({ kty, crv, x, y }));
    const ath = base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken))));
    const nonce = this.#nonces.get(target.origin);
    return new SignJWT({ htm: method, htu: `${target.origin}${target.pathname}`, ath, ...(nonce !== undefined && { nonce }) })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await this.#jwk })
      .setIssuedAt()
      .setJti(crypto.randomUUID())
      .sign(this.#keyPair.privateKey);
  }
}
