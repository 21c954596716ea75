/**
 * Server side of the Streamable HTTP transport (and the legacy HTTP+SSE endpoint):
 * `createStreamableHttpServer` plus its event store, session manager and Host/Origin guard.
 */
export { createStreamableHttpServer } from './streamable-http-server.js';
export { SESSION_ID_HEADER, PROTOCOL_VERSION_HEADER } from './server-options.js';
export { acceptsMediaType } from './request-checks.js';
export { InMemoryEventStore } from './event-store.js';
export { SessionManager, isValidSessionId } from './session-manager.js';
export { sessionPrincipal } from './session-principal.js';
export { AllowedHostsRequiredError, createHostGuard, isLoopbackAddress, LOOPBACK_HOSTS } from './host-guard.js';
export { HttpErrorCode } from './http-response.js';
export { InMemoryLivenessStore, InMemoryMessageBus, InMemorySessionStore, InMemorySubscriptionStore } from './memory-shared-state.js';
export { SharedStoreUnavailableError, busChannel } from './shared-state.js';

export type {
  StreamableHttpServer,
  StreamableHttpServerOptions,
  SessionRegistry,
  ListeningServer,
  AuthenticateContext,
  AuthenticateResult,
  HttpAuthorization,
  HandleRequestOptions,
  SessionOpening,
  TransportServer,
} from './server-options.js';
export type { StreamableHttpSessionTransport } from './session-transport.js';
export type { EventStore, StoredEvent, StreamRequests, ReplayResult, InMemoryEventStoreOptions } from './event-store.js';
export type { ManagedSession, SessionAdmission, SessionEndReason, SessionManagerOptions } from './session-manager.js';
export type { PrincipalOf } from './session-principal.js';
export type { HostGuardOptions, HostGuardInput, HostGuardResult } from './host-guard.js';
export type { InMemorySessionStoreOptions } from './memory-shared-state.js';
export type { BusHandler, LivenessStore, MessageBus, SessionRecord, SessionStore, SubscriptionStore } from './shared-state.js';
export type { ClusterStats } from './cluster-relay.js';
