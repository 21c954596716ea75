/**
 * An OAuth 2.1 protected resource for an MCP endpoint (MCP authorization spec; RFC 9728,
 * RFC 6750, RFC 9449): serves the Protected Resource Metadata document, turns the request's
 * credentials into a verified {@link AuthInfo} (or a 401/403 with the right challenge), checks
 * per-method and per-tool scopes once the body is read, and names the principal a session is
 * bound to. Plug it into `createStreamableHttpServer({ authorization })`.
 */
import type { AuthenticateContext, HttpAuthorization } from '../server/server-options.js';
import { McpError, type AuthInfo } from '@statemcp/protocol';
import { isAuthInfo } from '@statemcp/protocol/internal';
import { ResourceAuthError, principalKey, type ResourceErrorCode, type TokenVerifier } from './auth-info.js';
import { challengeResponse, unavailableResponse, type Challenge } from './challenge.js';
import { DpopChecker, type DpopOptions } from './dpop-proof.js';
import { DpopReplayCacheFullError } from './dpop-replay-store.js';
import { TokenRejectedError } from './verifier-errors.js';
import { requiredScopesFor, type ScopePolicy } from './scope-policy.js';

/** Options of {@link createProtectedResource}. */
export interface ProtectedResourceOptions extends ScopePolicy {
  /** This resource's URL: the MCP endpoint, e.g. `https://mcp.example.com/mcp`. Tokens must name it as audience. */
  resource: string | URL;
  /** The authorization servers (issuer URLs) that issue tokens for this resource. */
  authorizationServers: readonly (string | URL)[];
  /** Checks access tokens: {@link jwtVerifier}, {@link introspectionVerifier} or your own. */
  verifier: TokenVerifier;
  /** `scopes_supported` of the metadata document. */
  scopesSupported?: readonly string[];
  /** `resource_name` of the metadata document. */
  resourceName?: string;
  /** Further metadata fields (e.g. `resource_documentation`). */
  metadata?: Readonly<Record<string, unknown>>;
  /** Accept DPoP-bound tokens (`true` for the defaults, or options). Default: Bearer only. */
  dpop?: boolean | DpopOptions;
  /** Wall-clock time in ms since the epoch (tests). Default `Date.now`. */
  now?: () => number;
}

/** A protected resource: the `authorization` of a Streamable HTTP server, plus its metadata. */
export interface ProtectedResource extends HttpAuthorization {
  /** The Protected Resource Metadata document (RFC 9728 §2). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Where the document is served: the path-based well-known URL of the resource (RFC 9728 §3.1). */
  readonly metadataUrl: URL;
  /** Answers the metadata document (for framework routes: `app.get(resource.metadataUrl.pathname, …)`). */
  metadataResponse(): Response;
  /** The metadata document for a `GET` of {@link metadataUrl}'s path; `undefined` for anything else. */
  serve(request: Request): Response | undefined;
  /**
   * The verified principal of a request, or the refusal to answer. Clients get generic texts;
   * the reasons (verifier errors as {@link TokenRejectedError} with `cause`, an unreachable
   * authorization server or replay store, a full replay set) go to `context.report` — the
   * server's `onError` when the server calls it.
   */
  authenticate(request: Request, context?: AuthenticateContext): Promise<AuthInfo | Response>;
  /** A 403 `insufficient_scope` when the token lacks a scope the messages need. */
  authorize(authInfo: unknown, messages: readonly unknown[]): Response | undefined;
  /** The issuer and subject (or client) a session is bound to. */
  principalOf(authInfo: unknown): string | undefined;
}

/** The path-based well-known URL of a resource's metadata (RFC 9728 §3.1). */
export function protectedResourceMetadataUrl(resource: string | URL): URL {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return new URL(`/.well-known/oauth-protected-resource${path}`, url.origin);
}

type Credentials = { scheme: 'Bearer' | 'DPoP'; token: string } | { scheme: undefined } | { error: string };

/** The one `Authorization` credential of a request (RFC 6750 §2.1; never from the query). */
function credentialsOf(request: Request): Credentials {
  const header = request.headers.get('authorization');
  if (header === null || header.trim() === '') return { scheme: undefined };
  if (header.includes(',')) return { error: 'more than one Authorization credential' };
  const [scheme = '', token, ...rest] = header.trim().split(/\s+/);
  const known = scheme.toLowerCase() === 'bearer' ? 'Bearer' : scheme.toLowerCase() === 'dpop' ? 'DPoP' : undefined;
  if (known === undefined) return { scheme: undefined };
  if (token === undefined || rest.length > 0) return { error: 'the Authorization header does not hold one token' };
  return { scheme: known, token };
}

/**
 * Creates the protected-resource side of MCP authorization.
 *
 * @example
 * ```ts
 * import { createStreamableHttpServer } from '@statemcp/http-transport/server';
 * import { createProtectedResource, jwtVerifier } from '@statemcp/http-transport/auth';
 *
 * const resource = 'https://mcp.example.com/mcp';
 * const authorization = createProtectedResource({
 *   resource,
 *   authorizationServers: ['https://auth.example.com'],
 *   verifier: jwtVerifier({ issuer: 'https://auth.example.com', jwksUri: 'https://auth.example.com/jwks', audience: resource }),
 *   requiredScopes: ['mcp'],
 *   toolScopes: { deleteEverything: ['admin'] },
 * });
 * const mcp = createStreamableHttpServer({ connect: (t) => server.connect(t), authorization });
 * ```
 */
export function createProtectedResource(options: ProtectedResourceOptions): ProtectedResource {
  const resource = new URL(options.resource);
  const metadataUrl = protectedResourceMetadataUrl(resource);
  const now = options.now ?? Date.now;
  const dpopOptions = options.dpop === true ? {} : options.dpop === false ? undefined : options.dpop;
  const dpop = dpopOptions === undefined ? undefined : new DpopChecker(dpopOptions, now);
  const dpopAlgorithms = dpopOptions?.algorithms ?? ['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA'];
  const metadata: Readonly<Record<string, unknown>> = Object.freeze({
    ...options.metadata,
    resource: resource.href,
    authorization_servers: options.authorizationServers.map((server) => String(server)),
    bearer_methods_supported: ['header'],
    ...(options.scopesSupported === undefined ? {} : { scopes_supported: [...options.scopesSupported] }),
    ...(options.resourceName === undefined ? {} : { resource_name: options.resourceName }),
    ...(dpop === undefined ? {} : { dpop_signing_alg_values_supported: [...dpopAlgorithms], dpop_bound_access_tokens_required: dpop.required }),
  });
  const body = JSON.stringify(metadata);
  const baseScopes = options.requiredScopes ?? [];
  const acceptedSchemes: ('Bearer' | 'DPoP')[] = dpop === undefined ? ['Bearer'] : dpop.required ? ['DPoP'] : ['Bearer', 'DPoP'];

  const refuse = (error: ResourceErrorCode | undefined, description: string | undefined, scheme?: 'Bearer' | 'DPoP', scopes = baseScopes): Response => {
    const schemes = scheme === undefined ? acceptedSchemes : [scheme];
    const challenge: Challenge = {
      resourceMetadata: metadataUrl.href,
      scopes,
      schemes,
      ...(schemes.includes('DPoP') ? { dpopAlgorithms } : {}),
      ...(error === undefined ? {} : { error }),
      ...(description === undefined ? {} : { description }),
      ...(error === 'use_dpop_nonce' ? { dpopNonce: dpop?.currentNonce() } : {}),
    };
    return challengeResponse(challenge);
  };

  /** A token the verifier refused (401, generic text) or could not check (503); the reason goes to `report`. */
  const verifierFailure = (error: unknown, scheme: 'Bearer' | 'DPoP', report: (error: unknown) => void): Response => {
    // A ResourceAuthError's text is the verifier author's own, written for clients.
    if (error instanceof ResourceAuthError) return refuse(error.error, error.message, scheme);
    if (error instanceof McpError && error.category === 'interrupted') {
      report(error);
      return unavailableResponse('authorization server unavailable', 1);
    }
    report(error instanceof TokenRejectedError ? error : new TokenRejectedError('The token verifier refused the access token', { cause: error }));
    return refuse('invalid_token', 'the access token is not valid', scheme);
  };

  /** A DPoP proof refused (401/400), or not checkable now (503: replay set full or unreachable). */
  const proofFailure = (error: unknown, scheme: 'Bearer' | 'DPoP', report: (error: unknown) => void): Response => {
    if (error instanceof ResourceAuthError) return refuse(error.error, error.message, scheme);
    report(error);
    if (error instanceof DpopReplayCacheFullError) return unavailableResponse('too many recent DPoP proofs; retry later', error.retryAfterMs / 1000);
    return unavailableResponse('DPoP proofs cannot be checked right now', 1);
  };

  const authenticate = async (request: Request, context?: AuthenticateContext): Promise<AuthInfo | Response> => {
    const report = context?.report ?? ((): void => undefined);
    const credentials = credentialsOf(request);
    if ('error' in credentials) return refuse('invalid_request', credentials.error);
    if (credentials.scheme === undefined) return refuse(undefined, undefined);
    const { scheme, token } = credentials;
    if (scheme === 'DPoP' && dpop === undefined) return refuse(undefined, undefined);
    if (scheme === 'Bearer' && dpop?.required === true) return refuse('invalid_token', 'this resource accepts DPoP-bound tokens only', 'DPoP');
    let verified;
    try {
      verified = await options.verifier.verify(token);
    } catch (error) {
      return verifierFailure(error, scheme, report);
    }
    if (verified.resource !== undefined && verified.resource.href !== resource.href) {
      return refuse('invalid_token', 'the access token is for another resource', scheme);
    }
    const jkt = verified.confirmationThumbprint;
    if (scheme === 'Bearer' && jkt !== undefined) return refuse('invalid_token', 'a DPoP-bound token was presented as a Bearer token', scheme);
    if (scheme === 'DPoP') {
      if (jkt === undefined || dpop === undefined) return refuse('invalid_token', 'the access token is not DPoP-bound', scheme);
      const proofs = request.headers.get('dpop');
      if (proofs === null || proofs.includes(',')) return refuse('invalid_dpop_proof', 'exactly one DPoP proof header is required', scheme);
      try {
        const url = new URL(request.url);
        const proof = { proof: proofs.trim(), method: request.method, uri: `${resource.origin}${url.pathname}`, accessToken: token, boundThumbprint: jkt };
        await dpop.check(proof, context?.readmitted === true);
      } catch (error) {
        return proofFailure(error, scheme, report);
      }
    }
    const missing = baseScopes.filter((scope) => !verified.scopes.includes(scope));
    if (missing.length > 0) return refuse('insufficient_scope', `the token lacks scope ${missing.join(' ')}`, scheme);
    return Object.freeze({ ...verified, token, tokenType: scheme, resource: verified.resource ?? resource });
  };

  return {
    metadata,
    metadataUrl,
    metadataResponse: () =>
      new Response(body, { status: 200, headers: { 'content-type': 'application/json', 'access-control-allow-origin': '*', 'cache-control': 'max-age=300' } }),
    serve(request) {
      const url = new URL(request.url);
      if (url.pathname !== metadataUrl.pathname) return undefined;
      if (request.method === 'OPTIONS') {
        return new Response(null, { status: 204, headers: { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET', 'access-control-allow-headers': '*' } });
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { allow: 'GET' } });
      return this.metadataResponse();
    },
    authenticate,
    authorize(authInfo, messages) {
      if (!isAuthInfo(authInfo)) return undefined;
      const needed = requiredScopesFor(options, messages, authInfo);
      const missing = needed.filter((scope) => !authInfo.scopes.includes(scope));
      if (missing.length === 0) return undefined;
      return refuse('insufficient_scope', `this request needs scope ${missing.join(' ')}`, authInfo.tokenType, needed);
    },
    principalOf: (authInfo) => (isAuthInfo(authInfo) ? principalKey(authInfo) : undefined),
  };
}
