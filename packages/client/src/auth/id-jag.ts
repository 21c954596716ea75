/**
 * Enterprise-managed authorization (SEP-990): the enterprise identity provider trades the
 * user's ID token for an Identity Assertion JWT Authorization Grant (ID-JAG) by token
 * exchange (RFC 8693), which the client then presents to the MCP server's authorization
 * server as a JWT bearer assertion (RFC 7523).
 *
 * The ID-JAG is asked for the authorization server that discovery verified (the `issuer` of
 * the assertion context) and, before it is presented, its `aud` must be that issuer: an ID-JAG
 * issued for another authorization server is never sent to this one.
 */
import * as oauth from 'oauth4webapi';
import { OAuthDiscoveryError } from './errors.js';
import type { AssertionContext } from './grants.js';
import { requestOptions } from './http.js';

const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';

/** Options of {@link idJagAssertion}. */
export interface IdJagAssertionOptions {
  /** The identity provider's issuer identifier. */
  readonly idpIssuer: string;
  readonly idpTokenEndpoint: string;
  /** The client's id at the identity provider. */
  readonly idpClientId: string;
  /** Its secret there, if it is a confidential client (sent as `client_secret_basic`). */
  readonly idpClientSecret?: string;
  /** The user's ID token from the identity provider, or a function fetching a current one. */
  readonly idToken: string | (() => Promise<string>);
  /** The `fetch` used for the token exchange (default: the global `fetch`). */
  readonly fetch?: typeof fetch;
  /** Allow plain `http:` beyond loopback hosts (default false). */
  readonly allowHttp?: boolean;
}

/**
 * An assertion source for the `jwt_bearer` grant of {@link OAuthClientProvider}: each call
 * exchanges the ID token for an ID-JAG whose audience is the authorization server and whose
 * resource is the MCP server.
 *
 * @example
 * ```ts
 * const authProvider = new OAuthClientProvider({
 *   client: { client_id: 'mcp-client', client_secret: secret },
 *   grant: { type: 'jwt_bearer', assertion: idJagAssertion({ idpIssuer, idpTokenEndpoint, idpClientId, idToken }) },
 * });
 * ```
 */
export function idJagAssertion(options: IdJagAssertionOptions): (context: AssertionContext) => Promise<string> {
  const http = { fetch: options.fetch ?? ((input: Parameters<typeof fetch>[0], init?: RequestInit) => globalThis.fetch(input, init)), allowHttp: options.allowHttp === true };
  const idp: oauth.AuthorizationServer = { issuer: options.idpIssuer, token_endpoint: options.idpTokenEndpoint };
  const client: oauth.Client = { client_id: options.idpClientId };
  const auth = options.idpClientSecret === undefined ? oauth.None() : oauth.ClientSecretBasic(options.idpClientSecret);
  return async (context) => {
    const subject = typeof options.idToken === 'string' ? options.idToken : await options.idToken();
    const parameters: Record<string, string> = {
      requested_token_type: ID_JAG_TYPE,
      subject_token: subject,
      subject_token_type: ID_TOKEN_TYPE,
      audience: context.issuer,
      resource: context.resource,
      ...(context.scope !== undefined && { scope: context.scope }),
    };
    const response = await oauth.genericTokenEndpointRequest(idp, client, auth, TOKEN_EXCHANGE_GRANT, parameters, requestOptions(http, options.idpTokenEndpoint));
    // RFC 8693 §2.2.1: a token that is not an access token comes with `token_type` `N_A`.
    const result = await oauth.processGenericTokenEndpointResponse(idp, client, response, { recognizedTokenTypes: { n_a: () => undefined } });
    if (result.issued_token_type !== undefined && result.issued_token_type !== ID_JAG_TYPE) {
      throw new Error(`The identity provider issued a ${JSON.stringify(result.issued_token_type)}, not an ID-JAG`);
    }
    const audience = jwtAudience(result.access_token);
    if (audience === undefined || !audience.includes(context.issuer)) {
      throw new OAuthDiscoveryError(
        'audience-mismatch',
        { document: 'ID-JAG', field: 'aud', expected: context.issuer, claimed: audience?.length === 1 ? audience[0] : audience },
        `The identity provider ${options.idpIssuer} issued an ID-JAG for ${JSON.stringify(audience)}, not for the authorization server ${context.issuer}; it is not presented there`,
      );
    }
    return result.access_token;
  };
}

/** The `aud` of a JWT (read, not verified: the authorization server verifies it), or `undefined` when it is not a JWT with one. */
function jwtAudience(jwt: string): string[] | undefined {
  const payload = jwt.split('.')[1];
  if (payload === undefined || jwt.split('.').length !== 3) return undefined;
  try {
    const claims: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(payload.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))));
    const aud = typeof claims === 'object' && claims !== null ? (claims as { aud?: unknown }).aud : undefined;
    if (typeof aud === 'string') return [aud];
    return Array.isArray(aud) && aud.every((value) => typeof value === 'string') ? aud : undefined;
  } catch {
    return undefined;
  }
}
