/**
 * The verified OAuth principal of a message (`InboundContext.authInfo` when an authorization
 * layer such as `@statemcp/http-transport/auth` admitted the request): one shape shared by the
 * transports that produce it and the handlers that read it (`extra.auth` in `@statemcp/server`).
 */

/** A verified access token and what it grants. */
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

/** True for a value shaped as {@link AuthInfo}. */
export function isAuthInfo(value: unknown): value is AuthInfo {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<AuthInfo>;
  return typeof candidate.token === 'string' && typeof candidate.clientId === 'string' && Array.isArray(candidate.scopes) && (candidate.tokenType === 'Bearer' || candidate.tokenType === 'DPoP');
}
