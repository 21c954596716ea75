/**
 * The token requests of an OAuth client, over oauth4webapi: client authentication at the
 * token endpoint, the grants (authorization code, refresh, client credentials, JWT bearer)
 * with the `resource` parameter, and a DPoP nonce retry (RFC 9449 §8).
 */
import * as oauth from 'oauth4webapi';
import type { DpopKey } from './dpop.js';
import { requestOptions, type OAuthHttp } from './http.js';
import type { OAuthClientRegistration, OAuthStoredTokens } from './store.js';

/** The grant type URI of RFC 7523 §2.1. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** What a JWT-bearer assertion source learns about the token request it is for. */
export interface AssertionContext {
  /** The authorization server's issuer identifier (the assertion's audience). */
  readonly issuer: string;
  readonly tokenEndpoint: string;
  /** The protected resource the token is for. */
  readonly resource: string;
  readonly scope?: string;
}

/** A private key for `private_key_jwt` client authentication (RFC 7523 §2.2). */
export interface ClientPrivateKey {
  /** A `CryptoKey` (e.g. from jose's `importPKCS8`). */
  readonly key: Extract<Parameters<typeof oauth.PrivateKeyJwt>[0], { kid?: string }>['key'];
  readonly kid?: string;
}

/** Token endpoint client authentication from the registration, the key and the server's methods. */
export function clientAuthentication(as: oauth.AuthorizationServer, registration: OAuthClientRegistration, privateKey?: ClientPrivateKey): oauth.ClientAuth {
  const supported = as.token_endpoint_auth_methods_supported;
  const secret = registration.client_secret;
  const method =
    registration.token_endpoint_auth_method ??
    (privateKey !== undefined
      ? 'private_key_jwt'
      : secret === undefined
        ? 'none'
        : supported === undefined || supported.includes('client_secret_basic') || !supported.includes('client_secret_post')
          ? 'client_secret_basic'
          : 'client_secret_post');
  switch (method) {
    case 'client_secret_basic':
    case 'client_secret_post':
      if (secret === undefined) throw new Error(`The client registration uses ${method} but has no client_secret`);
      return method === 'client_secret_basic' ? secretBasic(secret) : oauth.ClientSecretPost(secret);
    case 'private_key_jwt':
      if (privateKey === undefined) throw new Error('The client registration uses private_key_jwt but no privateKey was given');
      return oauth.PrivateKeyJwt(privateKey.kid === undefined ? privateKey.key : { key: privateKey.key, kid: privateKey.kid });
    case 'none':
      return oauth.None();
    default:
      throw new Error(`Unsupported token_endpoint_auth_method ${method}`);
  }
}

/**
 * `client_secret_basic` (RFC 6749 §2.3.1) with `encodeURIComponent` for the form encoding:
 * unreserved marks such as `-` stay as they are, which servers that skip the decoding
 * step (many do) still accept, and which decoding servers read the same.
 */
function secretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    const encode = (value: string): string => encodeURIComponent(value).replace(/%20/g, '+');
    headers.set('authorization', `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}

/** One token endpoint exchange: the request, its processing, and at most one DPoP nonce retry. */
export interface TokenExchange {
  readonly as: oauth.AuthorizationServer;
  readonly client: oauth.Client;
  readonly auth: oauth.ClientAuth;
  readonly http: OAuthHttp;
  readonly dpop: DpopKey | undefined;
}

type Send = (options: oauth.TokenEndpointRequestOptions) => Promise<Response>;
type Process = (response: Response) => Promise<oauth.TokenEndpointResponse>;

/** Runs `send` then `process`; a `use_dpop_nonce` answer is retried once with the nonce the handle took. */
export async function exchange(ctx: TokenExchange, parameters: Record<string, string | undefined>, send: Send, process: Process): Promise<OAuthStoredTokens> {
  const additionalParameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) additionalParameters[name] = value;
  const options: oauth.TokenEndpointRequestOptions = {
    ...requestOptions(ctx.http, ctx.as.token_endpoint),
    additionalParameters,
    ...(ctx.dpop !== undefined && { DPoP: ctx.dpop.handle }),
  };
  let result: oauth.TokenEndpointResponse;
  try {
    result = await process(await send(options));
  } catch (error) {
    if (ctx.dpop === undefined || !oauth.isDPoPNonceError(error)) throw error;
    result = await process(await send(options));
  }
  return {
    access_token: result.access_token,
    token_type: result.token_type.toLowerCase(),
    ...(result.refresh_token !== undefined && { refresh_token: result.refresh_token }),
    ...(result.expires_in !== undefined && { expires_at: Date.now() + result.expires_in * 1000 }),
    ...(result.scope !== undefined && { scope: result.scope }),
    issuer: ctx.as.issuer,
  };
}

/** The authorization code grant (RFC 6749 §4.1.3) with PKCE and `resource`. */
export function authorizationCodeGrant(
  ctx: TokenExchange,
  callback: URLSearchParams,
  redirectUri: string,
  codeVerifier: string,
  resource: string,
): Promise<OAuthStoredTokens> {
  return exchange(
    ctx,
    { resource },
    (options) => oauth.authorizationCodeGrantRequest(ctx.as, ctx.client, ctx.auth, callback, redirectUri, codeVerifier, options),
    (response) => oauth.processAuthorizationCodeResponse(ctx.as, ctx.client, response),
  );
}

/**
 * The refresh token grant (RFC 6749 §6) with `resource`. A response without a new
 * `refresh_token` leaves the old one valid (RFC 6749 §6), so the tokens keep it.
 */
export async function refreshGrant(ctx: TokenExchange, refreshToken: string, resource: string): Promise<OAuthStoredTokens> {
  const tokens = await exchange(
    ctx,
    { resource },
    (options) => oauth.refreshTokenGrantRequest(ctx.as, ctx.client, ctx.auth, refreshToken, options),
    (response) => oauth.processRefreshTokenResponse(ctx.as, ctx.client, response),
  );
  return tokens.refresh_token === undefined ? { ...tokens, refresh_token: refreshToken } : tokens;
}

/** The client credentials grant (RFC 6749 §4.4) with `scope` and `resource`. */
export function clientCredentialsGrant(ctx: TokenExchange, scope: string | undefined, resource: string): Promise<OAuthStoredTokens> {
  return exchange(
    ctx,
    {},
    (options) => oauth.clientCredentialsGrantRequest(ctx.as, ctx.client, ctx.auth, { resource, ...(scope !== undefined && { scope }) }, options),
    (response) => oauth.processClientCredentialsResponse(ctx.as, ctx.client, response),
  );
}

/** The JWT bearer grant (RFC 7523 §2.1) with `scope` and `resource`. */
export function jwtBearerGrant(ctx: TokenExchange, assertion: string, scope: string | undefined, resource: string): Promise<OAuthStoredTokens> {
  return exchange(
    ctx,
    {},
    (options) => oauth.genericTokenEndpointRequest(ctx.as, ctx.client, ctx.auth, JWT_BEARER_GRANT, { assertion, resource, ...(scope !== undefined && { scope }) }, options),
    (response) => oauth.processGenericTokenEndpointResponse(ctx.as, ctx.client, response),
  );
}
