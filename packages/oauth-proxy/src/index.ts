/**
 * `@statemcp/oauth-proxy`: an OAuth 2.1 authorization server for MCP in front of an identity
 * provider that offers MCP clients no registration. MCP clients register with it (dynamically or
 * by a client ID metadata document); users sign in at the upstream IdP; the proxy issues its own
 * audience-bound, DPoP-capable JWT access tokens, which `@statemcp/http-transport/auth` verifies.
 * The authorization server is `oidc-provider`; the upstream client is `oauth4webapi`.
 */
export { createOAuthProxy, UPSTREAM_CALLBACK_PATH } from './oauth-proxy.js';
export { generateSigningKey, publicKeyOf } from './signing-keys.js';
export { renderConsentPage } from './consent-page.js';

export type { OAuthProxy, OAuthProxyOptions } from './oauth-proxy.js';
export type { ProxyResource } from './provider-config.js';
export type { SigningKey, SigningAlgorithm } from './signing-keys.js';
export type { UpstreamOptions, UpstreamIdentity, UpstreamTokens } from './upstream.js';
export type { ConsentOptions, ConsentClient } from './interactions.js';
export type { ConsentView } from './consent-page.js';
