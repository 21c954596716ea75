/**
 * The proxy's authorization server as `oidc-provider` configuration — the token logic is all
 * oidc-provider's (a certified OpenID Provider); this module only chooses its settings for MCP
 * (2025-11-25, Basic / Authorization):
 *
 * - Dynamic Client Registration (RFC 7591) open to MCP clients, and Client ID Metadata Documents
 *   (an `https` URL as `client_id`, fetched with SSRF protection) — both optional;
 * - the authorization code grant with PKCE S256 for every client, RFC 9207 `iss` on the answer;
 * - Resource Indicators (RFC 8707): each access token is a JWT (RFC 9068) for exactly one of the
 *   configured MCP servers (`aud`), with only that server's scopes; any other `resource` is
 *   refused with `invalid_target`;
 * - DPoP (RFC 9449): a client that sends a proof gets a token bound to its key (`cnf.jkt`);
 * - refresh tokens for clients registered for the `refresh_token` grant, revocation (RFC 7009);
 * - the sign-in and consent steps are the proxy's (`/interaction/<uid>`), never oidc-provider's
 *   development pages.
 */
import type { AdapterConstructor, AdapterFactory, ClientMetadata, Configuration } from 'oidc-provider';
import { errors } from 'oidc-provider';
import { publicKeyOf, type SigningKey } from './signing-keys.js';

/** One MCP server the proxy issues tokens for. */
export interface ProxyResource {
  /** The server's canonical URL (its MCP endpoint), e.g. `https://mcp.example.com/mcp`: the tokens' `aud`. */
  readonly resource: string;
  /** The scopes a token for it may carry. */
  readonly scopes: readonly string[];
  /** Access token lifetime for this server, seconds (default: the proxy's `accessTokenTtlSeconds`). */
  readonly accessTokenTtlSeconds?: number;
}

/** The part of the proxy's options that becomes oidc-provider configuration. */
export interface ProviderSettings {
  readonly resources: readonly ProxyResource[];
  readonly signingKeys: readonly SigningKey[];
  readonly cookieKeys: readonly string[];
  readonly registration: boolean;
  readonly clientIdMetadataDocuments: boolean | { readonly allow: (clientId: string) => boolean | Promise<boolean> };
  readonly clients: readonly ClientMetadata[];
  readonly adapter: AdapterFactory | AdapterConstructor | undefined;
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  readonly fetch: typeof fetch | undefined;
}

/** The OpenID Connect scopes the proxy grants besides the resources' scopes. */
export const OIDC_SCOPES: ReadonlySet<string> = new Set(['openid', 'offline_access']);

/** The interaction step's path for an interaction uid. */
export function interactionPath(uid: string): string {
  return `/interaction/${uid}`;
}

/** The origin of a URL, or `undefined` for one that does not parse. */
function originOf(uri: string): string | undefined {
  return URL.canParse(uri) ? new URL(uri).origin : undefined;
}

/** oidc-provider's configuration for the proxy. */
export function providerConfiguration(settings: ProviderSettings): Configuration {
  const resources = new Map(settings.resources.map((entry) => [entry.resource, entry]));
  const [defaultResource] = settings.resources;
  const signing = settings.signingKeys[0];
  if (defaultResource === undefined || signing === undefined) throw new TypeError('The proxy needs at least one resource and one signing key');
  const cimd = settings.clientIdMetadataDocuments;
  return {
    ...(settings.adapter !== undefined && { adapter: settings.adapter }),
    clients: [...settings.clients],
    jwks: { keys: settings.signingKeys.map((key) => ({ ...key })) },
    cookies: { keys: [...settings.cookieKeys], long: { httpOnly: true, sameSite: 'lax' }, short: { httpOnly: true, sameSite: 'lax' } },
    // Accounts are upstream identities; the proxy keeps nothing about them but their id.
    findAccount: (_ctx, accountId) => ({ accountId, claims: () => ({ sub: accountId }) }),
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    // PKCE for every client, public or confidential (2025-11-25, Basic / Authorization, "Authorization Code Protection").
    pkce: { required: () => true },
    // The code flow only (OAuth 2.1 has no implicit grant).
    responseTypes: ['code'],
    scopes: [...OIDC_SCOPES],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: signing.alg,
    },
    // MCP clients are not browser sessions: their grants outlive the proxy's sign-in cookie.
    expiresWithSession: () => false,
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: settings.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: settings.refreshTokenTtlSeconds,
      Interaction: 600,
      // The proxy's own sign-in cookie: a day, then the next authorization signs in upstream again.
      Session: Math.min(settings.refreshTokenTtlSeconds, 86_400),
      Grant: settings.refreshTokenTtlSeconds,
    },
    // Browser-based clients may call the token endpoint from the origins of their redirect URIs.
    clientBasedCORS: (_ctx, origin, client) => origin !== 'null' && client.redirectUris?.some((uri) => originOf(uri) === origin) === true,
    ...(settings.fetch !== undefined && { fetch: settings.fetch }),
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: settings.registration },
      clientIdMetadataDocument: {
        enabled: cimd !== false,
        ack: 'draft-02',
        ...(typeof cimd === 'object' && { allowFetch: (_ctx, clientId) => cimd.allow(clientId) }),
      },
      dPoP: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A request that names no resource gets a token for the first one: still audience-bound.
        defaultResource: () => defaultResource.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          const entry = resources.get(indicator);
          if (entry === undefined) throw new errors.InvalidTarget(`this authorization server issues no tokens for ${indicator}`);
          return {
            scope: entry.scopes.join(' '),
            audience: entry.resource,
            accessTokenTTL: entry.accessTokenTtlSeconds ?? settings.accessTokenTtlSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: signing.alg, kid: signing.kid } },
          };
        },
      },
    },
  };
}

/** The public JWKS: every key of the list, the signing one first. */
export function publicJwks(keys: readonly SigningKey[]): { keys: Record<string, unknown>[] } {
  return { keys: keys.map((key) => ({ ...publicKeyOf(key) })) };
}
