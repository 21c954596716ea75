/**
 * The OAuth 2.1 client of an MCP server (the authorization sections of the 2025-03-26 …
 * 2026-07-28 revisions), as the HTTP transport's `authProvider`:
 *
 * - a 401 starts discovery — the `WWW-Authenticate` `resource_metadata` (on the server's origin
 *   or one in `resourceMetadataOrigins`), `scope` and `error`, the PRM (refused when its
 *   `resource` is another server's), the authorization server's metadata (its `issuer` must be
 *   the issuer it was fetched for, also without PRM) — and only then the credentials kept or
 *   pre-registered for that verified issuer (`registration.ts`), and a grant: the
 *   authorization code with PKCE S256, `state`, RFC 9207 `iss` and `resource` through the
 *   application's {@link OAuthClientProviderOptions.authorize}, or client credentials, or a
 *   JWT bearer assertion (workload identity, enterprise-managed authorization);
 * - scope: the challenge's, else the PRM's `scopes_supported`, else none; `offline_access`
 *   only where the authorization server lists it; a 403 `insufficient_scope` re-authorizes
 *   with the union of the scopes, at most `maxStepUps` times in a row;
 * - DPoP when the authorization server supports ES256 proofs: a proof at the token endpoint
 *   and on every MCP request, with the servers' nonces; the key is stored with the tokens
 *   bound to it (`dpop_key`), so stored tokens outlive a restart;
 * - one authorization or refresh in flight at a time; requests wait for it. Tokens go to the
 *   store and into headers, never into errors or logs.
 */
import * as oauth from 'oauth4webapi';
import type { ProtectedResourceMetadata } from './discovery.js';
import { discoverAuthorizationServer, discoverResourceMetadata, legacyAuthorizationServer } from './discovery.js';
import { DpopKey } from './dpop.js';
import { OAuthDiscoveryError } from './errors.js';
import {
  authorizationCodeGrant,
  clientAuthentication,
  clientCredentialsGrant,
  jwtBearerGrant,
  refreshGrant,
  type AssertionContext,
  type ClientPrivateKey,
  type TokenExchange,
} from './grants.js';
import type { OAuthHttp } from './http.js';
import { obtainRegistration, type OAuthClientMetadata } from './registration.js';
import { InMemoryOAuthStore, type OAuthClientRegistration, type OAuthStore, type OAuthStoredTokens } from './store.js';
import { challengeParam, parseWwwAuthenticate, type AuthChallenge } from './www-authenticate.js';

/** How the provider obtains tokens. */
export type OAuthGrant =
  /** Interactive: the user authorizes in a browser ({@link OAuthClientProviderOptions.authorize}). */
  | { readonly type: 'authorization_code' }
  /** Machine to machine, with the client's own credentials (secret or private key). */
  | { readonly type: 'client_credentials' }
  /** RFC 7523: a JWT from elsewhere (a workload identity, an ID-JAG) traded for a token. */
  | {
      readonly type: 'jwt_bearer';
      /** Produces the JWT to trade, for the authorization server and resource in `context`. */
      readonly assertion: (context: AssertionContext) => Promise<string> | string;
    };

/** Options of {@link OAuthClientProvider}. */
export interface OAuthClientProviderOptions {
  /** Metadata for dynamic registration and the client's metadata document. */
  readonly clientMetadata?: OAuthClientMetadata;
  /** An `https` URL serving the client's metadata document: the `client_id` where the server supports CIMD. */
  readonly clientMetadataUrl?: string;
  /** Pre-registered credentials (for any issuer, or chosen per issuer). */
  readonly client?: OAuthClientRegistration | ((issuer: string) => OAuthClientRegistration | undefined);
  /** The key for `private_key_jwt` client authentication. */
  readonly privateKey?: ClientPrivateKey;
  /** Default: the authorization code grant. */
  readonly grant?: OAuthGrant;
  /**
   * The interactive part of the authorization code grant: send the user to
   * `authorizationUrl`, resolve with the URL the browser was redirected to (with `code`,
   * `state`, `iss`). `loopbackAuthorization()` of `@statemcp/client/auth/node` is one.
   */
  readonly authorize?: (authorizationUrl: URL) => Promise<URL | string>;
  /** The redirect URI (default: the first of `clientMetadata.redirect_uris`). */
  readonly redirectUri?: string;
  /** Registrations and tokens (default: in memory). */
  readonly store?: OAuthStore;
  /** DPoP: `auto` (default) when the authorization server supports ES256 proofs, `never`. */
  readonly dpop?: 'auto' | 'never';
  /** Re-authorizations after 403 `insufficient_scope` before giving up (default 2: three authorizations in all). */
  readonly maxStepUps?: number;
  /** The `fetch` of the OAuth requests (default: the global one). */
  readonly fetch?: typeof fetch;
  /** Allow plain `http:` authorization servers beyond loopback hosts (default false). */
  readonly allowHttp?: boolean;
  /**
   * Origins besides the MCP server's own from which a `resource_metadata` URL of its
   * `WWW-Authenticate` may be fetched, e.g. `['https://metadata.example.com']` (default: none —
   * a URL on another origin is refused unfetched with an `OAuthDiscoveryError`).
   */
  readonly resourceMetadataOrigins?: readonly string[];
}

/** What the provider knows about the authorization of one server. */
interface AuthorizationContext {
  readonly resource: string;
  readonly as: oauth.AuthorizationServer;
  readonly registration: OAuthClientRegistration;
  readonly prm: ProtectedResourceMetadata | undefined;
}

/** The request the transport asks about, as `HttpAuthRequest` of `@statemcp/http-transport`. */
interface AuthRequest {
  readonly method: string;
  readonly url: string;
}

/**
 * OAuth 2.1 for the Streamable HTTP client transport: pass it as `authProvider`.
 *
 * @example
 * ```ts
 * import { OAuthClientProvider } from '@statemcp/client/auth';
 * import { loopbackAuthorization } from '@statemcp/client/auth/node';
 *
 * const login = await loopbackAuthorization({ open: (url) => console.log(`Open ${url}`) });
 * const authProvider = new OAuthClientProvider({
 *   clientMetadata: { client_name: 'my-cli', redirect_uris: [login.redirectUri] },
 *   authorize: login.authorize,
 * });
 * const transport = new StreamableHttpClientTransport('https://mcp.example.com/mcp', { authProvider });
 * ```
 */
export class OAuthClientProvider {
  readonly #options: OAuthClientProviderOptions;
  readonly #store: OAuthStore;
  readonly #http: OAuthHttp;
  #context: AuthorizationContext | undefined;
  #tokens: OAuthStoredTokens | undefined;
  #dpop: DpopKey | undefined;
  /** The authorization or refresh in flight: every request waits for it. */
  #inflight: Promise<void> | undefined;
  /** Scopes asked for so far (a step-up asks for their union with the challenge's). */
  #scopes = new Set<string>();
  #stepUps = 0;
  #authorizations = 0;

  constructor(options: OAuthClientProviderOptions = {}) {
    this.#options = options;
    this.#store = options.store ?? new InMemoryOAuthStore();
    this.#http = { fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)), allowHttp: options.allowHttp === true };
  }

  /** True once the provider holds an access token. */
  get authorized(): boolean {
    return this.#tokens !== undefined;
  }

  /** The scope the current token was granted (or requested), if any. */
  get scope(): string | undefined {
    return this.#tokens?.scope;
  }

  /** Headers for one request: `Authorization` (`Bearer` or `DPoP`) and the DPoP proof. */
  async headers(request: AuthRequest): Promise<Record<string, string>> {
    await this.#inflight;
    const tokens = this.#tokens ?? (await this.#loadTokens(request.url));
    if (tokens === undefined) return {};
    if (tokens.token_type === 'dpop' && this.#dpop !== undefined) {
      return { authorization: `DPoP ${tokens.access_token}`, dpop: await this.#dpop.proof(request.method, request.url, tokens.access_token) };
    }
    return { authorization: `Bearer ${tokens.access_token}` };
  }

  /** Sees every response: authorizes on 401, steps up on 403, takes DPoP nonces. True = send again. */
  async onResponse(request: AuthRequest, response: Response, sent?: Headers): Promise<boolean> {
    const challenges = parseWwwAuthenticate(response.headers.get('www-authenticate') ?? '');
    const nonce = response.headers.get('dpop-nonce');
    const newNonce = nonce !== null && this.#dpop !== undefined && this.#dpop.takeNonce(request.url, nonce);
    if (response.ok) {
      this.#stepUps = 0;
      this.#authorizations = 0;
      return false;
    }
    if (response.status !== 401 && response.status !== 403) return false;
    if (challengeParam(challenges, 'error') === 'use_dpop_nonce') return newNonce;
    // Another request already replaced the token this one carried: just send it again.
    const carried = sent?.get('authorization') ?? undefined;
    if (this.#inflight !== undefined || (carried !== undefined && this.#tokens !== undefined && !carried.endsWith(` ${this.#tokens.access_token}`))) {
      await this.#inflight;
      return this.#tokens !== undefined;
    }
    if (response.status === 403) {
      if (challengeParam(challenges, 'error') !== 'insufficient_scope' || this.#stepUps >= (this.#options.maxStepUps ?? 2)) return false;
      this.#stepUps++;
    } else if (++this.#authorizations > 2) {
      // Fresh tokens refused twice in a row: more of the same will not help.
      return false;
    }
    await this.#singleFlight(() => this.#authorize(new URL(request.url), challenges, response.status === 401));
    return true;
  }

  /** Forgets the tokens (and the authorization context); the next 401 authorizes again. */
  async signOut(resource: string): Promise<void> {
    this.#tokens = undefined;
    this.#context = undefined;
    await this.#store.setTokens(resource, undefined);
  }

  async #singleFlight(work: () => Promise<void>): Promise<void> {
    const running = work().finally(() => {
      if (this.#inflight === running) this.#inflight = undefined;
    });
    this.#inflight = running;
    return running;
  }

  async #loadTokens(url: string): Promise<OAuthStoredTokens | undefined> {
    const stored = await this.#store.getTokens(new URL(url).href);
    if (stored === undefined) return undefined;
    if (stored.token_type === 'dpop') {
      // A DPoP-bound token is useless without the key it is bound to, stored with it.
      if (stored.dpop_key === undefined) return undefined;
      this.#dpop = await DpopKey.fromJwk(stored.dpop_key);
    }
    this.#tokens = stored;
    return stored;
  }

  async #authorize(serverUrl: URL, challenges: readonly AuthChallenge[], unauthorized: boolean): Promise<void> {
    const context = await this.#discover(serverUrl, challenges);
    const exchange = await this.#exchangeContext(context);
    const previous = this.#tokens;
    // A 401 with a refresh token from the same issuer: refresh first, authorize only if that fails.
    if (unauthorized && previous?.refresh_token !== undefined && previous.issuer === context.as.issuer) {
      try {
        await this.#save(serverUrl, await refreshGrant(exchange, previous.refresh_token, context.resource));
        return;
      } catch {
        // the refresh token is no good: authorize from scratch
      }
    }
    const scope = this.#selectScope(context, challenges);
    const grant = this.#options.grant ?? { type: 'authorization_code' };
    switch (grant.type) {
      case 'client_credentials':
        return this.#save(serverUrl, await clientCredentialsGrant(exchange, scope, context.resource));
      case 'jwt_bearer': {
        const assertion = await grant.assertion({ issuer: context.as.issuer, tokenEndpoint: String(context.as.token_endpoint), resource: context.resource, ...(scope !== undefined && { scope }) });
        return this.#save(serverUrl, await jwtBearerGrant(exchange, assertion, scope, context.resource));
      }
      case 'authorization_code':
        return this.#save(serverUrl, await this.#authorizationCode(exchange, context, scope));
    }
  }

  /** PRM, then the authorization server, then the registration for it; a new server means a new registration. */
  async #discover(serverUrl: URL, challenges: readonly AuthChallenge[]): Promise<AuthorizationContext> {
    const allowedOrigins = (this.#options.resourceMetadataOrigins ?? []).map((origin) => new URL(origin).origin);
    const prm = await discoverResourceMetadata(serverUrl, challengeParam(challenges, 'resource_metadata'), this.#http, allowedOrigins);
    // Whichever way it is found, `as.issuer` is verified: the credentials below are looked up by it.
    let as: oauth.AuthorizationServer;
    if (prm === undefined) {
      as = await legacyAuthorizationServer(serverUrl, this.#http);
    } else {
      const issuer = prm.authorization_servers?.[0];
      if (issuer === undefined) {
        throw new OAuthDiscoveryError('invalid-document', { document: prm.resource, field: 'authorization_servers', claimed: prm.authorization_servers }, `The protected resource ${prm.resource} names no authorization server`);
      }
      const found = await discoverAuthorizationServer(issuer, this.#http);
      if (found === undefined) throw new Error(`No authorization server metadata found for ${issuer}`);
      as = found;
    }
    if (this.#context !== undefined && this.#context.as.issuer !== as.issuer) {
      // The resource moved to another authorization server: nothing of the old one is reused.
      this.#tokens = undefined;
      this.#scopes.clear();
    }
    const registration = await obtainRegistration(as, {
      store: this.#store,
      metadata: this.#options.clientMetadata ?? {},
      ...(this.#options.client !== undefined && { preRegistered: this.#options.client }),
      ...(this.#options.clientMetadataUrl !== undefined && { metadataDocumentUrl: this.#options.clientMetadataUrl }),
      http: this.#http,
    });
    const context = { resource: prm?.resource ?? serverUrl.href, as, registration, prm };
    this.#context = context;
    return context;
  }

  async #exchangeContext(context: AuthorizationContext): Promise<TokenExchange> {
    const algs = context.as.dpop_signing_alg_values_supported;
    if (this.#options.dpop !== 'never' && Array.isArray(algs) && algs.includes('ES256')) this.#dpop ??= await DpopKey.generate();
    else this.#dpop = undefined;
    return {
      as: context.as,
      client: { client_id: context.registration.client_id },
      auth: clientAuthentication(context.as, context.registration, this.#options.privateKey),
      http: this.#http,
      dpop: this.#dpop,
    };
  }

  /** The challenge's scope (with those asked before), else the PRM's, else none; `offline_access` where listed. */
  #selectScope(context: AuthorizationContext, challenges: readonly AuthChallenge[]): string | undefined {
    const challenged = challengeParam(challenges, 'scope');
    const base = challenged ?? context.prm?.scopes_supported?.join(' ') ?? this.#options.clientMetadata?.scope;
    if (base === undefined) return undefined;
    if (challenged === undefined) this.#scopes.clear();
    for (const scope of base.split(' ')) if (scope !== '') this.#scopes.add(scope);
    const wantsRefresh = (this.#options.grant ?? { type: 'authorization_code' }).type === 'authorization_code';
    if (wantsRefresh && context.as.scopes_supported?.includes('offline_access') === true) this.#scopes.add('offline_access');
    return this.#scopes.size === 0 ? undefined : [...this.#scopes].join(' ');
  }

  async #authorizationCode(exchange: TokenExchange, context: AuthorizationContext, scope: string | undefined): Promise<OAuthStoredTokens> {
    const authorize = this.#options.authorize;
    const redirectUri = this.#options.redirectUri ?? this.#options.clientMetadata?.redirect_uris?.[0];
    if (authorize === undefined || redirectUri === undefined) throw new Error('Authorization is required but no authorize callback and redirect URI were given');
    if (context.as.authorization_endpoint === undefined) throw new Error(`The authorization server ${context.as.issuer} has no authorization endpoint`);
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(context.as.authorization_endpoint);
    const query: Record<string, string | undefined> = {
      response_type: 'code',
      client_id: context.registration.client_id,
      redirect_uri: redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      scope,
      resource: context.resource,
    };
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    const callback = new URL(await authorize(url));
    const params = oauth.validateAuthResponse(context.as, exchange.client, callback.searchParams, state);
    return authorizationCodeGrant(exchange, params, redirectUri, codeVerifier, context.resource);
  }

  async #save(serverUrl: URL, granted: OAuthStoredTokens): Promise<void> {
    // A DPoP-bound token is stored with its key, so a restarted client can still use it.
    const tokens = granted.token_type === 'dpop' && this.#dpop !== undefined ? { ...granted, dpop_key: await this.#dpop.toJwk() } : granted;
    this.#tokens = tokens;
    await this.#store.setTokens(serverUrl.href, tokens);
  }
}
