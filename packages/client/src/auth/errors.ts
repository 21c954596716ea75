/**
 * The typed refusal of OAuth discovery: a document the client fetched (protected resource
 * metadata, authorization server metadata) or obtained (an ID-JAG) claims something that would
 * let one party stand in for another — an issuer other than the one it was fetched for, a
 * resource other than the MCP server, a URL outside the allowed origins, an audience other than
 * the verified authorization server. The client stops before any credential is sent.
 */
import { LocalErrorCode, McpError } from '@statemcp/protocol';

/** What was wrong with the document. */
export type OAuthDiscoveryProblem =
  /** Authorization server metadata whose `issuer` is not the issuer it was fetched for (RFC 8414 §3.3, OpenID Connect Discovery 1.0 §4.3). */
  | 'issuer-mismatch'
  /** Protected resource metadata whose `resource` is not the MCP server (RFC 9728 §3.3). */
  | 'resource-mismatch'
  /** A metadata URL named by the server outside the origins the client fetches metadata from. */
  | 'origin-not-allowed'
  /** An assertion (an ID-JAG) issued for another audience than the verified authorization server. */
  | 'audience-mismatch'
  /** Pre-registered credentials bound to another issuer than the verified authorization server. */
  | 'client-issuer-mismatch'
  /** A required member is absent or not of its type (`resource`, `issuer`, `authorization_servers`), or an issuer is not a valid issuer URL. */
  | 'invalid-document';

/**
 * An OAuth discovery document or assertion refused before any credential was sent (code
 * `AUTH_DISCOVERY_REFUSED`, category `auth`). Says which document (`document`: its URL, or
 * `ID-JAG`) claimed what (`field`, `claimed`) where `expected` was required.
 *
 * @example
 * ```ts
 * try {
 *   await client.connect(transport);
 * } catch (error) {
 *   const refused = error instanceof Error && error.cause instanceof OAuthDiscoveryError ? error.cause : undefined;
 *   if (refused?.problem === 'issuer-mismatch') console.error(`${refused.document} claims issuer ${String(refused.claimed)}`);
 * }
 * ```
 */
export class OAuthDiscoveryError extends McpError {
  override readonly name: string = 'OAuthDiscoveryError';
  readonly problem: OAuthDiscoveryProblem;
  /** The URL of the document (or `ID-JAG` for an assertion). */
  readonly document: string;
  /** The member that was wrong, e.g. `issuer`, `resource`, `aud`. */
  readonly field: string;
  /** What the member had to be (an issuer, a resource URL, an origin). */
  readonly expected: string | undefined;
  /** What the document claimed (as received, never a secret). */
  readonly claimed: unknown;

  constructor(
    problem: OAuthDiscoveryProblem,
    details: { readonly document: string; readonly field: string; readonly expected?: string; readonly claimed: unknown },
    message: string,
    options?: { cause?: unknown },
  ) {
    super(LocalErrorCode.AuthDiscoveryRefused, message, options);
    this.problem = problem;
    this.document = details.document;
    this.field = details.field;
    this.expected = details.expected;
    this.claimed = details.claimed;
  }
}
