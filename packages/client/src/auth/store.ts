/**
 * Where an OAuth client keeps what outlives one request: its registration at each
 * authorization server and the tokens of each protected resource. Pluggable; an in-memory
 * store is here, a file store in `@statemcp/client/auth/node`.
 */

/** A client's registration at one authorization server (RFC 7591 §3.2.1, the fields used). */
export interface OAuthClientRegistration {
  readonly client_id: string;
  readonly client_secret?: string;
  /** `client_secret_basic`, `client_secret_post`, `none` or `private_key_jwt`. */
  readonly token_endpoint_auth_method?: string;
  /**
   * The issuer these credentials are registered at. When set on pre-registered credentials,
   * they are used only where the server's verified authorization server is this issuer.
   */
  readonly issuer?: string;
}

/** The tokens of one resource, as stored. */
export interface OAuthStoredTokens {
  readonly access_token: string;
  /** Lower-case: `bearer` or `dpop`. */
  readonly token_type: string;
  readonly refresh_token?: string;
  /** Expiry, ms since the epoch; absent when the server gave no `expires_in`. */
  readonly expires_at?: number;
  readonly scope?: string;
  /** The issuer that granted them: a token is never sent after its issuer changed. */
  readonly issuer: string;
  /**
   * With a DPoP-bound token (`token_type` `dpop`): the ES256 private key (a JWK, `d`
   * included) it is bound to, so a restarted client can use the token and its refresh token.
   * A secret like the tokens.
   */
  readonly dpop_key?: { readonly kty: string; readonly crv: string; readonly x: string; readonly y: string; readonly d: string };
}

/**
 * Storage of registrations (by issuer) and tokens (by resource URL). Implementations must
 * treat the values as secrets: never log them, keep files private.
 */
export interface OAuthStore {
  /** The client registration kept for the authorization server `issuer`, if any. */
  getClient(issuer: string): Promise<OAuthClientRegistration | undefined>;
  /** Keeps (or, with `undefined`, forgets) the registration for `issuer`. */
  setClient(issuer: string, registration: OAuthClientRegistration | undefined): Promise<void>;
  /** The tokens kept for the protected resource `resource`, if any. */
  getTokens(resource: string): Promise<OAuthStoredTokens | undefined>;
  /** Keeps (or, with `undefined`, forgets) the tokens for `resource`. */
  setTokens(resource: string, tokens: OAuthStoredTokens | undefined): Promise<void>;
}

/**
 * An {@link OAuthStore} in memory: registrations and tokens last as long as the process.
 *
 * @example
 * ```ts
 * const provider = new OAuthClientProvider({ ..., store: new InMemoryOAuthStore() });
 * ```
 */
export class InMemoryOAuthStore implements OAuthStore {
  readonly #clients = new Map<string, OAuthClientRegistration>();
  readonly #tokens = new Map<string, OAuthStoredTokens>();

  /** The registration kept for `issuer`, if any. */
  async getClient(issuer: string): Promise<OAuthClientRegistration | undefined> {
    return this.#clients.get(issuer);
  }

  /** Keeps or forgets the registration for `issuer`. */
  async setClient(issuer: string, registration: OAuthClientRegistration | undefined): Promise<void> {
    if (registration === undefined) this.#clients.delete(issuer);
    else this.#clients.set(issuer, registration);
  }

  /** The tokens kept for `resource`, if any. */
  async getTokens(resource: string): Promise<OAuthStoredTokens | undefined> {
    return this.#tokens.get(resource);
  }

  /** Keeps or forgets the tokens for `resource`. */
  async setTokens(resource: string, tokens: OAuthStoredTokens | undefined): Promise<void> {
    if (tokens === undefined) this.#tokens.delete(resource);
    else this.#tokens.set(resource, tokens);
  }
}
