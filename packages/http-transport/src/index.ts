/**
 * @statemcp/http-transport — Streamable HTTP for MCP: a server with one core and two front
 * doors (node:http and fetch-style), a session manager, an event store for resumability,
 * secure defaults (127.0.0.1, Host/Origin validation, body limit), a legacy HTTP+SSE
 * endpoint; and a fetch-based client that recovers (reconnection with backoff, `retry:`,
 * `Last-Event-ID`, a forgotten session handed to the session's machine, legacy fallback). WebSocket lives in the
 * `@statemcp/http-transport/ws` subpath so `ws` stays an optional peer dependency.
 * `@statemcp/http-transport/client` holds the client side alone (for browsers and bundles),
 * `@statemcp/http-transport/server` the server side alone.
 */

// Server
export {
  HttpErrorCode,
  InMemoryEventStore,
  InMemoryLivenessStore,
  InMemoryMessageBus,
  InMemorySessionStore,
  InMemorySubscriptionStore,
  LOOPBACK_HOSTS,
  PROTOCOL_VERSION_HEADER,
  SESSION_ID_HEADER,
  SessionManager,
  SharedStoreUnavailableError,
  acceptsMediaType,
  busChannel,
  createHostGuard,
  createStreamableHttpServer,
  isLoopbackAddress,
  isValidSessionId,
} from './server/index.js';
export type {
  AuthenticateContext,
  AuthenticateResult,
  BusHandler,
  EventStore,
  HandleRequestOptions,
  HttpAuthorization,
  HostGuardInput,
  HostGuardOptions,
  HostGuardResult,
  InMemoryEventStoreOptions,
  InMemorySessionStoreOptions,
  ListeningServer,
  LivenessStore,
  ManagedSession,
  MessageBus,
  ReplayResult,
  SessionEndReason,
  SessionRecord,
  SessionStore,
  SessionManagerOptions,
  SessionRegistry,
  StoredEvent,
  StreamRequests,
  StreamableHttpServer,
  StreamableHttpServerOptions,
  StreamableHttpSessionTransport,
  SubscriptionStore,
} from './server/index.js';

// Client
export {
  DEFAULT_RECONNECT_OPTIONS,
  HttpResponseError,
  MAX_AUTH_ATTEMPTS,
  SseClientTransport,
  StreamableHttpClientTransport,
  authMiddleware,
  createNodeHttpFetch,
  headersMiddleware,
  loggingMiddleware,
  nodeHttpFetch,
  parseRetryAfter,
  reconnectDelay,
  retryMiddleware,
  withFetchMiddleware,
} from './client/index.js';
export type {
  AuthMiddlewareOptions,
  FetchLogEntry,
  FetchMiddleware,
  HeadersOption,
  HttpAuthProvider,
  HttpAuthRequest,
  LoggingMiddlewareOptions,
  ReconnectOptions,
  RetryInfo,
  RetryMiddlewareOptions,
  SessionRecoveredInfo,
  SseClientTransportOptions,
  StreamState,
  StreamStateChange,
  NodeHttpFetchOptions,
  StreamableHttpClientTransportOptions,
} from './client/index.js';
