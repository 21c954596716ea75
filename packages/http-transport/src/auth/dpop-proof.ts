/**
 * DPoP proof checks of a protected resource (RFC 9449 §4.3, §7, §9): the proof is a
 * `dpop+jwt` signed with the public key it carries (verified by `jose`), bound to this
 * request (`htm`, `htu`), to the access token (`ath`) and to the token's key (`cnf.jkt`),
 * fresh (`iat` window), never seen before (`jti` in the replay set, {@link DpopReplayStore}) and,
 * when the resource asks for it, carrying a nonce the resource issued (`DPoP-Nonce`).
 */
import { EmbeddedJWK, base64url, calculateJwkThumbprint, jwtVerify, type JWK } from 'jose';
import { ResourceAuthError } from './auth-info.js';
import { DpopReplayCacheFullError, InMemoryDpopReplayStore, type DpopReplayStore } from './dpop-replay-store.js';

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
  /**
   * Proof ids the default in-memory replay set remembers. When it is full, new proofs are
   * refused with 503 and `Retry-After` (an unexpired id is never forgotten). Default 100 000
   * (about 12 MB; with the default 300 s proof age, some 330 DPoP requests a second).
   */
  maxRememberedProofs?: number;
  /**
   * Where accepted proof ids are remembered. Default: in memory, `maxRememberedProofs` ids.
   * The instances of a cluster share one (`RedisStores.dpopReplay` of `@statemcp/redis-store`),
   * so a proof used at one instance is refused at all.
   */
  replayStore?: DpopReplayStore;
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
  readonly #replays: DpopReplayStore;
  #nonce: { current: string; previous: string | undefined; rotatesAt: number } | undefined;

  constructor(options: DpopOptions, now: () => number) {
    this.#options = options;
    this.#now = now;
    this.required = options.required === true;
    this.#replays = options.replayStore ?? new InMemoryDpopReplayStore({ now, ...(options.maxRememberedProofs === undefined ? {} : { maxEntries: options.maxRememberedProofs }) });
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

  /**
   * Verifies a proof for a request; throws {@link ResourceAuthError} on any refusal,
   * {@link DpopReplayCacheFullError} when the replay set has no room, and the replay store's
   * own error when it cannot be reached. A request `readmitted` (relayed by the instance of a
   * cluster that checked it) skips the nonce, which that instance issued, and the replay set,
   * where that instance recorded the proof.
   */
  async check(input: ProofInput, readmitted = false): Promise<void> {
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
    if (readmitted) return;
    if (this.#options.nonce === true) {
      const current = this.currentNonce();
      const nonce = payload['nonce'];
      if (typeof nonce !== 'string' || (nonce !== current && nonce !== this.#nonce?.previous)) {
        throw new ResourceAuthError('use_dpop_nonce', 'the resource server requires a fresh DPoP nonce');
      }
    }
    // Remembered while the proof could still pass the `iat` window: until iat + maxAge + tolerance
    // (one second more: `iat` has whole seconds).
    const iat = typeof payload['iat'] === 'number' ? payload['iat'] : this.#now() / 1000;
    const ttlMs = Math.max(1000, Math.ceil((iat + maxAge + tolerance + 1) * 1000 - this.#now()));
    await this.#remember(input.boundThumbprint, String(payload['jti']), ttlMs);
  }

  /** Records the proof's id in the replay set: refused when already there or when the set is full. */
  async #remember(thumbprint: string, jti: string, ttlMs: number): Promise<void> {
    // A fixed-length key: `jti` is the client's text, of any length.
    const key = base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(`${thumbprint} ${jti}`))));
    const outcome = await this.#replays.record(key, ttlMs);
    switch (outcome.kind) {
      case 'recorded':
        return;
      case 'replayed':
        throw new ResourceAuthError('invalid_dpop_proof', 'DPoP proof replayed (jti already used)');
      case 'full':
        throw new DpopReplayCacheFullError(outcome.retryAfterMs);
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
