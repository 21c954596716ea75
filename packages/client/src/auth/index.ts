/**
 * @statemcp/client/auth — OAuth 2.1 authorization for MCP clients, web-standard code only
 * (Node, Deno, Bun, workers, browsers): {@link OAuthClientProvider} for the HTTP transport's
 * `authProvider` option, its storage, and the discovery pieces it is built from. The
 * loopback redirect and a file store for Node CLIs are in `@statemcp/client/auth/node`.
 */
export { OAuthClientProvider } from './provider.js';
export type { OAuthClientProviderOptions, OAuthGrant } from './provider.js';
export { OAuthDiscoveryError } from './errors.js';
export type { OAuthDiscoveryProblem } from './errors.js';
export { InMemoryOAuthStore } from './store.js';
export type { OAuthClientRegistration, OAuthStore, OAuthStoredTokens } from './store.js';
export type { OAuthClientMetadata } from './registration.js';
export { JWT_BEARER_GRANT } from './grants.js';
export type { AssertionContext, ClientPrivateKey } from './grants.js';
export { idJagAssertion } from './id-jag.js';
export type { IdJagAssertionOptions } from './id-jag.js';
export { authorizationServerMetadataUrls, resourceMatches, resourceMetadataUrls } from './discovery.js';
export type { ProtectedResourceMetadata } from './discovery.js';
export { challengeParam, parseWwwAuthenticate } from './www-authenticate.js';
export type { AuthChallenge } from './www-authenticate.js';
