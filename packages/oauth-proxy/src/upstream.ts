/**
 * The proxy as a client of the upstream identity provider (GitHub, Google, Entra, any OAuth 2.0
 * or OpenID Connect server that offers no registration to MCP clients), over oauth4webapi: the
 * upstream's metadata (discovered, or given), an authorization request with the proxy's
 * pre-registered client id, PKCE S256, `state` and (for `openid`) `nonce`; the callback checked
 * (`state`, RFC 9207 `iss` where the upstream supports it), the code exchanged, and the user named
 * by the ID token's claims or by the application's `identify`.
 *
 * The upstream's tokens stay here: they name the user and are then dropped. MCP clients get the
 * proxy's own tokens, never the upstream's (2025-11-25, Basic / Security Best Practices, "Token
 * Passthrough").
 */
import * as oauth from 'oauth4webapi';

/** The user as the upstream identity provider names them. */
export interface UpstreamIdentity {
  /** A stable identifier of the user at the upstream (the ID token's `sub`, or `identify`'s). */
  readonly subject: string;
  /** What the upstream says about the user (ID token claims, or `identify`'s). */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** What the upstream's token endpoint answered, for {@link UpstreamOptions.identify}. */
export interface UpstreamTokens {
  /** The upstream access token: for calls that name the user (e.g. GitHub's `GET /user`). */
  readonly accessToken: string;
  /** The validated ID token claims, when the upstream issued an ID token. */
  readonly idTokenClaims: Readonly<Record<string, unknown>> | undefined;
  readonly scope: string | undefined;
}

/** The upstream identity provider and the proxy's registration there. */
export interface UpstreamOptions {
  /** The upstream's issuer identifier; its metadata is discovered (OpenID Connect, then RFC 8414) unless `metadata` is given. */
  readonly issuer: string;
  /** The upstream's endpoints, for a server without discovery (GitHub). */
  readonly metadata?: {
    readonly authorization_endpoint: string;
    readonly token_endpoint: string;
    readonly [field: string]: unknown;
  };
  /** The client id registered at the upstream for this proxy. */
  readonly clientId: string;
  /** Its secret (confidential client). Without one the proxy authenticates as a public client (`none`). */
  readonly clientSecret?: string;
  /** Default `client_secret_basic` with a secret, `none` without. */
  readonly tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
  /** The scope asked of the upstream. Default `openid`. */
  readonly scope?: string;
  /** Further authorization request parameters (e.g. Google's `hd`, Entra's `domain_hint`). */
  readonly authorizationParams?: Readonly<Record<string, string>>;
  /**
   * Names the user from the upstream's tokens. Default: the ID token's `sub` and claims (an
   * upstream that issues no ID token, such as GitHub, needs this).
   */
  readonly identify?: (tokens: UpstreamTokens) => Promise<UpstreamIdentity> | UpstreamIdentity;
}

/** One sign-in at the upstream in progress: what the callback needs to finish it. */
export interface UpstreamLogin {
  readonly codeVerifier: string;
  readonly nonce: string | undefined;
}

/** How the proxy reaches the network. */
export interface ProxyHttp {
  readonly fetch: typeof fetch;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

type CustomFetch = (url: string, options: oauth.CustomFetchOptions<string, unknown>) => Promise<Response>;

/** oauth4webapi's request options: the proxy's `fetch`, plain `http:` for loopback hosts only. */
function requestOptions(http: ProxyHttp, target: string | URL): { [oauth.customFetch]: CustomFetch; [oauth.allowInsecureRequests]?: boolean } {
  const url = new URL(target);
  const insecure = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
  const custom: CustomFetch = (request, options) => http.fetch(request, options as RequestInit);
  return { [oauth.customFetch]: custom, ...(insecure && { [oauth.allowInsecureRequests]: true }) };
}

/** The upstream's metadata: given, or discovered with OpenID Connect discovery, then RFC 8414. */
async function upstreamMetadata(options: UpstreamOptions, http: ProxyHttp): Promise<oauth.AuthorizationServer> {
  if (options.metadata !== undefined) return { ...options.metadata, issuer: options.issuer };
  const issuer = new URL(options.issuer);
  const failures: string[] = [];
  for (const algorithm of ['oidc', 'oauth2'] as const) {
    try {
      const response = await oauth.discoveryRequest(issuer, { algorithm, ...requestOptions(http, issuer) });
      return await oauth.processDiscoveryResponse(issuer, response);
    } catch (error) {
      failures.push(`${algorithm}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`The upstream identity provider ${options.issuer} could not be discovered (${failures.join('; ')}); give its endpoints as upstream.metadata`);
}

function clientAuthentication(options: UpstreamOptions): oauth.ClientAuth {
  const method = options.tokenEndpointAuthMethod ?? (options.clientSecret === undefined ? 'none' : 'client_secret_basic');
  if (method === 'none') return oauth.None();
  if (options.clientSecret === undefined) throw new TypeError(`upstream.tokenEndpointAuthMethod ${method} needs upstream.clientSecret`);
  return method === 'client_secret_basic' ? oauth.ClientSecretBasic(options.clientSecret) : oauth.ClientSecretPost(options.clientSecret);
}

/** The identity in a validated ID token. */
function identityFromIdToken(tokens: UpstreamTokens): UpstreamIdentity {
  const claims = tokens.idTokenClaims;
  if (claims === undefined || typeof claims['sub'] !== 'string') {
    throw new Error('The upstream issued no ID token: ask for the openid scope, or name the user with upstream.identify');
  }
  return { subject: claims['sub'], claims };
}

/** The upstream identity provider, as the proxy's sign-in step uses it. */
export class UpstreamProvider {
  readonly #options: UpstreamOptions;
  readonly #as: oauth.AuthorizationServer;
  readonly #client: oauth.Client;
  readonly #auth: oauth.ClientAuth;
  readonly #http: ProxyHttp;
  readonly #redirectUri: string;
  readonly #scope: string;

  private constructor(options: UpstreamOptions, as: oauth.AuthorizationServer, http: ProxyHttp, redirectUri: string) {
    this.#options = options;
    this.#as = as;
    this.#client = { client_id: options.clientId };
    this.#auth = clientAuthentication(options);
    this.#http = http;
    this.#redirectUri = redirectUri;
    this.#scope = options.scope ?? 'openid';
  }

  /** Resolves the upstream's metadata (fails fast on a wrong issuer) and checks the options. */
  static async create(options: UpstreamOptions, http: ProxyHttp, redirectUri: string): Promise<UpstreamProvider> {
    if (typeof options.clientId !== 'string' || options.clientId === '') throw new TypeError('upstream.clientId is required');
    const as = await upstreamMetadata(options, http);
    if (as.authorization_endpoint === undefined || as.token_endpoint === undefined) {
      throw new Error(`The upstream identity provider ${options.issuer} names no authorization or token endpoint`);
    }
    return new UpstreamProvider(options, as, http, redirectUri);
  }

  /** The upstream's issuer identifier. */
  get issuer(): string {
    return this.#as.issuer;
  }

  /** A new sign-in: the upstream authorization URL for `state`, and what the callback will need. */
  async start(state: string): Promise<{ url: URL; login: UpstreamLogin }> {
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const nonce = this.#scope.split(' ').includes('openid') ? oauth.generateRandomNonce() : undefined;
    const url = new URL(String(this.#as.authorization_endpoint));
    for (const [name, value] of Object.entries(this.#options.authorizationParams ?? {})) url.searchParams.set(name, value);
    const params: Record<string, string | undefined> = {
      response_type: 'code',
      client_id: this.#options.clientId,
      redirect_uri: this.#redirectUri,
      scope: this.#scope,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      nonce,
    };
    for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
    return { url, login: { codeVerifier, nonce } };
  }

  /**
   * Finishes a sign-in from the callback URL: checks it, exchanges the code, names the user.
   * An upstream `error` (the user cancelled) rejects with oauth4webapi's `AuthorizationResponseError`.
   */
  async finish(callback: URL, state: string, login: UpstreamLogin): Promise<UpstreamIdentity> {
    const params = oauth.validateAuthResponse(this.#as, this.#client, callback.searchParams, state);
    const response = await oauth.authorizationCodeGrantRequest(
      this.#as,
      this.#client,
      this.#auth,
      params,
      this.#redirectUri,
      login.codeVerifier,
      requestOptions(this.#http, String(this.#as.token_endpoint)),
    );
    const result = await oauth.processAuthorizationCodeResponse(this.#as, this.#client, response, {
      ...(login.nonce !== undefined && { expectedNonce: login.nonce }),
      requireIdToken: login.nonce !== undefined && this.#options.identify === undefined,
    });
    const tokens: UpstreamTokens = { accessToken: result.access_token, idTokenClaims: oauth.getValidatedIdTokenClaims(result), scope: result.scope };
    const identity = await (this.#options.identify ?? identityFromIdToken)(tokens);
    if (typeof identity.subject !== 'string' || identity.subject === '') throw new Error('upstream.identify named no subject');
    return identity;
  }
}
