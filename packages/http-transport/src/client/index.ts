/**
 * HTTP client transports: Streamable HTTP (with resumable SSE, session recovery and the
 * legacy fallback) and the legacy HTTP+SSE transport on its own.
 */
export { StreamableHttpClientTransport } from './streamable-http.js';
export type {
  SessionRecoveredInfo,
  StreamState,
  StreamStateChange,
  StreamableHttpClientTransportOptions,
} from './streamable-http.js';
export { SseClientTransport } from './sse-client.js';
export { createNodeHttpFetch, nodeHttpFetch } from './node-http-fetch.js';
export type { NodeHttpFetchOptions } from './node-http-fetch.js';
export type { SseClientTransportOptions } from './sse-client.js';
export { HttpResponseError } from './http-errors.js';
export { DEFAULT_RECONNECT_OPTIONS, reconnectDelay } from './reconnect.js';
export type { ReconnectOptions } from './reconnect.js';
export type { HeadersOption } from './request-headers.js';
export { authMiddleware, MAX_AUTH_ATTEMPTS } from './auth-hook.js';
export type { AuthMiddlewareOptions, HttpAuthProvider, HttpAuthRequest } from './auth-hook.js';
export { headersMiddleware, loggingMiddleware, withFetchMiddleware } from './fetch-middleware.js';
export type { FetchLogEntry, FetchMiddleware, LoggingMiddlewareOptions } from './fetch-middleware.js';
export { parseRetryAfter, retryMiddleware } from './fetch-retry.js';
export type { RetryInfo, RetryMiddlewareOptions } from './fetch-retry.js';
