/**
 * The shapes shared by the protected-resource side: the verified principal handed to handlers
 * (`AuthInfo`), the verifier contract, and the refusal a verifier or proof check raises.
 */

/** A verified access token: what handlers see as `extra.authInfo` (and `extra.auth`). */
export interface AuthInfo {
  /** The access token as presented (never logged by statemcp). */
  readonly token: string;
  /** The OAuth client the token was issued to (`client_id`, else `azp`, else `sub`). */
  readonly clientId: string;
  /** The granted scopes. */
  readonly scopes: readonly string[];
  /** Expiry, seconds since the epoch, when the token has one. */
  readonly expiresAt?: number | undefined;
  /** The resource (audience) the token was issued for. */
  readonly resource?: URL | undefined;
  /** The authorization server that issued it (`iss`). */
  readonly issuer?: string | undefined;
  /** The resource owner (`sub`); absent for some client-credentials tokens. */
  readonly subject?: string | undefined;
  /** `Bearer`, or `DPoP` for a sender-constrained token whose proof was checked. */
  readonly tokenType: 'Bearer' | 'DPoP';
  /** The JWK thumbprint the token is bound to (`cnf.jkt`), for DPoP tokens. */
  readonly confirmationThumbprint?: string | undefined;
  /** Every claim of the token (JWT payload or introspection answer). */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** What a verifier learned from a token, before the resource's own checks. */
export type VerifiedToken = Omit<AuthInfo, 'token' | 'tokenType'>;

/**
 * Checks an access token and says what it grants. Throw (any error) when the token is not
 * valid for this resource: the request gets 401 `invalid_token`.
 * Ready verifiers: {@link jwtVerifier} and {@link introspectionVerifier}.
 */
export interface TokenVerifier {
  verify(token: string): Promise<VerifiedToken>;
}

/** The OAuth error codes a protected resource answers with (RFC 6750 §3.1, RFC 9449 §7.1, §9). */
export type ResourceErrorCode = 'invalid_request' | 'invalid_token' | 'insufficient_scope' | 'invalid_dpop_proof' | 'use_dpop_nonce';

/** A refusal on the way to a verified principal; becomes a 401/400/403 with `WWW-Authenticate`. */
export class ResourceAuthError extends Error {
  override readonly name = 'ResourceAuthError';
  readonly error: ResourceErrorCode;
  constructor(error: ResourceErrorCode, description: string) {
    super(description);
    this.error = error;
  }
}

/** The key a session is bound to: the issuer and the subject (or client) of its token. */
export function principalKey(info: AuthInfo): string {
  return `${info.issuer ?? ''} ${info.subject ?? `client:${info.clientId}`}`;
}

/** True for a value shaped as {@link AuthInfo} (what `extra.authInfo` holds behind the middleware). */
export function isAuthInfo(value: unknown): value is AuthInfo {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<AuthInfo>;
  return typeof candidate.token === 'string' && typeof candidate.clientId === 'string' && Array.isArray(candidate.scopes);
}
