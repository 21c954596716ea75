/**
 * The shapes of the protected-resource side: the verifier contract, what a verifier learns,
 * and the refusal a verifier or proof check raises. The verified principal itself
 * (`AuthInfo`) is `@statemcp/protocol`'s, so handlers read it without this package.
 */
import type { AuthInfo } from '@statemcp/protocol';

/** What a verifier learned from a token, before the resource's own checks. */
export type VerifiedToken = Omit<AuthInfo, 'token' | 'tokenType'>;

/**
 * Checks an access token and says what it grants. Throw (any error) when the token is not
 * valid for this resource: the request gets 401 `invalid_token`.
 * Ready verifiers: {@link jwtVerifier} and {@link introspectionVerifier}.
 */
export interface TokenVerifier {
  /** Verifies an access token: its principal and claims, or a rejection that becomes a 401 `invalid_token`. */
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
