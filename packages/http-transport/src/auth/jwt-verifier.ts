/**
 * Verifies JWT access tokens (RFC 9068) with `jose`: signature against the issuer's JWKS
 * (fetched and cached by `createRemoteJWKSet`, or a local key set), the `typ` header `at+jwt`
 * (RFC 9068 §4, so an ID token or another JWT of the issuer is not taken for an access token),
 * `iss`, `aud` bound to this resource, `exp`/`nbf` with a small tolerance, and an algorithm
 * allow-list that never holds `none` (jose refuses unsigned tokens outright).
 */
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { TokenVerifier, VerifiedToken } from './auth-info.js';
import { AuthorizationServerUnavailableError, TokenRejectedError } from './verifier-errors.js';

/** Asymmetric JWS algorithms accepted by default. */
export const DEFAULT_TOKEN_ALGORITHMS: readonly string[] = Object.freeze(['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA']);

/** Options of {@link jwtVerifier}. */
export interface JwtVerifierOptions {
  /** The authorization server's issuer identifier; `iss` must equal it. */
  issuer: string;
  /** Accepted `aud` values: this resource's URL (the MCP endpoint). */
  audience: string | URL | readonly (string | URL)[];
  /** Where to fetch the issuer's keys (cached and refreshed on unknown `kid`). */
  jwksUri?: string | URL;
  /** A fixed key set instead of `jwksUri` (tests, offline deployments). */
  jwks?: JSONWebKeySet;
  /** Allowed `alg` values. Default {@link DEFAULT_TOKEN_ALGORITHMS}; `none` is always refused. */
  algorithms?: readonly string[];
  /** Allowed clock skew, seconds. Default 30. */
  clockToleranceSeconds?: number;
  /** Wall-clock time in ms since the epoch (tests). Default `Date.now`. */
  now?: () => number;
  /**
   * Require the `typ` header `at+jwt` (or `application/at+jwt`), RFC 9068 §4. Default true.
   * Set false only for an authorization server that does not type its access tokens, and only
   * when it signs no other JWTs (ID tokens) with `aud` set to this resource.
   */
  requireAccessTokenType?: boolean;
}

function scopesOf(payload: JWTPayload): string[] {
  const scope = payload['scope'] ?? payload['scp'];
  if (typeof scope === 'string') return scope.split(' ').filter((part) => part !== '');
  if (Array.isArray(scope)) return scope.filter((part): part is string => typeof part === 'string');
  return [];
}

/** The part of a token's claims every verifier maps the same way. */
export function verifiedFromClaims(claims: Record<string, unknown>, resource: URL | undefined): VerifiedToken {
  const text = (name: string): string | undefined => (typeof claims[name] === 'string' ? (claims[name]) : undefined);
  const cnf = claims['cnf'];
  const jkt = typeof cnf === 'object' && cnf !== null && typeof (cnf as { jkt?: unknown }).jkt === 'string' ? (cnf as { jkt: string }).jkt : undefined;
  const clientId = text('client_id') ?? text('azp') ?? text('sub') ?? '';
  return {
    clientId,
    scopes: scopesOf(claims),
    expiresAt: typeof claims['exp'] === 'number' ? claims['exp'] : undefined,
    resource,
    issuer: text('iss'),
    subject: text('sub'),
    confirmationThumbprint: jkt,
    claims: Object.freeze({ ...claims }),
  };
}

/** jose's errors that mean the issuer's keys could not be had (not that the token is bad). */
const KEY_SET_UNAVAILABLE = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JOSE_GENERIC']);

/** A verification failure as the typed error of this package (`remote`: the keys are fetched). */
function typedFailure(error: unknown, remote: boolean): Error {
  const keySetFailure = error instanceof errors.JOSEError ? KEY_SET_UNAVAILABLE.has(error.code) : remote;
  if (!keySetFailure) return new TokenRejectedError(`The JWT access token was refused: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  // A JWKS fetch that failed, timed out or answered something else than a key set.
  return new AuthorizationServerUnavailableError('The issuer\'s key set (JWKS) could not be fetched', { cause: error });
}

/**
 * A {@link TokenVerifier} for JWT access tokens signed by `issuer`. Refusals throw
 * `TokenRejectedError`; a key set that cannot be fetched throws
 * `AuthorizationServerUnavailableError` (the request gets 503, not 401).
 *
 * @example
 * ```ts
 * const verifier = jwtVerifier({
 *   issuer: 'https://auth.example.com',
 *   jwksUri: 'https://auth.example.com/jwks',
 *   audience: 'https://mcp.example.com/mcp',
 * });
 * ```
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const keys =
    options.jwks !== undefined
      ? createLocalJWKSet(options.jwks)
      : options.jwksUri !== undefined
        ? createRemoteJWKSet(new URL(options.jwksUri))
        : undefined;
  if (keys === undefined) throw new TypeError('jwtVerifier needs jwksUri or jwks');
  const algorithms = (options.algorithms ?? DEFAULT_TOKEN_ALGORITHMS).filter((alg) => alg.toLowerCase() !== 'none');
  if (algorithms.length === 0) throw new TypeError('jwtVerifier needs at least one signing algorithm');
  const audiences = (Array.isArray(options.audience) ? options.audience : [options.audience]) as readonly (string | URL)[];
  const audience = audiences.map((value) => String(value));
  const now = options.now ?? Date.now;
  return {
    async verify(token) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          issuer: options.issuer,
          audience,
          algorithms,
          clockTolerance: options.clockToleranceSeconds ?? 30,
          currentDate: new Date(now()),
          requiredClaims: ['exp'],
          // jose compares `typ` case-insensitively and without an `application/` prefix.
          ...(options.requireAccessTokenType === false ? {} : { typ: 'at+jwt' }),
        }));
      } catch (error) {
        throw typedFailure(error, options.jwks === undefined);
      }
      const aud = Array.isArray(payload.aud) ? payload.aud.find((value) => audience.includes(value)) : payload.aud;
      return verifiedFromClaims(payload, aud === undefined ? undefined : new URL(aud));
    },
  };
}
