/**
 * @statemcp/server/compose — many servers behind one: mount local `McpServer`s and remote
 * upstreams (through `@statemcp/client`, any transport, either era) under prefixes on one
 * composed server, with requests, progress, cancellation, sampling, elicitation, roots, log
 * messages and list changes forwarded, an upstream's tasks surfaced as tasks of the composed
 * server, and upstreams reconnected after a loss.
 */
export { Composition, compose } from './composition.js';
export type { ComposeOptions, Mount } from './composition.js';
export { proxy } from './upstream-link.js';
export type { MountState, ProxyOptions, ReconnectOptions, Upstream } from './upstream-link.js';
export { UPSTREAM_UNAVAILABLE_ERROR_CODE, UpstreamUnavailableError } from './upstream-error.js';
export type { NameSeparator } from './namespace.js';
export type { ForwardedRequest } from './call-routing.js';
