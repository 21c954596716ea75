/**
 * `--auth`: the everything server behind OAuth (`@statemcp/http-transport/auth`). Tokens are
 * JWTs from one issuer, checked against its JWKS (found in its metadata unless `--auth-jwks`
 * names it) with this server's URL as the audience.
 */
import type { HttpAuthorization } from '@statemcp/http-transport/server';
import { createProtectedResource, jwtVerifier, type DpopReplayStore, type ProtectedResource } from '@statemcp/http-transport/auth';

/** The `--auth*` flags. */
export interface AuthMode {
  /** The authorization server's issuer URL. */
  readonly issuer: string;
  /** Its JWKS URL; default the `jwks_uri` of its metadata. */
  readonly jwksUri: string | undefined;
  /** Scopes every request needs. */
  readonly scopes: readonly string[];
  /** Accept DPoP-bound tokens (`--auth-dpop`), and ask for a server nonce (`--auth-dpop-nonce`). */
  readonly dpop: boolean;
  readonly dpopNonce: boolean;
  /** The public URL of the MCP endpoint (token audience); default the listening URL. */
  readonly resource: string | undefined;
}

/** The `jwks_uri` an issuer publishes (RFC 8414, then OpenID Connect discovery). */
async function discoverJwksUri(issuer: string): Promise<string> {
  const base = issuer.replace(/\/$/, '');
  const issuerPath = new URL(issuer).pathname.replace(/\/$/, '');
  const candidates = [`${new URL(issuer).origin}/.well-known/oauth-authorization-server${issuerPath}`, `${base}/.well-known/openid-configuration`];
  for (const url of candidates) {
    const response = await fetch(url, { headers: { accept: 'application/json' } }).catch(() => undefined);
    if (response?.ok !== true) continue;
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (metadata.issuer === issuer && typeof metadata.jwks_uri === 'string') return metadata.jwks_uri;
  }
  throw new Error(`no authorization server metadata with a jwks_uri at ${issuer}`);
}

/**
 * An `authorization` layer whose protected resource is made once the URL is known (after
 * `listen`): requests only arrive after that.
 */
export function deferredAuthorization(): { readonly layer: HttpAuthorization; install(resource: ProtectedResource): void } {
  let current: ProtectedResource | undefined;
  const ready = (): ProtectedResource => {
    if (current === undefined) throw new Error('authorization is not ready');
    return current;
  };
  return {
    layer: {
      serve: (request) => current?.serve(request),
      authenticate: (request, context) => ready().authenticate(request, context),
      authorize: (authInfo, messages) => ready().authorize(authInfo, messages),
      principalOf: (authInfo) => ready().principalOf(authInfo),
    },
    install: (resource) => {
      current = resource;
    },
  };
}

/**
 * The protected resource of `--auth` for the endpoint at `url`. `dpopReplay` is the cluster's
 * shared replay set (`--redis`); default one in memory.
 */
export async function protectedResourceFor(mode: AuthMode, url: URL, dpopReplay?: DpopReplayStore): Promise<ProtectedResource> {
  const resource = mode.resource ?? url.href;
  const jwksUri = mode.jwksUri ?? (await discoverJwksUri(mode.issuer));
  return createProtectedResource({
    resource,
    authorizationServers: [mode.issuer],
    verifier: jwtVerifier({ issuer: mode.issuer, jwksUri, audience: resource }),
    scopesSupported: mode.scopes,
    requiredScopes: mode.scopes,
    resourceName: 'statemcp everything-server',
    ...(mode.dpop ? { dpop: { nonce: mode.dpopNonce, ...(dpopReplay === undefined ? {} : { replayStore: dpopReplay }) } } : {}),
  });
}
