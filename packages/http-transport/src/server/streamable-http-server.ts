/**
 * The Streamable HTTP server (MCP 2025-11-25, Transports §Streamable HTTP; the stateless shape
 * of MCP 2026-07-28; legacy HTTP+SSE of MCP 2024-11-05 as an option): one core with two front
 * doors — a node:http handler and a fetch-style `Request → Response` handler — a built-in
 * session manager, resumability through an event store, and secure defaults (loopback bind,
 * Host/Origin validation, body limit) that need no configuration.
 *
 * Every request goes through the same stages, the first failure answering:
 *
 * ```
 * guard:    shutting down (503) → request target (400) → authorization documents (PRM)
 *           → route (legacy SSE paths / `path`, 404) → Host + Origin (403) → authenticate (401 or its Response)
 *           → cluster relay (a session another instance owns is served there; unknown everywhere: 404)
 * POST:     Accept (406) → Content-Type (415) → body size (413) → JSON (400, -32700)
 *           → envelope, classified once (400, -32600: empty or nested batch, invalid member,
 *             initialize in a batch; post-envelope.ts) → scopes (403)
 *   era dispatch:
 *   modern  (no session id; `_meta` or MCP-Protocol-Version names 2026-07-28+):
 *           routing headers (400, -32020) → served statelessly at that version
 *   stateless (`stateless: true`, or a 2026-07-28+ header on a non-initialize request):
 *           MCP-Protocol-Version (400) → batch policy (400) → served statelessly
 *   initialize without a session id: the session opener (503 server full, 429 principal full;
 *           session-opener.ts) → the initialize answer, with `Mcp-Session-Id` when it succeeded
 *   otherwise: session id (400 missing / 404 unknown or another principal's)
 *           → MCP-Protocol-Version (400) → batch policy (400) → the session's transport
 *   every transport: request ids in flight or repeated (400) → 202 | JSON | SSE
 * GET:      stateless or modern (405) → Accept (406) → session (400/404) → version (400)
 *           → Last-Event-ID replay | standalone stream (409 if one is open; 429 over the principal's streams)
 * DELETE:   stateless or modern (405) → session (400/404) → version (400) → terminate the session (200)
 * ```
 */
import { ErrorCode, systemClock, type HttpRequestInfo, type JsonRpcMessage, type RequestId } from '@statemcp/protocol';
import { DEFAULT_HTTP_ASSUMED_VERSION } from '@statemcp/protocol/internal';
import { createAuthGate, type Admitted } from './auth-gate.js';
import { joinCluster, relayRequestOf, relayToOwner, type ClusterMembership } from './cluster-relay.js';
import { ReplicaSessionTransport } from './cluster-replicas.js';
import { createEraRouting } from './era-routing.js';
import { HttpErrorCode, NO_HEADERS, emptyResponse, errorResponse, toResponse, type HttpAnswer } from './http-response.js';
import { DEFAULT_MAX_BODY, acceptsMediaType, readJsonBody } from './request-checks.js';
import { PROTOCOL_VERSION_HEADER, SESSION_ID_HEADER, type SessionOpening, type StreamableHttpServer, type StreamableHttpServerOptions } from './server-options.js';
import { fromFetchRequest, fromNodeRequest, inboundContextOf, writeNodeResponse, type InboundRequest } from './inbound.js';
import { LegacySseSessionTransport } from './legacy-sse-transport.js';
import { headerMismatch } from './modern-headers.js';
import { batchRule, readEnvelope, type PostEnvelope } from './post-envelope.js';
import { legacyPathsOf, managerOptionsOf, supportedVersionsOf, transportConnector } from './server-setup.js';
import { hostGuardFor } from './host-guard.js';
import { listenNode } from './listen-node.js';
import type { AnySessionTransport, HttpSession } from './http-session.js';
import { SessionManager } from './session-manager.js';
import { createSessionOpener } from './session-opener.js';
import { PrincipalCounter, openCountedStream, principalLimit } from './principal-limits.js';
import { HttpServerSessionTransport, type AcceptedPost, type SessionTransportSettings } from './session-transport.js';
import { DEFAULT_SSE_BUFFER_BYTES } from './sse-connection.js';
import { StatelessRequests } from './stateless-requests.js';
import { SharedStoreUnavailableError, type SessionRecord } from './shared-state.js';

/**
 * A {@link SessionOpening} of a request: a class, so its `http` getter lives on the prototype.
 * An object literal with a getter, built per POST, cost a stateless server most of its GC time
 * (tooling/bench/profiling/README.md, "the HTTP server's node:http writes and per-POST objects").
 */
class RequestOpening implements SessionOpening {
  readonly authInfo: unknown;
  readonly principal: string | undefined;
  readonly #inbound: InboundRequest;

  constructor(inbound: InboundRequest, admitted: Admitted) {
    this.authInfo = admitted.authInfo;
    this.principal = admitted.principal;
    this.#inbound = inbound;
  }

  get http(): HttpRequestInfo {
    return this.#inbound.requestInfo();
  }
}

/**
 * Creates a Streamable HTTP server. Sessions meet the protocol through `connect`.
 *
 * @example
 * ```ts
 * import { createStreamableHttpServer, InMemoryEventStore } from '@statemcp/http-transport/server';
 *
 * const mcp = createStreamableHttpServer({
 *   connect: (transport) => mcpServer.connect(transport),
 *   eventStore: new InMemoryEventStore(),
 * });
 * const { url } = await mcp.listen({ port: 3000 }); // http://127.0.0.1:3000/mcp
 * ```
 */
export function createStreamableHttpServer(options: StreamableHttpServerOptions): StreamableHttpServer {
  const stateless = options.stateless === true || ('sessionIdGenerator' in options && options.sessionIdGenerator === undefined);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const supportedVersions = supportedVersionsOf(options);
  const keepAliveMs = options.keepAliveIntervalMs ?? 15_000;
  const clock = options.clock ?? systemClock;
  const guard = hostGuardFor(options);
  const legacy = legacyPathsOf(options);
  const era = createEraRouting(supportedVersions);

  const auth = createAuthGate(options);
  const manager = new SessionManager<HttpSession>(managerOptionsOf(options));
  const streamsHeld = new PrincipalCounter(principalLimit('maxEventStreamsPerPrincipal', options.maxEventStreamsPerPrincipal ?? 2 * manager.maxSessionsPerPrincipal));
  let closed = false;

  const onTransportClosed = (transport: AnySessionTransport): void => {
    const id = transport.sessionId;
    if (id === undefined) {
      statelessRequests.ended(transport);
      return;
    }
    if (manager.peek(id)?.transport === transport) manager.forget(id);
    cluster?.unregister(id);
    options.onSessionClosed?.(id);
  };

  /**
   * What every session transport of this server is configured with: one object for all of
   * them, so an idle session holds no settings or callbacks of its own.
   */
  const settings: SessionTransportSettings = {
    eventStore: options.eventStore,
    retryIntervalMs: options.retryIntervalMs ?? 1000,
    keepAliveIntervalMs: keepAliveMs,
    maxQueuedMessages: options.maxQueuedMessages ?? 1000,
    maxStreamBufferBytes: options.maxStreamBufferBytes ?? DEFAULT_SSE_BUFFER_BYTES,
    stalledStreamTimeoutMs: options.stalledStreamTimeoutMs ?? 30_000,
    clock,
    onClosed: onTransportClosed,
    onActivity: (transport) => {
      if (transport.sessionId !== undefined) manager.touch(transport.sessionId);
    },
    ...(options.cluster === undefined ? {} : { instanceId: options.cluster.instanceId }),
  };

  /** A replica's transport (`cluster.replicas`) is kept by the cluster's replicas, not the session manager. */
  const replicaSettings: SessionTransportSettings = {
    ...settings,
    onClosed: (transport) => cluster?.replicas?.closed(transport),
    onActivity: (transport) => {
      if (transport.sessionId !== undefined) cluster?.replicas?.get(transport.sessionId);
    },
  };

  /** Runs `connect` (or `serverFor`); false (after closing the transport) when it failed. */
  const connectTransport = transportConnector(options);
  /**
   * Who opens a session (or sends a stateless request), as `connect` sees it. Its `http` view
   * (the header record and the absolute URL) is built when read: a `connect` that does not
   * look at it (the usual `(transport) => server.connect(transport)`) costs a stateless request nothing.
   */
  const openingOf = (inbound: InboundRequest, admitted: Admitted): SessionOpening => new RequestOpening(inbound, admitted);

  // A stateless request cannot be resumed (no GET stream): its events are not stored, and it touches no shared store.
  const statelessSettings: SessionTransportSettings = { ...settings, eventStore: undefined };
  delete statelessSettings.instanceId;
  const statelessRequests = new StatelessRequests(statelessSettings, connectTransport);
  const openSession = createSessionOpener({
    manager,
    isClosed: () => closed,
    connect: connectTransport,
    cluster: () => cluster,
    onSessionCreated: options.onSessionCreated,
  });

  /**
   * The answer to a POST with requests (see `enableJsonResponse`): JSON, SSE, or `auto` (JSON
   * unless a related message comes first). A session's streams stay SSE when an event store
   * can make them resumable; a stateless request stores nothing, so it never needs them.
   */
  const answerMode = (resumable: boolean): AcceptedPost['mode'] => {
    if (options.enableJsonResponse !== undefined) return options.enableJsonResponse ? 'json' : 'sse';
    return resumable && options.eventStore !== undefined ? 'sse' : 'auto';
  };

  const sessionHeaders = (sessionId: string | undefined): Record<string, string> =>
    sessionId === undefined ? NO_HEADERS : { [SESSION_ID_HEADER]: sessionId };

  /**
   * Finds the Streamable HTTP session of a request, or the error to answer. `replyId` is the
   * id of the one request the POST carries, so the error can name it (JSON-RPC 2.0 §5).
   */
  const lookupSession = (inbound: InboundRequest, admitted: Admitted, replyId?: RequestId): HttpServerSessionTransport | Response => {
    const id = inbound.header(SESSION_ID_HEADER);
    if (id === undefined || id === '') {
      return errorResponse(400, ErrorCode.InvalidRequest, 'Bad Request: Mcp-Session-Id header is required', { id: replyId });
    }
    const owned = manager.peek(id);
    const entry = owned ?? cluster?.replicas?.get(id);
    const transport = entry === undefined || entry.principal !== admitted.principal ? undefined : owned === undefined ? entry.transport : manager.get(id)?.transport;
    if (!(transport instanceof HttpServerSessionTransport) || transport.closed) {
      return errorResponse(404, HttpErrorCode.SessionNotFound, 'Session not found', { id: replyId });
    }
    cluster?.touch(id);
    return transport;
  };

  /** The version that governs this request: a valid header, else the session's, else 2025-03-26. */
  const requestVersion = (inbound: InboundRequest, session: HttpServerSessionTransport | undefined, replyId?: RequestId): string | Response => {
    const header = inbound.header(PROTOCOL_VERSION_HEADER)?.trim();
    if (header !== undefined && header !== '') {
      if (!supportedVersions.includes(header)) {
        return errorResponse(400, ErrorCode.InvalidRequest, `Bad Request: Unsupported protocol version ${header}`, {
          id: replyId,
          data: { supported: [...supportedVersions], requested: header },
        });
      }
      return header;
    }
    return session?.protocolVersion ?? DEFAULT_HTTP_ASSUMED_VERSION;
  };

  /** POST: the HTTP checks, the envelope classified once, then the era dispatch (see the file's header). */
  const handlePost = async (inbound: InboundRequest, admitted: Admitted): Promise<HttpAnswer> => {
    const accept = inbound.header('accept');
    if (!acceptsMediaType(accept, 'application/json') || !acceptsMediaType(accept, 'text/event-stream')) {
      return errorResponse(406, ErrorCode.InvalidRequest, 'Not Acceptable: Accept must list application/json and text/event-stream');
    }
    const parsed = await readJsonBody(inbound, maxBody);
    if (parsed instanceof Response) return parsed;
    const envelope = readEnvelope(parsed.value);
    if (envelope instanceof Response) return envelope;
    const scopeRefusal = auth.authorize(admitted, envelope.messages);
    if (scopeRefusal !== undefined) return scopeRefusal;
    const { messages, requestIds, batch, initializeId, replyId } = envelope;

    const modern = era.exchangeVersion(inbound, messages, batch);
    if (modern !== undefined) {
      const mismatch = headerMismatch(inbound, messages[0] as JsonRpcMessage, requestIds[0]);
      if (mismatch !== undefined) return mismatch;
      if (modern.kind === 'unsupported') return errorResponse(400, modern.refusal.code, modern.refusal.message, { id: requestIds[0] ?? null, data: modern.refusal.data });
      const modernVersion = modern.revision.version;
      const mode = answerMode(false);
      const context = inboundContextOf(inbound, admitted.authInfo, undefined);
      return statelessRequests.serve({ messages, requestIds, batch, mode, version: modernVersion, context, headers: NO_HEADERS, client: inbound }, false, openingOf(inbound, admitted));
    }
    if (stateless || (initializeId === undefined && era.isModernRequest(inbound))) {
      const version = requestVersion(inbound, undefined, replyId);
      if (version instanceof Response) return version;
      const refusal = batchRule(envelope, version);
      if (refusal !== undefined) return refusal;
      const context = inboundContextOf(inbound, admitted.authInfo, undefined);
      return statelessRequests.serve({ messages, requestIds, batch, mode: answerMode(false), version, context, headers: NO_HEADERS, client: inbound }, initializeId !== undefined, openingOf(inbound, admitted));
    }
    const sessionIdHeader = inbound.header(SESSION_ID_HEADER);
    if (initializeId !== undefined && (sessionIdHeader === undefined || sessionIdHeader === '')) {
      return openStreamableSession(inbound, envelope, initializeId, admitted);
    }

    const owned = sessionIdHeader !== undefined && manager.peek(sessionIdHeader) !== undefined;
    if (cluster?.replicas !== undefined && sessionIdHeader !== undefined && sessionIdHeader !== '' && (!owned || requestIds.length < messages.length)) {
      // Requests are served here (on a replica); what needs another instance is relayed there (cluster-replicas.ts).
      const routed = await cluster.routePost(sessionIdHeader, messages, relayRequestOf(inbound, JSON.stringify(parsed.value)), admitted.principal, owned);
      if (routed !== undefined) return routed;
    }
    const session = lookupSession(inbound, admitted, replyId);
    if (session instanceof Response) return session;
    if (requestIds.length === 0 && owned && cluster?.replicas !== undefined && session.sessionId !== undefined) {
      cluster.notifyReplicas(session.sessionId, messages.filter((message) => 'method' in message));
    }
    const version = requestVersion(inbound, session, replyId);
    if (version instanceof Response) return version;
    const refusal = batchRule(envelope, session.protocolVersion ?? version);
    if (refusal !== undefined) return refusal;
    const context = inboundContextOf(inbound, admitted.authInfo, session.sessionId);
    return session.acceptPost({ messages, requestIds, batch, mode: answerMode(true), version, context, headers: sessionHeaders(session.sessionId) });
  };

  /**
   * A new session for an `initialize` POST. The id is minted now but registered — and sent in
   * `Mcp-Session-Id` — only when the session answered `initialize` with a result. The
   * initialize reply is always a JSON body, so the header can depend on that answer.
   */
  const openStreamableSession = async (inbound: InboundRequest, envelope: PostEnvelope, initializeId: RequestId, admitted: Admitted): Promise<HttpAnswer> => {
    const initialize = envelope.messages[0] as { params?: { protocolVersion?: unknown } };
    const requested = initialize.params?.protocolVersion;
    const opened = await openSession({
      opening: openingOf(inbound, admitted),
      transport: (sessionId) => new HttpServerSessionTransport({ sessionId, settings }),
      first: async (transport, sessionId) => {
        const version = typeof requested === 'string' ? requested : DEFAULT_HTTP_ASSUMED_VERSION;
        const context = inboundContextOf(inbound, admitted.authInfo, sessionId);
        const answer = toResponse(await transport.acceptPost({ messages: envelope.messages, requestIds: [initializeId], batch: false, mode: 'json', version, context, headers: {} }));
        return { answer, live: transport.protocolVersion !== undefined && !transport.closed };
      },
      share: (transport) => ({ protocolVersion: transport.protocolVersion, initialize }),
    });
    if (opened.refused !== undefined) return opened.refused;
    const answer = opened.answer ?? emptyResponse(500);
    answer.headers.set(SESSION_ID_HEADER, opened.sessionId);
    return answer;
  };

  const handleGet = async (inbound: InboundRequest, admitted: Admitted): Promise<HttpAnswer> => {
    if (stateless || era.isModernRequest(inbound)) return emptyResponse(405, { allow: 'POST' });
    if (!acceptsMediaType(inbound.header('accept'), 'text/event-stream')) {
      return errorResponse(406, ErrorCode.InvalidRequest, 'Not Acceptable: Accept must list text/event-stream');
    }
    const session = lookupSession(inbound, admitted);
    if (session instanceof Response) return session;
    const version = requestVersion(inbound, session);
    if (version instanceof Response) return version;
    const headers = sessionHeaders(session.sessionId);
    const lastEventId = inbound.header('last-event-id');
    const resumeFrom = options.eventStore === undefined || lastEventId === '' ? undefined : lastEventId;
    return openCountedStream(streamsHeld, admitted.principal, () => (resumeFrom === undefined ? session.openStandalone(version, headers) : session.resume(resumeFrom, headers)));
  };

  const handleDelete = async (inbound: InboundRequest, admitted: Admitted): Promise<HttpAnswer> => {
    if (stateless || era.isModernRequest(inbound)) return emptyResponse(405, { allow: 'POST' });
    const session = lookupSession(inbound, admitted);
    if (session instanceof Response) return session;
    const version = requestVersion(inbound, session);
    if (version instanceof Response) return version;
    if (session.sessionId !== undefined) {
      manager.delete(session.sessionId, 'deleted');
      // The shared record goes before the answer (MCP 2025-11-25, Transports §Session Management:
      // after a DELETE the session answers 404 on every instance).
      await cluster?.unregistered(session.sessionId);
    }
    return emptyResponse(200);
  };

  /** Legacy HTTP+SSE (MCP 2024-11-05): the GET opens a session, its first event names where to POST. */
  const handleLegacyGet = async (inbound: InboundRequest, messagePath: string, admitted: Admitted): Promise<HttpAnswer> => {
    if (!acceptsMediaType(inbound.header('accept'), 'text/event-stream')) {
      return errorResponse(406, ErrorCode.InvalidRequest, 'Not Acceptable: Accept must list text/event-stream');
    }
    const connection = { keepAliveMs, clock, maxBufferedBytes: settings.maxStreamBufferBytes, stalledTimeoutMs: settings.stalledStreamTimeoutMs };
    const opened = await openSession({
      opening: openingOf(inbound, admitted),
      transport: (sessionId) => new LegacySseSessionTransport(sessionId, `${messagePath}?sessionId=${encodeURIComponent(sessionId)}`, connection, onTransportClosed),
      // In a cluster, POSTs to `/messages` for this session may land on any instance: they are relayed here.
      share: () => ({ protocolVersion: undefined, initialize: undefined }),
    });
    return opened.refused ?? opened.transport.connection;
  };

  const handleLegacyPost = async (inbound: InboundRequest, admitted: Admitted): Promise<HttpAnswer> => {
    const id = inbound.searchParams.get('sessionId') ?? inbound.header(SESSION_ID_HEADER);
    if (id === undefined || id === null || id === '') return errorResponse(400, ErrorCode.InvalidRequest, 'Bad Request: sessionId is required');
    const transport = manager.peek(id)?.principal === admitted.principal ? manager.get(id)?.transport : undefined;
    if (!(transport instanceof LegacySseSessionTransport)) return errorResponse(404, HttpErrorCode.SessionNotFound, 'Session not found');
    cluster?.touch(id);
    const parsed = await readJsonBody(inbound, maxBody);
    if (parsed instanceof Response) return parsed;
    const scopeRefusal = auth.authorize(admitted, Array.isArray(parsed.value) ? parsed.value : [parsed.value]);
    if (scopeRefusal !== undefined) return scopeRefusal;
    transport.deliver(parsed.value, inboundContextOf(inbound, admitted.authInfo, id));
    return new Response('Accepted', { status: 202, headers: { 'content-type': 'text/plain' } });
  };

  /** The guard stage (see the file's header), then the route's handler. */
  const handle = async (inbound: InboundRequest): Promise<HttpAnswer> => {
    if (closed) return errorResponse(503, HttpErrorCode.SessionClosed, 'Service Unavailable: the server is shutting down');
    if (inbound.targetRefusal !== undefined) return errorResponse(400, ErrorCode.InvalidRequest, `Bad Request: ${inbound.targetRefusal}`);
    const served = auth.serve(inbound);
    if (served !== undefined) return served;
    const legacyRoute =
      legacy === undefined ? undefined : inbound.pathname === legacy.ssePath ? 'sse' : inbound.pathname === legacy.messagePath ? 'messages' : undefined;
    if (legacyRoute === undefined && options.path !== undefined && inbound.pathname !== options.path) {
      return errorResponse(404, ErrorCode.InvalidRequest, 'Not Found');
    }
    const { loopbackBind, localAddress } = inbound;
    const verdict = guard({ host: inbound.header('host'), origin: inbound.header('origin'), loopbackBind, localAddress });
    if (!verdict.ok) return errorResponse(403, HttpErrorCode.Refused, `Forbidden: ${verdict.reason}`);

    // Without an authentication hook the answer is at hand: no promise to wait for.
    const admission = auth.admit(inbound);
    const admitted = admission instanceof Promise ? await admission : admission;
    if (admitted instanceof Response) return admitted;
    // A request of a stateless revision (MCP 2026-07-28) needs no owner: served where it arrives.
    if (cluster !== undefined && legacyRoute !== 'sse' && (legacyRoute === 'messages' || !era.isModernRequest(inbound))) {
      const relayed = await relayToOwner(cluster, inbound, maxBody, (id) => manager.peek(id) !== undefined, admitted.principal, legacyRoute === 'messages', streamIdOf);
      if (relayed !== undefined) return relayed;
    }

    if (legacy !== undefined && legacyRoute === 'sse') {
      return inbound.method === 'GET' ? handleLegacyGet(inbound, legacy.messagePath, admitted) : emptyResponse(405, { allow: 'GET' });
    }
    if (legacy !== undefined && legacyRoute === 'messages') {
      return inbound.method === 'POST' ? handleLegacyPost(inbound, admitted) : emptyResponse(405, { allow: 'POST' });
    }
    switch (inbound.method) {
      case 'POST':
        return handlePost(inbound, admitted);
      case 'GET':
        return handleGet(inbound, admitted);
      case 'DELETE':
        return handleDelete(inbound, admitted);
      default:
        return emptyResponse(405, { allow: stateless ? 'POST' : 'GET, POST, DELETE' });
    }
  };

  /** The answer to a request whose handling threw. */
  const failed = (error: unknown): HttpAnswer => {
    options.onError?.(error);
    if (error instanceof SharedStoreUnavailableError) {
      return errorResponse(503, HttpErrorCode.Refused, `Service Unavailable: ${error.message}`, { headers: { 'retry-after': '1' } });
    }
    return errorResponse(500, ErrorCode.InternalError, 'Internal error');
  };
  /** {@link handle} with a failure turned into its answer: a `then`, not one more async function per request. */
  const safeHandle = (inbound: InboundRequest): Promise<HttpAnswer> => handle(inbound).then(undefined, failed);

  const eventStore = options.eventStore;
  const streamIdOf = eventStore === undefined ? undefined : (eventId: string): string | undefined => eventStore.streamIdOf(eventId);

  /** The session of `record` as its machine starts in Operating (protocol `sessionAdopted`), and who opens it. */
  const adoptionOf = (record: SessionRecord) => {
    const protocolVersion = record.protocolVersion;
    if (protocolVersion === undefined) return undefined;
    const peer = { capabilities: record.clientCapabilities ?? {}, info: { name: 'unknown', version: 'unknown', ...record.clientInfo } };
    return { adopted: { protocolVersion, peer }, opening: { authInfo: undefined, principal: record.principal, http: undefined } };
  };

  /**
   * Failover: rebuilds the connection of a session claimed from a dead instance, straight into
   * Operating from its record (protocol `sessionAdopted`). False when it could not be rebuilt.
   */
  const adoptSession = async (record: SessionRecord): Promise<boolean> => {
    const adoption = adoptionOf(record);
    if (adoption === undefined) return false;
    const opened = await openSession({
      opening: adoption.opening,
      adoptedId: record.sessionId,
      transport: (sessionId) => new HttpServerSessionTransport({ sessionId, settings, adopted: adoption.adopted }),
    });
    return opened.refused === undefined;
  };

  /** A replica (`cluster.replicas`): the session rebuilt the same way, unclaimed, and not the manager's. */
  const buildReplica = async (record: SessionRecord, tag: string, forward: (message: JsonRpcMessage) => void): Promise<HttpServerSessionTransport | undefined> => {
    const adoption = adoptionOf(record);
    if (adoption === undefined || closed) return undefined;
    const transport = new ReplicaSessionTransport({ sessionId: record.sessionId, settings: replicaSettings, adopted: adoption.adopted }, tag, forward);
    return (await connectTransport(transport, adoption.opening)) ? transport : undefined;
  };

  const cluster: ClusterMembership | undefined =
    options.cluster === undefined || stateless
      ? undefined
      : joinCluster(options.cluster, manager.idleTimeoutMs, {
          serve: safeHandle,
          adopt: adoptSession,
          runs: (sessionId) => manager.peek(sessionId) !== undefined,
          replica: buildReplica,
          maxReplicas: manager.maxSessions,
          forward: (sessionId, message) => {
            const transport = manager.peek(sessionId)?.transport;
            if (transport instanceof HttpServerSessionTransport) transport.send(message).catch((error: unknown) => options.onError?.(error));
          },
          active: (sessionId) => {
            manager.touch(sessionId);
            cluster?.touch(sessionId);
          },
          onError: (error) => options.onError?.(error),
          clock,
        });

  const server: StreamableHttpServer = {
    handleNodeRequest: async (req, res, requestOptions) => {
      const answer = await safeHandle(fromNodeRequest(req, res, requestOptions));
      if (answer instanceof Response) await writeNodeResponse(answer, res);
      else answer.attach(res);
    },
    handleFetch: async (request, requestOptions) => toResponse(await safeHandle(fromFetchRequest(request, requestOptions))),
    sessions: {
      get size() {
        return manager.size;
      },
      ids: () => manager.ids(),
      get: (sessionId) => {
        const transport = manager.peek(sessionId)?.transport;
        return transport instanceof HttpServerSessionTransport ? transport : undefined;
      },
      terminate: (sessionId) => manager.delete(sessionId, 'deleted'),
    },
    cluster: cluster?.stats,
    listen: (listenOptions) => listenNode(server, options, listenOptions),
    close: async () => {
      if (closed) return;
      closed = true;
      manager.close();
      await cluster?.leave();
      await statelessRequests.close();
    },
  };

  return server;
}
