/**
 * Verifies opaque (or any) access tokens through the authorization server's token
 * introspection endpoint (RFC 7662): `active` must be true, `aud` must name this resource
 * (RFC 8707 §2; an answer without `aud` is refused unless `requireAudience` is false), `iss`
 * must be the configured issuer (an answer without `iss` is refused when `issuer` is set),
 * and `exp`/`nbf` must allow now. Each call is bounded by a timeout; answers are reused for a
 * short time ({@link IntrospectionCache}).
 */
import { systemClock, type Clock } from '@statemcp/protocol';
import type { TokenVerifier, VerifiedToken } from './auth-info.js';
import { IntrospectionCache, type IntrospectionCacheOptions } from './introspection-cache.js';
import { verifiedFromClaims } from './jwt-verifier.js';
import { AuthorizationServerUnavailableError, TokenRejectedError } from './verifier-errors.js';

/** Options of {@link introspectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The introspection endpoint (from the authorization server's metadata). */
  endpoint: string | URL;
  /** This resource's credentials at the authorization server (`client_secret_basic`). */
  clientId: string;
  clientSecret: string;
  /** This resource's URL: the answer's `aud` must include it. */
  audience: string | URL;
  /**
   * The authorization server's issuer identifier. When set, the answer's `iss` must equal it,
   * and an answer without `iss` is refused (leave it unset for a server that never sends one).
   */
  issuer?: string;
  /**
   * Refuse answers that state no `aud` (RFC 7662 makes it optional, but without it a token
   * issued for another resource of the same server would pass). Default true; set false only
   * for a server that issues tokens for this resource alone.
   */
  requireAudience?: boolean;
  /**
   * How long one introspection call may take, ms; beyond it the request is answered 503
   * (`AuthorizationServerUnavailableError`). Default 5000.
   */
  timeoutMs?: number;
  /** Reuse of the server's answers (see {@link IntrospectionCacheOptions}); `false` asks every time. Default on. */
  cache?: IntrospectionCacheOptions | false;
  /** Wall-clock time in ms since the epoch (`exp`, `nbf`, the cache; tests). Default `Date.now`. */
  now?: () => number;
  /** Timers of the timeout. Default `systemClock` from `@statemcp/protocol`. */
  clock?: Clock;
  /** The fetch to call the endpoint with. Default the global `fetch`. */
  fetch?: typeof fetch;
}

function basicCredentials(id: string, secret: string): string {
  const encode = (value: string): string => encodeURIComponent(value).replace(/%20/g, '+');
  return btoa(`${encode(id)}:${encode(secret)}`);
}

/**
 * A {@link TokenVerifier} asking the authorization server about each token (RFC 7662).
 * Refusals throw `TokenRejectedError`; an unreachable, slow or failing endpoint throws
 * `AuthorizationServerUnavailableError` (the request gets 503, not 401).
 *
 * @example
 * ```ts
 * const verifier = introspectionVerifier({
 *   endpoint: 'https://auth.example.com/token/introspection',
 *   clientId: 'mcp-resource',
 *   clientSecret: process.env.INTROSPECTION_SECRET!,
 *   audience: 'https://mcp.example.com/mcp',
 *   issuer: 'https://auth.example.com',
 * });
 * ```
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const doFetch = options.fetch ?? fetch;
  const audience = String(options.audience);
  const now = options.now ?? Date.now;
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 5000;
  const requireAudience = options.requireAudience ?? true;
  const cache = options.cache === false ? undefined : new IntrospectionCache(options.cache ?? {}, now);

  /** The endpoint's answer, or `AuthorizationServerUnavailableError`. */
  const introspect = async (token: string): Promise<Record<string, unknown>> => {
    const controller = new AbortController();
    const timer = clock.setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await doFetch(String(options.endpoint), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: `Basic ${basicCredentials(options.clientId, options.clientSecret)}`,
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        redirect: 'manual',
        signal: controller.signal,
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new AuthorizationServerUnavailableError(`Token introspection answered HTTP ${response.status}`);
      }
      const answer: unknown = await response.json();
      if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw new AuthorizationServerUnavailableError('Token introspection answered something other than a JSON object');
      return answer as Record<string, unknown>;
    } catch (error) {
      if (error instanceof AuthorizationServerUnavailableError) throw error;
      const reason = controller.signal.aborted ? `timed out after ${timeoutMs} ms` : 'failed';
      throw new AuthorizationServerUnavailableError(`Token introspection ${reason}`, { cause: error });
    } finally {
      clock.clearTimeout(timer);
    }
  };

  /** The principal of an answer, or `TokenRejectedError`. */
  const check = (answer: Record<string, unknown>): VerifiedToken => {
    if (answer['active'] !== true) throw new TokenRejectedError('The token is not active');
    const aud = answer['aud'];
    const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
    if (audiences.length === 0 ? requireAudience : !audiences.includes(audience)) {
      throw new TokenRejectedError(`The token is not for this resource (aud ${audiences.length === 0 ? 'absent' : JSON.stringify(audiences)})`);
    }
    if (options.issuer !== undefined && answer['iss'] !== options.issuer) {
      throw new TokenRejectedError(`Unexpected issuer ${answer['iss'] === undefined ? '(absent)' : JSON.stringify(answer['iss'])}`);
    }
    const seconds = now() / 1000;
    if (typeof answer['exp'] === 'number' && answer['exp'] <= seconds) throw new TokenRejectedError('The token has expired');
    if (typeof answer['nbf'] === 'number' && answer['nbf'] > seconds) throw new TokenRejectedError('The token is not valid yet');
    return verifiedFromClaims(answer, new URL(audience));
  };

  return {
    async verify(token) {
      const key = cache === undefined ? undefined : await IntrospectionCache.keyOf(token);
      const cached = key === undefined ? undefined : cache?.get(key);
      if (cached !== undefined) {
        if (cached.ok) return cached.token;
        throw cached.error;
      }
      const answer = await introspect(token);
      let verified: VerifiedToken;
      try {
        verified = check(answer);
      } catch (error) {
        if (key !== undefined) cache?.refused(key, error);
        throw error;
      }
      if (key !== undefined) cache?.accepted(key, verified);
      return verified;
    },
  };
}
