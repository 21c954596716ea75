/**
 * How the client gets a `client_id` at an authorization server, in MCP's order: credentials
 * the application registered beforehand, else a Client ID Metadata Document URL when the
 * server advertises support, else Dynamic Client Registration (RFC 7591). A registration is
 * kept per issuer, so a new authorization server always gets a new one.
 */
import type * as oauth from 'oauth4webapi';
import { OAuthDiscoveryError } from './errors.js';
import { isSecureEnough, oauthFetch, type OAuthHttp } from './http.js';
import type { OAuthClientRegistration, OAuthStore } from './store.js';

/** Client metadata for registration (RFC 7591 §2) and for a Client ID Metadata Document. */
export interface OAuthClientMetadata {
  readonly client_name?: string;
  readonly redirect_uris?: readonly string[];
  readonly grant_types?: readonly string[];
  readonly scope?: string;
  /** `native` or `web` (OpenID Connect Registration); derived from the redirect URIs when absent. */
  readonly application_type?: 'native' | 'web';
  readonly token_endpoint_auth_method?: string;
  readonly [field: string]: unknown;
}

/** Where a registration can come from, besides the store. */
export interface RegistrationSources {
  readonly store: OAuthStore;
  readonly metadata: OAuthClientMetadata;
  /** Pre-registered credentials, for every issuer or per issuer. */
  readonly preRegistered?: OAuthClientRegistration | ((issuer: string) => OAuthClientRegistration | undefined);
  /** An `https` URL serving the client's metadata document, used as `client_id` where supported. */
  readonly metadataDocumentUrl?: string;
  readonly http: OAuthHttp;
}

/** `native` when every redirect URI is a loopback `http` URL or a private scheme, else `web`. */
export function applicationType(redirectUris: readonly string[]): 'native' | 'web' {
  const native = redirectUris.every((uri) => {
    if (!URL.canParse(uri)) return false;
    const url = new URL(uri);
    return (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) || (url.protocol !== 'http:' && url.protocol !== 'https:');
  });
  return native && redirectUris.length > 0 ? 'native' : 'web';
}

/**
 * The registration to use at `as`: stored, pre-registered, CIMD, or registered now. `as.issuer`
 * must be verified (discovery does it): credentials are looked up by it, and a pre-registered
 * client bound to another `issuer` is refused with an {@link OAuthDiscoveryError}.
 */
export async function obtainRegistration(as: oauth.AuthorizationServer, sources: RegistrationSources): Promise<OAuthClientRegistration> {
  const stored = await sources.store.getClient(as.issuer);
  if (stored !== undefined) return stored;
  const pre = typeof sources.preRegistered === 'function' ? sources.preRegistered(as.issuer) : sources.preRegistered;
  if (pre?.issuer !== undefined && pre.issuer !== as.issuer) {
    throw new OAuthDiscoveryError(
      'client-issuer-mismatch',
      { document: as.issuer, field: 'issuer', expected: pre.issuer, claimed: as.issuer },
      `The pre-registered client ${pre.client_id} is registered at ${pre.issuer}, but this server's authorization server is ${as.issuer}; its credentials are not sent there`,
    );
  }
  if (pre !== undefined) return pre;
  if (as.client_id_metadata_document_supported === true && sources.metadataDocumentUrl !== undefined) {
    return { client_id: sources.metadataDocumentUrl, token_endpoint_auth_method: 'none' };
  }
  if (as.registration_endpoint === undefined) {
    throw new Error(`The authorization server ${as.issuer} offers no registration and no client credentials were given for it`);
  }
  const registration = await register(as, sources);
  await sources.store.setClient(as.issuer, registration);
  return registration;
}

async function register(as: oauth.AuthorizationServer, sources: RegistrationSources): Promise<OAuthClientRegistration> {
  const redirectUris = sources.metadata.redirect_uris ?? [];
  const offered = as.grant_types_supported;
  const grantTypes = sources.metadata.grant_types ?? ['authorization_code', ...(offered === undefined || offered.includes('refresh_token') ? ['refresh_token'] : [])];
  const supportedAuth = as.token_endpoint_auth_methods_supported;
  const authMethod =
    sources.metadata.token_endpoint_auth_method ?? ['client_secret_basic', 'client_secret_post', 'none'].find((method) => supportedAuth?.includes(method));
  const metadata: Record<string, unknown> = {
    ...sources.metadata,
    redirect_uris: [...redirectUris],
    grant_types: [...grantTypes],
    response_types: ['code'],
    application_type: sources.metadata.application_type ?? applicationType(redirectUris),
    ...(authMethod !== undefined && { token_endpoint_auth_method: authMethod }),
  };
  // The request and answer of RFC 7591 §3, read leniently: servers often omit `client_secret_expires_at`.
  const endpoint = new URL(String(as.registration_endpoint));
  if (!isSecureEnough(endpoint, sources.http)) throw new Error(`Refusing to register at ${endpoint.href} over plain HTTP`);
  const response = await oauthFetch(sources.http)(endpoint.href, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(metadata),
  });
  const client = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok || typeof client?.client_id !== 'string') {
    throw new Error(`Dynamic client registration at ${endpoint.href} failed: HTTP ${response.status}${typeof client?.error === 'string' ? ` ${client.error}` : ''}`);
  }
  return {
    client_id: client.client_id,
    ...(typeof client.client_secret === 'string' && { client_secret: client.client_secret }),
    ...(typeof client.token_endpoint_auth_method === 'string' && { token_endpoint_auth_method: client.token_endpoint_auth_method }),
  };
}
