/**
 * OAuth 2.1 protection for a Streamable HTTP MCP server (`@statemcp/http-transport/auth`):
 * Protected Resource Metadata, `WWW-Authenticate` challenges, JWT (JWKS) and introspection
 * verifiers, DPoP-bound tokens with a replay set (in memory, or shared by a cluster), per-method
 * and per-tool scopes, and sessions bound to their principal. Cryptography is `jose`'s.
 */
export { createProtectedResource, protectedResourceMetadataUrl } from './protected-resource.js';
export { jwtVerifier, DEFAULT_TOKEN_ALGORITHMS } from './jwt-verifier.js';
export { introspectionVerifier } from './introspection-verifier.js';
export { InMemoryDpopReplayStore, DpopReplayCacheFullError } from './dpop-replay-store.js';
export { TokenRejectedError, AuthorizationServerUnavailableError } from './verifier-errors.js';
export { ResourceAuthError } from './auth-info.js';

export type { ProtectedResource, ProtectedResourceOptions } from './protected-resource.js';
export type { VerifiedToken, TokenVerifier, ResourceErrorCode } from './auth-info.js';
export type { JwtVerifierOptions } from './jwt-verifier.js';
export type { IntrospectionVerifierOptions } from './introspection-verifier.js';
export type { IntrospectionCacheOptions } from './introspection-cache.js';
export type { DpopOptions } from './dpop-proof.js';
export type { DpopReplayOutcome, DpopReplayStore, InMemoryDpopReplayStoreOptions } from './dpop-replay-store.js';
export type { RegisteredScopes, ScopePolicy } from './scope-policy.js';
