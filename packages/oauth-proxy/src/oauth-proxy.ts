/**
 * `createOAuthProxy`: an OAuth 2.1 authorization server for MCP servers whose users sign in at
 * an identity provider that MCP clients cannot register with (GitHub, Google, Entra and most
 * corporate IdPs offer neither Dynamic Client Registration nor Client ID Metadata Documents).
 *
 * MCP clients see a complete authorization server (2025-11-25, Basic / Authorization): RFC 8414
 * and OpenID Connect metadata, registration, CIMD, the code grant with PKCE, `resource`-bound
 * JWT access tokens, DPoP, refresh and revocation — all `oidc-provider`'s. When a user must sign
 * in, the proxy approves the client with the user (consent page), then runs the upstream's
 * authorization code flow with its one pre-registered client id (oauth4webapi), and finishes
 * with the upstream identity as the account. Resource servers verify the proxy's tokens against
 * `<issuer>/jwks` (`jwtVerifier` of `@statemcp/http-transport/auth`).
 *
 * Routes (all at the issuer's origin): `/.well-known/oauth-authorization-server`,
 * `/.well-known/openid-configuration`, `/auth`, `/token`, `/reg`, `/jwks`, `/token/revocation`
 * (oidc-provider's), `/interaction/<uid>`, `/interaction/<uid>/confirm` and `/upstream/callback`
 * (the proxy's). Register `<issuer>/upstream/callback` as the redirect URI at the upstream.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import Provider, { type AdapterConstructor, type AdapterFactory, type ClientMetadata } from 'oidc-provider';
import { PAGE_HEADERS, renderMessagePage } from './consent-page.js';
import { InteractionRoutes, type ConsentOptions } from './interactions.js';
import { AdapterLoginStore, MemoryLoginStore } from './login-store.js';
import { providerConfiguration, publicJwks, type ProxyResource } from './provider-config.js';
import { checkSigningKeys, generateSigningKey, type SigningKey } from './signing-keys.js';
import { UpstreamProvider, type UpstreamIdentity, type UpstreamOptions } from './upstream.js';

/** Options of {@link createOAuthProxy}. */
export interface OAuthProxyOptions {
  /** The proxy's issuer identifier: its public origin, e.g. `https://auth.example.com` (no path). */
  readonly issuer: string;
  /** The identity provider users sign in with, and the proxy's client registration there. */
  readonly upstream: UpstreamOptions;
  /** The MCP servers tokens are issued for, each with its scopes. The first is the default `resource`. */
  readonly resources: readonly ProxyResource[];
  /**
   * Private signing keys (JWK), the first signs and all are published. Default: one ES256 key
   * made at start — tokens then die with the process; give keys in production
   * ({@link generateSigningKey}).
   */
  readonly signingKeys?: readonly SigningKey[];
  /**
   * Secrets for the proxy's cookies and consent-form tokens, the newest first (older ones still
   * accepted: rotate by prepending). Default: one random secret made at start.
   */
  readonly cookieKeys?: readonly string[];
  /** The consent step: auto-approval of trusted clients, your own page. Default: a page for every client. */
  readonly consent?: ConsentOptions;
  /**
   * The proxy's account id for an upstream identity, or `undefined` to refuse the user
   * (`access_denied`). Default: the upstream subject. The account id is the tokens' `sub`.
   */
  readonly account?: (identity: UpstreamIdentity) => string | undefined | Promise<string | undefined>;
  /** Dynamic Client Registration (RFC 7591) at `/reg`, open to anyone. Default true. */
  readonly registration?: boolean;
  /**
   * Client ID Metadata Documents (an `https` URL as `client_id`). Default true; `{ allow }`
   * decides which URLs may be fetched (e.g. an allow-list of hosts).
   */
  readonly clientIdMetadataDocuments?:
    | boolean
    | {
        /** True when the document at this `client_id` URL may be fetched. */
        readonly allow: (clientId: string) => boolean | Promise<boolean>;
      };
  /** Clients registered beforehand (oidc-provider client metadata). */
  readonly clients?: readonly ClientMetadata[];
  /** oidc-provider's storage adapter (grants, sessions, registrations; also the pending upstream sign-ins). Default: memory. */
  readonly adapter?: AdapterFactory | AdapterConstructor;
  /** Access token lifetime, seconds. Default 900. */
  readonly accessTokenTtlSeconds?: number;
  /** Refresh token (and grant) lifetime, seconds. Default 14 days. */
  readonly refreshTokenTtlSeconds?: number;
  /** Trust `X-Forwarded-*` from a TLS-terminating proxy in front. Default false. */
  readonly trustProxy?: boolean;
  /** The `fetch` of outgoing requests (the upstream, client metadata documents). Default: the global one. */
  readonly fetch?: typeof fetch;
  /** Where the reasons behind failed sign-ins and server errors go. Default: nowhere. */
  readonly onError?: (error: unknown) => void;
}

/** A running proxy: a Node request handler and what resource servers need to know. */
export interface OAuthProxy {
  readonly issuer: string;
  /** Where the public keys are: give it to `jwtVerifier({ jwksUri })`. */
  readonly jwksUri: string;
  /** The public JWKS (every key of `signingKeys`, the signing one first). */
  readonly jwks: { readonly keys: readonly Record<string, unknown>[] };
  /** The redirect URI to register at the upstream: `<issuer>/upstream/callback`. */
  readonly upstreamRedirectUri: string;
  /** The oidc-provider instance (events, advanced settings). */
  readonly provider: Provider;
  /** Serves every route of the proxy; mount it at the issuer's origin. Never rejects. */
  handleNodeRequest(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** The path of the upstream callback. */
export const UPSTREAM_CALLBACK_PATH = '/upstream/callback';

const INTERACTION_ROUTE = /^\/interaction\/([A-Za-z0-9_-]+)(\/confirm)?$/;

function checkOptions(options: OAuthProxyOptions): URL {
  if (!URL.canParse(options.issuer)) throw new TypeError(`issuer ${options.issuer} is not a URL`);
  const issuer = new URL(options.issuer);
  if (issuer.pathname !== '/' || issuer.search !== '' || issuer.hash !== '') throw new TypeError('issuer must be an origin (https://host[:port]) without path, query or fragment');
  if (options.resources.length === 0) throw new TypeError('resources must name at least one MCP server');
  for (const { resource } of options.resources) {
    if (!URL.canParse(resource) || new URL(resource).hash !== '') throw new TypeError(`resource ${resource} must be an absolute URL without fragment (RFC 8707 §2)`);
  }
  if (options.cookieKeys?.length === 0) throw new TypeError('cookieKeys must hold at least one secret');
  return issuer;
}

/**
 * Starts an OAuth proxy: resolves the upstream's metadata (so a wrong issuer fails here), makes
 * the authorization server, and returns its request handler.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { createOAuthProxy } from '@statemcp/oauth-proxy';
 *
 * const proxy = await createOAuthProxy({
 *   issuer: 'https://auth.example.com',
 *   upstream: { issuer: 'https://accounts.google.com', clientId: process.env.GOOGLE_CLIENT_ID!, clientSecret: process.env.GOOGLE_CLIENT_SECRET!, scope: 'openid email' },
 *   resources: [{ resource: 'https://mcp.example.com/mcp', scopes: ['mcp'] }],
 *   signingKeys: [JSON.parse(process.env.PROXY_SIGNING_KEY!)],
 *   cookieKeys: [process.env.PROXY_COOKIE_KEY!],
 * });
 * createServer((req, res) => void proxy.handleNodeRequest(req, res)).listen(8080);
 * ```
 */
export async function createOAuthProxy(options: OAuthProxyOptions): Promise<OAuthProxy> {
  const issuerUrl = checkOptions(options);
  const issuer = issuerUrl.origin;
  const signingKeys = options.signingKeys ?? [await generateSigningKey()];
  checkSigningKeys(signingKeys);
  const cookieKeys = options.cookieKeys ?? [randomBytes(32).toString('base64url')];
  const report = options.onError ?? ((): void => undefined);
  const http = { fetch: options.fetch ?? ((input: string | URL | Request, init?: RequestInit) => globalThis.fetch(input, init)) };
  const upstreamRedirectUri = `${issuer}${UPSTREAM_CALLBACK_PATH}`;
  const upstream = await UpstreamProvider.create(options.upstream, http, upstreamRedirectUri);
  const provider = new Provider(
    issuer,
    providerConfiguration({
      resources: options.resources,
      signingKeys,
      cookieKeys,
      registration: options.registration ?? true,
      clientIdMetadataDocuments: options.clientIdMetadataDocuments ?? true,
      clients: options.clients ?? [],
      adapter: options.adapter,
      accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 900,
      refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? 14 * 86_400,
      fetch: options.fetch,
    }),
  );
  provider.proxy = options.trustProxy === true;
  // oidc-provider's own failures (HTTP 500s it answered) go to the same place as the proxy's.
  provider.on('server_error', (_ctx, error) => report(error));
  const routes = new InteractionRoutes({
    provider,
    upstream,
    logins: options.adapter === undefined ? new MemoryLoginStore() : new AdapterLoginStore(options.adapter),
    resources: options.resources,
    cookieKeys,
    consent: options.consent ?? {},
    account: options.account ?? ((identity) => identity.subject),
    report,
  });
  const handle = provider.callback();

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', issuer);
    const method = req.method ?? 'GET';
    const interaction = INTERACTION_ROUTE.exec(url.pathname);
    if (interaction?.[1] !== undefined) {
      const confirm = interaction[2] !== undefined;
      if (method !== (confirm ? 'POST' : 'GET')) return methodNotAllowed(res, confirm ? 'POST' : 'GET');
      return confirm ? routes.confirm(req, res, interaction[1]) : routes.show(req, res, interaction[1]);
    }
    if (url.pathname === UPSTREAM_CALLBACK_PATH) {
      if (method !== 'GET') return methodNotAllowed(res, 'GET');
      return routes.callback(res, url);
    }
    // RFC 8414 §3 metadata: the same document as OpenID Connect discovery.
    if (url.pathname === '/.well-known/oauth-authorization-server') req.url = `/.well-known/openid-configuration${url.search}`;
    else if (url.pathname === '/auth' && method === 'GET') req.url = withDefaultScope(url, options.resources);
    await handle(req, res);
  }

  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    jwks: publicJwks(signingKeys),
    upstreamRedirectUri,
    provider,
    async handleNodeRequest(req, res) {
      try {
        await route(req, res);
      } catch (error) {
        report(error);
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const html = renderMessagePage('Something went wrong', 'The sign-in could not go on. Start again from your application.');
        res.writeHead(500, { ...PAGE_HEADERS, 'content-length': Buffer.byteLength(html) });
        res.end(html);
      }
    },
  };
}

/**
 * An authorization request without `scope` asks for every scope of its resource: the AS's
 * "pre-defined default value" (RFC 6749 §3.3), and what MCP clients ask for anyway (the
 * resource's `scopes_supported`). oidc-provider would otherwise grant nothing and refuse it.
 */
function withDefaultScope(url: URL, resources: readonly ProxyResource[]): string {
  if ((url.searchParams.get('scope') ?? '').trim() !== '') return `${url.pathname}${url.search}`;
  const named = url.searchParams.getAll('resource');
  const entry = named.length === 0 ? resources[0] : resources.find((candidate) => named.includes(candidate.resource));
  if (entry === undefined || entry.scopes.length === 0) return `${url.pathname}${url.search}`;
  url.searchParams.set('scope', entry.scopes.join(' '));
  return `${url.pathname}${url.search}`;
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  res.writeHead(405, { allow, 'content-length': 0 });
  res.end();
}
