/**
 * MCP authorization discovery: the protected resource's metadata (RFC 9728), then its
 * authorization server's metadata (RFC 8414 and OpenID Connect Discovery), with the MCP
 * rules — path-based well-known URIs first, the PRM `resource` matching the server, the
 * metadata `issuer` equal to the issuer identifier by simple string comparison, and the
 * 2025-03-26 fallbacks when a server publishes no PRM.
 */
import type * as oauth from 'oauth4webapi';
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

/**
 * Fetches the PRM of `serverUrl`; `undefined` when the server publishes none (the 2025-03-26
 * servers). Throws when the document's `resource` does not match the server.
 */
export async function discoverResourceMetadata(serverUrl: URL, hint: string | undefined, http: OAuthHttp): Promise<ProtectedResourceMetadata | undefined> {
  for (const url of resourceMetadataUrls(serverUrl, hint)) {
    const document = await getJson(url, http);
    if (document === undefined) continue;
    if (typeof document.resource !== 'string') throw new Error(`The protected resource metadata at ${url.href} has no "resource"`);
    if (!resourceMatches(document.resource, serverUrl)) {
      throw new Error(`The protected resource metadata at ${url.href} names resource ${document.resource}, which is not ${serverUrl.href}`);
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
 * `issuer` character for character (RFC 8414 §3.3). `undefined` when none of the well-known
 * URIs serves a document.
 */
export async function discoverAuthorizationServer(issuer: string, http: OAuthHttp): Promise<oauth.AuthorizationServer | undefined> {
  for (const url of authorizationServerMetadataUrls(new URL(issuer))) {
    const document = await getJson(url, http);
    if (document === undefined) continue;
    if (document.issuer !== issuer) {
      throw new Error(`The authorization server metadata at ${url.href} names issuer ${JSON.stringify(document.issuer)}, expected ${JSON.stringify(issuer)}`);
    }
    return document as unknown as oauth.AuthorizationServer;
  }
  return undefined;
}

/**
 * The authorization server of a 2025-03-26 server without PRM: the server's origin, with its
 * RFC 8414 metadata when published, else the default `/authorize`, `/token` and `/register`.
 */
export async function legacyAuthorizationServer(serverUrl: URL, http: OAuthHttp): Promise<oauth.AuthorizationServer> {
  const document = await getJson(new URL('/.well-known/oauth-authorization-server', serverUrl.origin), http);
  if (document !== undefined) return document as unknown as oauth.AuthorizationServer;
  return {
    issuer: serverUrl.origin,
    authorization_endpoint: new URL('/authorize', serverUrl.origin).href,
    token_endpoint: new URL('/token', serverUrl.origin).href,
    registration_endpoint: new URL('/register', serverUrl.origin).href,
  };
}
