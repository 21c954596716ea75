/**
 * The Streamable HTTP server (MCP 2025-11-25 basic/transports §Streamable HTTP; legacy HTTP+SSE
 * MCP 2024-11-05 basic/transports §HTTP with SSE as an option): one core with
 * two front doors — a node:http handler and a fetch-style `Request → Response` handler — a
 * built-in session manager, resumability through an event store, and secure defaults
 * (loopback bind, Host/Origin validation, body limit) that need no configuration.
 *
 * Order of checks for every request (first failure answers):
 *
 * ```
 * shutting down (503) → request target (400) → authorization documents (PRM)
 *   → route (legacy SSE paths / `path`, 404) → Host + Origin (403) → authenticate (401 or its Response)
 *   → cluster: a request for a session another instance owns is relayed to that instance
 *   → legacy HTTP+SSE paths: their own GET (the SSE stream) and POST (`/messages`)
 *   POST:   Accept (406) → Content-Type (415) → body size (413) → JSON (400, -32700)
 *           → envelope (400, -32600: malformed, nested batch, duplicate id, initialize in a batch)
 *           → scopes (403)
 *           → modern (headers and `_meta` name a served 2026-07-28+ version): headers against
 *             the body (400, -32020) → served without a session (JSON | SSE)
 *           → stateless, or no initialize and modern headers: MCP-Protocol-Version (400)
 *             → batch policy (400) → served without a session
 *           → initialize without a session id: a new session (503 server full, 429 principal full)
 *           → session id (400 missing / 404 unknown or another principal's)
 *             → MCP-Protocol-Version (400) → batch policy (400) → session transport (202 | JSON | SSE)
 *   GET:    stateless or modern headers (405) → Accept (406) → session (400/404) → version (400)
 *           → Last-Event-ID replay | standalone stream (409 if one is open; 429 over the principal's streams)
 *   DELETE: stateless or modern headers (405) → session (400/404) → version (400) → terminate the session (200)
 * ```
 */
import { ErrorCode, LEGACY_PROTOCOL_VERSIONS, systemClock, type JsonObject, type InboundContext, type RequestId } from '@statemcp/protocol';
import {
  DEFAULT_HTTP_ASSUMED_VERSION,
  batchRefusal,
  initializeInBatch,
  nestedBatch,
  requestIdInUse,
  classifyMessage,
} from '@statemcp/protocol/internal';
import { createAuthGate, type Admitted } from './auth-gate.js';
import { joinCluster, relayToOwner, type ClusterMembership } from './cluster-relay.js';
import { createEraRouting } from './era-routing.js';
import { HttpErrorCode, emptyResponse, errorResponse, toResponse, type HttpAnswer } from './http-response.js';
import { DEFAULT_MAX_BODY, acceptsMediaType, readJsonBody } from './request-checks.js';
import { PROTOCOL_VERSION_HEADER, SESSION_ID_HEADER, type StreamableHttpServer, type StreamableHttpServerOptions } from './server-options.js';
import { fromFetchRequest, fromNodeRequest, writeNodeResponse, type InboundRequest } from './inbound.js';
import { LegacySseSessionTransport } from './legacy-sse-transport.js';
import { headerMismatch } from './modern-headers.js';
import { legacyPathsOf, managerOptionsOf } from './server-setup.js';
import { hostGuardFor } from './host-guard.js';
import { listenNode } from './listen-node.js';
import { HttpSession, type AnySessionTransport } from './http-session.js';
import { SessionManager } from './session-manager.js';
import { PrincipalCounter, admissionRefusal, openCountedStream, principalLimit } from './principal-limits.js';
import { HttpServerSessionTransport, type StreamableHttpSessionTransport } from './session-transport.js';
import { DEFAULT_SSE_BUFFER_BYTES } from './sse-connection.js';
import { SharedStoreUnavailableError, type SessionRecord } from './shared-state.js';

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
  const supportedVersions = options.supportedProtocolVersions ?? LEGACY_PROTOCOL_VERSIONS;
  const retryIntervalMs = options.retryIntervalMs ?? 1000;
  const keepAliveMs = options.keepAliveIntervalMs ?? 15_000;
  const guard = hostGuardFor(options);
  const legacy = legacyPathsOf(options);

  const auth = createAuthGate(options);
  const manager = new SessionManager<HttpSession>(managerOptionsOf(options));
  const streamsHeld = new PrincipalCounter(principalLimit('maxEventStreamsPerPrincipal', options.maxEventStreamsPerPrincipal ?? 2 * manager.maxSessionsPerPrincipal));
  let closed = false;
  /** Stateless transports whose request is still being answered (closed with the server). */
  const inFlightStateless = new Set<HttpServerSessionTransport>();

  const onTransportClosed = (transport: AnySessionTransport): void => {
    const id = transport.sessionId;
    if (id === undefined) {
      if (transport instanceof HttpServerSessionTransport) inFlightStateless.delete(transport);
      return;
    }
    if (manager.peek(id)?.transport === transport) manager.forget(id);
    cluster?.unregister(id);
    options.onSessionClosed?.(id);
  };

  /**
   * What every session transport of this server is configured with: one object for all of
   * them, so an idle session holds no settings object or `onActivity` closure of its own.
   */
  const sessionSettings: ConstructorParameters<typeof HttpServerSessionTransport>[1] = {
    eventStore: options.eventStore,
    retryIntervalMs,
    keepAliveIntervalMs: keepAliveMs,
    maxQueuedMessages: options.maxQueuedMessages ?? 1000,
    maxStreamBufferBytes: options.maxStreamBufferBytes ?? DEFAULT_SSE_BUFFER_BYTES,
    stalledStreamTimeoutMs: options.stalledStreamTimeoutMs ?? 30_000,
    clock: options.clock ?? systemClock,
    onClosed: onTransportClosed,
    onActivity: (transport) => {
      if (transport.sessionId !== undefined) manager.touch(transport.sessionId);
    },
    ...(options.cluster === undefined ? {} : { instanceId: options.cluster.instanceId }),
  };
  const settingsFor = (): ConstructorParameters<typeof HttpServerSessionTransport>[1] => sessionSettings;

  /** Runs the user's `connect`; false (after closing the transport) when it failed. */
  const connectTransport = async (transport: AnySessionTransport): Promise<boolean> => {
    try {
      await options.connect(transport as StreamableHttpSessionTransport);
    } catch (error) {
      options.onError?.(error);
      await transport.terminate('error', { reason: 'connect failed' });
      return false;
    }
    if (!transport.started) {
      options.onError?.(new Error('connect() settled without starting the transport'));
      await transport.terminate('error', { reason: 'not started' });
      return false;
    }
    return true;
  };

  const sessionHeaders = (sessionId: string | undefined): Record<string, string> =>
    sessionId === undefined ? {} : { [SESSION_ID_HEADER]: sessionId };

  const era = createEraRouting(options.supportedProtocolVersions, supportedVersions);

  /**
   * A 2026-07-28 request: headers checked against the body, then served without a session (MCP
   * 2026-07-28 basic/transports/streamable-http).
   */
  const handleModern = async (inbound: InboundRequest, items: unknown[], requestIds: RequestId[], version: string, context: InboundContext): Promise<HttpAnswer> => {
    const message = items[0] as JsonObject;
    const mismatch = headerMismatch(inbound, message, requestIds[0]);
    if (mismatch !== undefined) return mismatch;
    const transport = new HttpServerSessionTransport(undefined, settingsFor(), version);
    if (!(await connectTransport(transport))) return errorResponse(500, ErrorCode.InternalError, 'Internal error: could not start a session');
    if (!transport.closed) inFlightStateless.add(transport);
    const mode = options.enableJsonResponse === true ? 'json' : 'auto';
    return transport.acceptPost({ items, requestIds, batch: false, mode, version, context, headers: {}, signal: inbound.signal });
  };

  /**
   * Finds the Streamable HTTP session of a request, or the error to answer. `replyId` is the
   * id of the one request the POST carries, so the error can name it (JSON-RPC 2.0 §5).
   */
  const lookupSession = (inbound: InboundRequest, admitted: Admitted, replyId?: RequestId): HttpServerSessionTransport | Response => {
    const id = inbound.header(SESSION_ID_HEADER);
    if (id === undefined || id === '') {
      return errorResponse(400, ErrorCode.InvalidRequest, 'Bad Request: Mcp-Session-Id header is required', { id: replyId });
    }
    const entry = manager.peek(id);
    const transport = entry?.principal === admitted.principal ? manager.get(id)?.transport : undefined;
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

  const handlePost = async (inbound: InboundRequest, admitted: Admitted): Promise<HttpAnswer> => {
    const accept = inbound.header('accept');
    if (!acceptsMediaType(accept, 'application/json') || !acceptsMediaType(accept, 'text/event-stream')) {
      return errorResponse(406, ErrorCode.InvalidRequest, 'Not Acceptable: Accept must list application/json and text/event-stream');
    }
    const parsed = await readJsonBody(inbound, maxBody);
    if (parsed instanceof Response) return parsed;

    const isBatch = Array.isArray(parsed.value);
    const items: unknown[] = isBatch ? (parsed.value as unknown[]) : [parsed.value];
    /** A JSON-RPC envelope rule the runner shares (`@statemcp/protocol` words each one once). */
    const refuse = (rule: { code: number; message: string }, id: RequestId | null = null): Response => errorResponse(400, rule.code, rule.message, { id });
    if (items.length === 0) return refuse(batchRefusal(items, undefined) ?? nestedBatch());
    const requestIds: RequestId[] = [];
    let initializeId: RequestId | undefined;
    for (const item of items) {
      const classified = classifyMessage(item);
      switch (classified.kind) {
        case 'invalid':
          // A malformed response or notification is refused without naming an id (MCP 2026-07-28
          // basic/transports/streamable-http).
          return errorResponse(400, classified.code, `Invalid Request: ${classified.reason}`, { id: classified.reply ? classified.id : null });
        case 'batch':
          return refuse(nestedBatch());
        case 'request':
          if (requestIds.includes(classified.message.id)) return refuse(requestIdInUse(classified.message.id), classified.message.id);
          requestIds.push(classified.message.id);
          if (classified.message.method === 'initialize') {
            if (isBatch) return refuse(initializeInBatch(), classified.message.id);
            initializeId = classified.message.id;
          }
          break;
        case 'notification':
        case 'result':
        case 'error':
          break;
      }
    }

    const replyId = !isBatch && requestIds.length === 1 ? requestIds[0] : undefined;
    const scopeRefusal = auth.authorize(admitted, items);
    if (scopeRefusal !== undefined) return scopeRefusal;
    const { authInfo } = admitted;
    const contextFor = (sessionId: string | undefined): InboundContext => {
      const context: InboundContext = {
        // Both built on first read: most handlers never look at them.
        get headers() {
          return inbound.headerRecord();
        },
        get http() {
          return inbound.requestInfo();
        },
      };
      if (authInfo !== undefined) context.authInfo = authInfo;
      if (sessionId !== undefined) context.sessionId = sessionId;
      return context;
    };
    const mode = options.enableJsonResponse === true ? 'json' : 'sse';

    const modernVersion = era.exchangeVersion(inbound, items, isBatch);
    if (modernVersion !== undefined) return handleModern(inbound, items, requestIds, modernVersion, contextFor(undefined));

    if (stateless || (initializeId === undefined && era.isModernRequest(inbound))) {
      const version = requestVersion(inbound, undefined, replyId);
      if (version instanceof Response) return version;
      const batchRule = isBatch ? batchRefusal(items, version) : undefined;
      if (batchRule !== undefined) return refuse(batchRule);
      const transport = new HttpServerSessionTransport(undefined, settingsFor(), version, initializeId !== undefined);
      if (!(await connectTransport(transport))) return errorResponse(500, ErrorCode.InternalError, 'Internal error: could not start a session');
      if (!transport.closed) inFlightStateless.add(transport);
      return transport.acceptPost({ items, requestIds, batch: isBatch, mode, version, context: contextFor(undefined), headers: {}, signal: inbound.signal });
    }

    const sessionIdHeader = inbound.header(SESSION_ID_HEADER);
    if (initializeId !== undefined && (sessionIdHeader === undefined || sessionIdHeader === '')) {
      return openSession(items, initializeId, contextFor, admitted.principal);
    }

    const session = lookupSession(inbound, admitted, replyId);
    if (session instanceof Response) return session;
    const version = requestVersion(inbound, session, replyId);
    if (version instanceof Response) return version;
    const sessionBatchRule = isBatch ? batchRefusal(items, session.protocolVersion ?? version) : undefined;
    if (sessionBatchRule !== undefined) return refuse(sessionBatchRule);
    const headers = sessionHeaders(session.sessionId);
    return session.acceptPost({ items, requestIds, batch: isBatch, mode, version, context: contextFor(session.sessionId), headers });
  };

  /**
   * A new session for an `initialize` POST. The id is minted now but registered — and sent in
   * `Mcp-Session-Id` — only when the session answered `initialize` with a result. The
   * initialize reply is always a JSON body, so the header can depend on that answer.
   */
  const openSession = async (
    items: unknown[],
    initializeId: RequestId,
    contextFor: (sessionId: string | undefined) => InboundContext,
    principal: string | undefined,
  ): Promise<HttpAnswer> => {
    const refusal = admissionRefusal(closed ? 'maxSessions' : manager.admit(principal), manager.maxSessionsPerPrincipal);
    if (refusal !== undefined) return refusal;
    let reservationHeld = true;
    try {
      const sessionId = manager.mintId();
      const transport = new HttpServerSessionTransport(sessionId, settingsFor());
      if (!(await connectTransport(transport))) return errorResponse(500, ErrorCode.InternalError, 'Internal error: could not start a session');
      const requested = (items[0] as { params?: { protocolVersion?: unknown } }).params?.protocolVersion;
      const version = typeof requested === 'string' ? requested : DEFAULT_HTTP_ASSUMED_VERSION;
      const pending = transport.acceptPost({
        items,
        requestIds: [initializeId],
        batch: false,
        mode: 'json',
        version,
        context: contextFor(sessionId),
        headers: {},
      });
      // The initialize reply is always a JSON body.
      const response = toResponse(await pending);
      if (transport.protocolVersion === undefined || transport.closed || closed) {
        await transport.terminate('local', { reason: 'initialize failed' });
        return response;
      }
      manager.add(sessionId, new HttpSession(transport, principal));
      reservationHeld = false;
      const unshared = await cluster?.register(sessionId, transport.protocolVersion, items[0], principal, () => manager.delete(sessionId, 'server-closed'));
      if (unshared !== undefined) return unshared;
      response.headers.set(SESSION_ID_HEADER, sessionId);
      options.onSessionCreated?.(sessionId);
      return response;
    } finally {
      if (reservationHeld) manager.release(principal);
    }
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
    if (session.sessionId !== undefined) manager.delete(session.sessionId, 'deleted');
    return emptyResponse(200);
  };

  const handleLegacyGet = async (inbound: InboundRequest, messagePath: string, principal: string | undefined): Promise<HttpAnswer> => {
    if (!acceptsMediaType(inbound.header('accept'), 'text/event-stream')) {
      return errorResponse(406, ErrorCode.InvalidRequest, 'Not Acceptable: Accept must list text/event-stream');
    }
    const refusal = admissionRefusal(closed ? 'maxSessions' : manager.admit(principal), manager.maxSessionsPerPrincipal);
    if (refusal !== undefined) return refusal;
    let reservationHeld = true;
    try {
      const sessionId = manager.mintId();
      const endpoint = `${messagePath}?sessionId=${encodeURIComponent(sessionId)}`;
      const settings = settingsFor();
      const connection = {
        keepAliveMs,
        clock: settings.clock,
        maxBufferedBytes: settings.maxStreamBufferBytes,
        stalledTimeoutMs: settings.stalledStreamTimeoutMs,
      };
      const transport = new LegacySseSessionTransport(sessionId, endpoint, connection, onTransportClosed);
      manager.add(sessionId, new HttpSession(transport, principal));
      reservationHeld = false;
      if (!(await connectTransport(transport))) {
        return errorResponse(500, ErrorCode.InternalError, 'Internal error: could not start a session');
      }
      // In a cluster, POSTs to `/messages` for this session may land on any instance: they are relayed here.
      const unshared = await cluster?.register(sessionId, undefined, undefined, principal, () => manager.delete(sessionId, 'server-closed'));
      if (unshared !== undefined) return unshared;
      options.onSessionCreated?.(sessionId);
      return transport.connection;
    } finally {
      if (reservationHeld) manager.release(principal);
    }
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
    const context: InboundContext = {
      get headers() {
        return inbound.headerRecord();
      },
      get http() {
        return inbound.requestInfo();
      },
      sessionId: id,
    };
    if (admitted.authInfo !== undefined) context.authInfo = admitted.authInfo;
    transport.deliver(parsed.value, context);
    return new Response('Accepted', { status: 202, headers: { 'content-type': 'text/plain' } });
  };

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

    const admitted = await auth.admit(inbound);
    if (admitted instanceof Response) return admitted;
    if (cluster !== undefined && legacyRoute !== 'sse') {
      const relayed = await relayToOwner(cluster, inbound, maxBody, (id) => manager.peek(id) !== undefined, admitted.principal, legacyRoute === 'messages');
      if (relayed !== undefined) return relayed;
    }

    if (legacy !== undefined && legacyRoute === 'sse') {
      return inbound.method === 'GET' ? handleLegacyGet(inbound, legacy.messagePath, admitted.principal) : emptyResponse(405, { allow: 'GET' });
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

  const safeHandle = async (inbound: InboundRequest): Promise<HttpAnswer> => {
    try {
      return await handle(inbound);
    } catch (error) {
      options.onError?.(error);
      if (error instanceof SharedStoreUnavailableError) {
        return errorResponse(503, HttpErrorCode.Refused, `Service Unavailable: ${error.message}`, { headers: { 'retry-after': '1' } });
      }
      return errorResponse(500, ErrorCode.InternalError, 'Internal error');
    }
  };

  /**
   * Failover: rebuilds the connection of a session claimed from a dead instance, straight into
   * Operating from its record (protocol `sessionAdopted`). False when it could not be rebuilt.
   */
  const adoptSession = async (record: SessionRecord): Promise<boolean> => {
    if (closed || record.protocolVersion === undefined || manager.peek(record.sessionId) !== undefined || !manager.reserve(record.principal)) return false;
    let reservationHeld = true;
    try {
      const peer = { capabilities: record.clientCapabilities ?? {}, info: { name: 'unknown', version: 'unknown', ...record.clientInfo } };
      const transport = new HttpServerSessionTransport(record.sessionId, settingsFor(), undefined, false, { protocolVersion: record.protocolVersion, peer });
      if (!(await connectTransport(transport))) return false;
      manager.add(record.sessionId, new HttpSession(transport, record.principal));
      reservationHeld = false;
      options.onSessionCreated?.(record.sessionId);
      return true;
    } finally {
      if (reservationHeld) manager.release(record.principal);
    }
  };

  const cluster: ClusterMembership | undefined =
    options.cluster === undefined || stateless
      ? undefined
      : joinCluster(options.cluster, manager.idleTimeoutMs, {
          serve: (request) => server.handleFetch(request),
          adopt: adoptSession,
          onError: (error) => options.onError?.(error),
          clock: options.clock ?? systemClock,
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
    listen: (listenOptions) => listenNode(server, options, listenOptions),
    close: async () => {
      if (closed) return;
      closed = true;
      manager.close();
      await cluster?.leave();
      await Promise.all([...inFlightStateless].map((transport) => transport.terminate('local', { reason: 'server-closed' })));
    },
  };

  return server;
}
