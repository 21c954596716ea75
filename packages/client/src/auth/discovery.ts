/**
 * MCP authorization discovery: the protected resource's metadata (RFC 9728), then its
 * authorization server's metadata (RFC 8414 and OpenID Connect Discovery), with the MCP
 * rules — path-based well-known URIs first, the PRM `resource` matching the server, the
 * metadata `issuer` equal to the issuer identifier by simple string comparison, and the
 * 2025-03-26 fallbacks when a server publishes no PRM.
 *
 * What a server can make the client fetch, and trust:
 *
 * - the PRM only from the MCP server's own origin — the well-known URIs, and a
 *   `WWW-Authenticate` `resource_metadata` URL on that origin or on one the application lists
 *   (`allowedOrigins`); a URL elsewhere (an internal host, say) is refused unfetched;
 * - a PRM only when its `resource` names the server (RFC 9728 §3.3) and its
 *   `authorization_servers` are issuer URLs (RFC 8414 §2: no query, no fragment);
 * - authorization server metadata only for an issuer the verified PRM lists, from that issuer's
 *   well-known URIs, and only when the document's `issuer` is that issuer (RFC 8414 §3.3,
 *   OpenID Connect Discovery 1.0 §4.3). Without PRM (2025-03-26) the issuer is the server's
 *   origin, its authorization base URL: metadata served there claiming another issuer is
 *   refused, so credentials kept for that other issuer are never looked up for it.
 *
 * Every refusal is an {@link OAuthDiscoveryError} naming the document and what it claimed.
 */
import type * as oauth from 'oauth4webapi';
import { OAuthDiscoveryError } from './errors.js';
import { getJson, type OAuthHttp } from './http.js';

/** Protected Resource Metadata (RFC 9728 §2), the fields MCP uses. */
export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers?: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly [field: string]: unknown;
}

/** Where the resource's PRM lives: the `resource_metadata` hint first, then the path-based and root well-known URIs. */
export function resourceMetadataUrls(serverUrl: URL, hint: string | undefined): URL[] {
  const urls: URL[] = [];
  if (hint !== undefined && URL.canParse(hint)) urls.push(new URL(hint));
  const path = serverUrl.pathname.replace(/\/$/, '');
  if (path !== '') urls.push(new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl.origin));
  urls.push(new URL('/.well-known/oauth-protected-resource', serverUrl.origin));
  return urls.filter((url, i) => urls.findIndex((other) => other.href === url.href) === i);
}

/**
 * True when `resource` (a PRM's) may stand for `serverUrl`: same origin and a path that is
 * the server's path or a parent of it (RFC 9728 §3.3, RFC 8707 §2).
 */
export function resourceMatches(resource: string, serverUrl: URL): boolean {
  if (!URL.canParse(resource)) return false;
  const claimed = new URL(resource);
  if (claimed.origin !== serverUrl.origin || claimed.search !== '' || claimed.hash !== '') return false;
  const parent = claimed.pathname.endsWith('/') ? claimed.pathname : `${claimed.pathname}/`;
  const path = serverUrl.pathname.endsWith('/') ? serverUrl.pathname : `${serverUrl.pathname}/`;
  return path.startsWith(parent);
}

/** True when `value` is an issuer identifier: a URL without query or fragment (RFC 8414 §2). */
function isIssuerIdentifier(value: unknown): value is string {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.search === '' && url.hash === '' && !value.includes('?') && !value.includes('#');
}

/**
 * The `resource_metadata` URL of a challenge, if the client may fetch it: on the server's
 * origin or one of `allowedOrigins`. `undefined` for an absent or unparseable hint (the
 * well-known URIs are tried instead); an {@link OAuthDiscoveryError} for one elsewhere.
 */
export function allowedResourceMetadataHint(serverUrl: URL, hint: string | undefined, allowedOrigins: readonly string[]): string | undefined {
  if (hint === undefined || !URL.canParse(hint)) return undefined;
  const url = new URL(hint);
  if (url.origin === serverUrl.origin || allowedOrigins.includes(url.origin)) return url.href;
  throw new OAuthDiscoveryError(
    'origin-not-allowed',
    { document: url.href, field: 'resource_metadata', expected: serverUrl.origin, claimed: hint },
    `The server named protected resource metadata at ${url.href}, outside its origin ${serverUrl.origin}; list ${url.origin} in resourceMetadataOrigins to allow it`,
  );
}

/**
 * Fetches the PRM of `serverUrl`; `undefined` when the server publishes none (the 2025-03-26
 * servers). Throws an {@link OAuthDiscoveryError} when the hint is on an origin not allowed,
 * or the document's `resource` does not match the server, or its `authorization_servers` are
 * not issuer URLs.
 */
export async function discoverResourceMetadata(
  serverUrl: URL,
  hint: string | undefined,
  http: OAuthHttp,
  allowedOrigins: readonly string[] = [],
): Promise<ProtectedResourceMetadata | undefined> {
  for (const url of resourceMetadataUrls(serverUrl, allowedResourceMetadataHint(serverUrl, hint, allowedOrigins))) {
    const document = await getJson(url, http);
    if (document === undefined) continue;
    if (typeof document.resource !== 'string') {
      throw new OAuthDiscoveryError('invalid-document', { document: url.href, field: 'resource', claimed: document.resource }, `The protected resource metadata at ${url.href} has no "resource"`);
    }
    if (!resourceMatches(document.resource, serverUrl)) {
      throw new OAuthDiscoveryError(
        'resource-mismatch',
        { document: url.href, field: 'resource', expected: serverUrl.href, claimed: document.resource },
        `The protected resource metadata at ${url.href} names resource ${document.resource}, which is not ${serverUrl.href} (RFC 9728 §3.3)`,
      );
    }
    const servers = document.authorization_servers;
    if (servers !== undefined && (!Array.isArray(servers) || !servers.every(isIssuerIdentifier))) {
      throw new OAuthDiscoveryError(
        'invalid-document',
        { document: url.href, field: 'authorization_servers', claimed: servers },
        `The protected resource metadata at ${url.href} lists authorization servers that are not issuer URLs (RFC 8414 §2)`,
      );
    }
    return document as ProtectedResourceMetadata;
  }
  return undefined;
}

/** The well-known URIs of an issuer's metadata, in the order MCP tries them. */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, '');
  if (path === '') {
    return [new URL('/.well-known/oauth-authorization-server', issuer.origin), new URL('/.well-known/openid-configuration', issuer.origin)];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
  ];
}

/**
 * Fetches the authorization server metadata of `issuer`. The document's `issuer` must equal
 * `issuer` character for character (RFC 8414 §3.3, OpenID Connect Discovery 1.0 §4.3), else
 * an {@link OAuthDiscoveryError}. `undefined` when none of the well-known URIs serves a document.
 */
export async function discoverAuthorizationServer(issuer: string, http: OAuthHttp): Promise<oauth.AuthorizationServer | undefined> {
  for (const url of authorizationServerMetadataUrls(new URL(issuer))) {
    const document = await getJson(url, http);
    if (document === undefined) continue;
    if (document.issuer !== issuer) throw issuerMismatch(url, issuer, document.issuer);
    return document as unknown as oauth.AuthorizationServer;
  }
  return undefined;
}

function issuerMismatch(url: URL, expected: string, claimed: unknown): OAuthDiscoveryError {
  return new OAuthDiscoveryError(
    'issuer-mismatch',
    { document: url.href, field: 'issuer', expected, claimed },
    `The authorization server metadata at ${url.href} names issuer ${JSON.stringify(claimed)}, expected ${JSON.stringify(expected)}: metadata must name the issuer it was fetched for (RFC 8414 §3.3)`,
  );
}

/**
 * The authorization server of a 2025-03-26 server without PRM: the server's origin (its
 * authorization base URL), with its RFC 8414 metadata when published — whose `issuer` must
 * then be that origin (with or without the trailing `/`, both of which have this well-known
 * URI, RFC 8414 §3.1) — else the default `/authorize`, `/token` and `/register`.
 */
export async function legacyAuthorizationServer(serverUrl: URL, http: OAuthHttp): Promise<oauth.AuthorizationServer> {
  const url = new URL('/.well-known/oauth-authorization-server', serverUrl.origin);
  const document = await getJson(url, http);
  if (document !== undefined) {
    if (document.issuer !== serverUrl.origin && document.issuer !== `${serverUrl.origin}/`) throw issuerMismatch(url, serverUrl.origin, document.issuer);
    return document as unknown as oauth.AuthorizationServer;
  }
  return {
    issuer: serverUrl.origin,
    authorization_endpoint: new URL('/authorize', serverUrl.origin).href,
    token_endpoint: new URL('/token', serverUrl.origin).href,
    registration_endpoint: new URL('/register', serverUrl.origin).href,
  };
}
