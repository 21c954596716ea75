/**
 * The typed failures of token verification. Clients only ever see a generic answer (401
 * `invalid_token`, or 503 "authorization server unavailable"); these errors, with the real
 * reason as `cause`, go to the server's `onError`, so a JWKS URL, an internal host name or an
 * exception's text never reaches a client.
 */
import { LocalErrorCode, McpError } from '@statemcp/protocol';

/**
 * A token verifier refused a token (bad signature, expired, wrong audience, inactive, …). The
 * client gets 401 `invalid_token` with a generic description; this error (code `AUTH_REQUIRED`,
 * category `auth`) carries the verifier's reason as `cause` to `onError`.
 */
export class TokenRejectedError extends McpError {
  override readonly name: string = 'TokenRejectedError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(LocalErrorCode.AuthRequired, message, options);
  }
}

/**
 * The authorization server could not answer: its JWKS or introspection endpoint is unreachable,
 * timed out, or answered with an error status or an unreadable body. The client gets 503 with
 * `Retry-After`; a local error with the `TRANSPORT_ERROR` code (category `interrupted`: retry
 * later). Custom verifiers throw it for the same outcome.
 */
export class AuthorizationServerUnavailableError extends McpError {
  override readonly name: string = 'AuthorizationServerUnavailableError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(LocalErrorCode.TransportError, message, options);
  }
}
