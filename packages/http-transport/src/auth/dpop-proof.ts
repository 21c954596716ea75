/**
 * DPoP proof checks of a protected resource (RFC 9449 §4.3, §7, §9): the proof is a
 * `dpop+jwt` signed with the public key it carries (verified by `jose`), bound to this
 * request (`htm`, `htu`), to the access token (`ath`) and to the token's key (`cnf.jkt`),
 * fresh (`iat` window), never seen before (`jti` in a bounded replay cache) and, when the
 * resource asks for it, carrying a nonce the resource issued (`DPoP-Nonce`).
 */
import { EmbeddedJWK, base64url, calculateJwkThumbprint, jwtVerify, type JWK } from 'jose';
import { ResourceAuthError } from './auth-info.js';

/** Options of the DPoP checks (`dpop` of {@link ProtectedResourceOptions}). */
export interface DpopOptions {
  /** Refuse plain Bearer tokens: every token must be DPoP-bound. Default false. */
  required?: boolean;
  /** Ask for a server nonce (`use_dpop_nonce`) in every proof. Default false. */
  nonce?: boolean;
  /** How long an issued nonce stays valid, seconds (the previous one is still accepted). Default 300. */
  nonceLifetimeSeconds?: number;
  /** Oldest accepted proof `iat`, seconds. Default 300. */
  maxProofAgeSeconds?: number;
  /** Allowed clock skew for `iat`, seconds. Default 5. */
  clockToleranceSeconds?: number;
  /** Allowed proof algorithms. Default ES256, ES384, RS256, PS256, EdDSA. */
  algorithms?: readonly string[];
  /** Proof ids remembered for replay detection. Default 10 000. */
  maxRememberedProofs?: number;
}

const DEFAULT_PROOF_ALGORITHMS = ['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA'];
const encoder = new TextEncoder();

function randomNonce(): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(24)));
}

/** What one checked request tells the DPoP checker. */
export interface ProofInput {
  readonly proof: string;
  readonly method: string;
  /** The request URI the proof must name: scheme, host and path, no query or fragment. */
  readonly uri: string;
  readonly accessToken: string;
  /** The `cnf.jkt` of the access token. */
  readonly boundThumbprint: string;
}

/** The DPoP state of one protected resource: replay cache and nonces. */
export class DpopChecker {
  readonly required: boolean;
  readonly #options: DpopOptions;
  readonly #now: () => number;
  /** jti → time (ms) until which it is remembered; insertion order is age order. */
  readonly #seen = new Map<string, number>();
  #nonce: { current: string; previous: string | undefined; rotatesAt: number } | undefined;

  constructor(options: DpopOptions, now: () => number) {
    this.#options = options;
    this.#now = now;
    this.required = options.required === true;
  }

  /** The nonce to send in `DPoP-Nonce` now, when nonces are on. */
  currentNonce(): string | undefined {
    if (this.#options.nonce !== true) return undefined;
    const now = this.#now();
    const lifetime = (this.#options.nonceLifetimeSeconds ?? 300) * 1000;
    if (this.#nonce === undefined) this.#nonce = { current: randomNonce(), previous: undefined, rotatesAt: now + lifetime };
    else if (now >= this.#nonce.rotatesAt) {
      const stale = now >= this.#nonce.rotatesAt + lifetime;
      this.#nonce = { current: randomNonce(), previous: stale ? undefined : this.#nonce.current, rotatesAt: now + lifetime };
    }
    return this.#nonce.current;
  }

  /** Verifies a proof for a request; throws {@link ResourceAuthError} on any failure. */
  async check(input: ProofInput): Promise<void> {
    const maxAge = this.#options.maxProofAgeSeconds ?? 300;
    const tolerance = this.#options.clockToleranceSeconds ?? 5;
    let payload: Record<string, unknown>;
    let jwk: JWK;
    try {
      const verified = await jwtVerify(input.proof, EmbeddedJWK, {
        typ: 'dpop+jwt',
        algorithms: [...(this.#options.algorithms ?? DEFAULT_PROOF_ALGORITHMS)].filter((alg) => alg.toLowerCase() !== 'none'),
        maxTokenAge: maxAge,
        clockTolerance: tolerance,
        currentDate: new Date(this.#now()),
        requiredClaims: ['jti', 'htm', 'htu', 'iat'],
      });
      payload = verified.payload;
      jwk = verified.protectedHeader.jwk as JWK;
    } catch (error) {
      throw new ResourceAuthError('invalid_dpop_proof', `invalid DPoP proof: ${error instanceof Error ? error.message : 'unreadable'}`);
    }
    if (payload['htm'] !== input.method) throw new ResourceAuthError('invalid_dpop_proof', 'DPoP proof htm does not match the request method');
    if (typeof payload['htu'] !== 'string' || !sameUri(payload['htu'], input.uri)) {
      throw new ResourceAuthError('invalid_dpop_proof', 'DPoP proof htu does not match the request URI');
    }
    const expectedAth = base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(input.accessToken))));
    if (payload['ath'] !== expectedAth) throw new ResourceAuthError('invalid_dpop_proof', 'DPoP proof ath does not match the access token');
    if ((await calculateJwkThumbprint(jwk, 'sha256')) !== input.boundThumbprint) {
      throw new ResourceAuthError('invalid_token', 'the DPoP proof key is not the key the token is bound to');
    }
    if (this.#options.nonce === true) {
      const current = this.currentNonce();
      const nonce = payload['nonce'];
      if (typeof nonce !== 'string' || (nonce !== current && nonce !== this.#nonce?.previous)) {
        throw new ResourceAuthError('use_dpop_nonce', 'the resource server requires a fresh DPoP nonce');
      }
    }
    this.#remember(`${input.boundThumbprint} ${String(payload['jti'])}`, maxAge + tolerance);
  }

  #remember(key: string, seconds: number): void {
    const now = this.#now();
    for (const [seenKey, until] of this.#seen) {
      if (until > now) break;
      this.#seen.delete(seenKey);
    }
    const until = this.#seen.get(key);
    if (until !== undefined && until > now) throw new ResourceAuthError('invalid_dpop_proof', 'DPoP proof replayed (jti already used)');
    this.#seen.set(key, now + seconds * 1000);
    const max = this.#options.maxRememberedProofs ?? 10_000;
    while (this.#seen.size > max) {
      const oldest = this.#seen.keys().next().value;
      if (oldest === undefined) break;
      this.#seen.delete(oldest);
    }
  }
}

/** Compares two URIs as RFC 9449 §4.3 asks: without query and fragment, after normalisation. */
function sameUri(claimed: string, actual: string): boolean {
  try {
    const a = new URL(claimed);
    const b = new URL(actual);
    return a.origin === b.origin && a.pathname === b.pathname;
  } catch {
    return false;
  }
}
