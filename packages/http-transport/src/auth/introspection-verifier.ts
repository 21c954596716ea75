/**
 * Verifies opaque (or any) access tokens through the authorization server's token
 * introspection endpoint (RFC 7662): `active` must be true, the audience (when the server
 * states one) must name this resource, and `exp` must lie ahead.
 */
import type { TokenVerifier } from './auth-info.js';
import { verifiedFromClaims } from './jwt-verifier.js';

/** Options of {@link introspectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The introspection endpoint (from the authorization server's metadata). */
  endpoint: string | URL;
  /** This resource's credentials at the authorization server (`client_secret_basic`). */
  clientId: string;
  clientSecret: string;
  /** This resource's URL: an `aud` in the answer must include it. */
  audience: string | URL;
  /** When set, the answer's `iss` (if present) must equal it. */
  issuer?: string;
  /** Require the answer to state an `aud`. Default false (RFC 7662 makes it optional). */
  requireAudience?: boolean;
  /** Wall-clock time in ms since the epoch (tests). Default `Date.now`. */
  now?: () => number;
  /** The fetch to call the endpoint with. Default the global `fetch`. */
  fetch?: typeof fetch;
}

function basicCredentials(id: string, secret: string): string {
  const encode = (value: string): string => encodeURIComponent(value).replace(/%20/g, '+');
  return btoa(`${encode(id)}:${encode(secret)}`);
}

/**
 * A {@link TokenVerifier} asking the authorization server about each token (RFC 7662).
 *
 * @example
 * ```ts
 * const verifier = introspectionVerifier({
 *   endpoint: 'https://auth.example.com/token/introspection',
 *   clientId: 'mcp-resource',
 *   clientSecret: process.env.INTROSPECTION_SECRET!,
 *   audience: 'https://mcp.example.com/mcp',
 * });
 * ```
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const doFetch = options.fetch ?? fetch;
  const audience = String(options.audience);
  const now = options.now ?? Date.now;
  return {
    async verify(token) {
      const response = await doFetch(String(options.endpoint), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: `Basic ${basicCredentials(options.clientId, options.clientSecret)}`,
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      });
      if (!response.ok) throw new Error(`introspection failed with HTTP ${response.status}`);
      const answer = (await response.json()) as Record<string, unknown>;
      if (answer['active'] !== true) throw new Error('token is not active');
      const aud = answer['aud'];
      const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
      if (audiences.length === 0 ? options.requireAudience === true : !audiences.includes(audience)) {
        throw new Error('token is not for this resource');
      }
      if (options.issuer !== undefined && answer['iss'] !== undefined && answer['iss'] !== options.issuer) throw new Error('unexpected issuer');
      if (typeof answer['exp'] === 'number' && answer['exp'] * 1000 <= now()) throw new Error('token expired');
      return verifiedFromClaims(answer, new URL(audience));
    },
  };
}
