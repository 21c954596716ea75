/**
 * The options and public shapes of the Streamable HTTP server: what `createStreamableHttpServer`
 * takes, and the server, registry and listening handles it gives back.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Clock, HttpRequestInfo } from '@statemcp/protocol';
import type { ClusterOptions, ClusterStats } from './cluster-relay.js';
import type { EventStore } from './event-store.js';
import type { HostGuardOptions } from './host-guard.js';
import type { PrincipalOf } from './session-principal.js';
import type { StreamableHttpSessionTransport } from './session-transport.js';

/**
 * The header names `SESSION_ID_HEADER` (`mcp-session-id`; `MCP-Session-Id` in 2025-11-25) and
 * `PROTOCOL_VERSION_HEADER` (`mcp-protocol-version`, 2025-06-18+), lower case as
 * HTTP header names compare case-insensitively.
 */
export { PROTOCOL_VERSION_HEADER, SESSION_ID_HEADER } from '@statemcp/protocol/internal';

/**
 * The result of an {@link StreamableHttpServerOptions.authenticate} hook: any value is the
 * `authInfo` handed to the session with each message; a `Response` is sent as is (e.g. a
 * 401 with `WWW-Authenticate`). Throwing answers 401 with a generic text (503 with
 * `Retry-After` for a statemcp error of category `interrupted`); the error goes to `onError`.
 */
export type AuthenticateResult = unknown;

/** What the server tells an authorization layer beside the request it authenticates. */
export interface AuthenticateContext {
  /**
   * The server's `onError`: where the reasons behind a refusal go (a verifier's error, an
   * unreachable authorization server), since the client is only told a generic text.
   */
  readonly report: (error: unknown) => void;
  /**
   * True when this very request was already admitted once — by the instance of a cluster that
   * relayed it here, or by this instance before it adopted the session. Checks that must pass
   * only once per request (recording a DPoP proof in the replay set, a DPoP nonce that instance
   * issued) are not repeated; the token itself is verified again.
   */
  readonly readmitted: boolean;
}

/**
 * An authorization layer for the server (`@statemcp/http-transport/auth`'s
 * `createProtectedResource` is one): it authenticates each request, may refuse messages once
 * the body is read, serves its own documents, and names the principal each session is bound to.
 */
export interface HttpAuthorization {
  /** Answers a request this layer owns (e.g. its metadata document, outside `path`); `undefined` passes it on. */
  serve?(request: Request): Response | undefined;
  /** The auth info of a request (handed to handlers as `authInfo`), or a `Response` refusing it. */
  authenticate(request: Request, context?: AuthenticateContext): Promise<AuthenticateResult>;
  /** After the body is parsed: a `Response` (e.g. 403 `insufficient_scope`) refusing these messages. */
  authorize?(authInfo: unknown, messages: readonly unknown[]): Response | undefined;
  /**
   * Who a request acts for. A session remembers the principal that created it; requests of
   * another principal get 404 as if the session did not exist. Default: `sessionPrincipal`'s rule.
   */
  principalOf?(authInfo: unknown): string | undefined;
}

/**
 * Who opened a session, or sent a stateless request (2026-07-28, or `stateless: true`): what
 * `connect` and `serverFor` know when they attach a server to its transport.
 */
export interface SessionOpening {
  /**
   * The auth info the authorization layer produced for the opening request (an `AuthInfo` behind
   * `createProtectedResource`, whatever an `authenticate` hook returned); `undefined` without
   * one, and for a session adopted from a dead instance of a cluster (its requests still carry
   * theirs, to every handler).
   */
  readonly authInfo: unknown;
  /** The principal the session is bound to (see `principalOf`); `undefined` when anonymous. */
  readonly principal: string | undefined;
  /** The HTTP request that opened it; `undefined` for a session adopted in a cluster. */
  readonly http: HttpRequestInfo | undefined;
}

/** What `serverFor` returns: anything that serves a session transport, such as an `McpServer`. */
export interface TransportServer {
  /** Serves the session (or stateless request) of `transport`; starts the transport. */
  connect(transport: StreamableHttpSessionTransport): Promise<unknown> | unknown;
}

/** Options of {@link createStreamableHttpServer}: `connect` or `serverFor`, and the rest. */
export interface StreamableHttpServerOptions {
  /**
   * Called once per new session (stateless: per request) with a fresh transport and who opened
   * it; attach a server to it, e.g. `(transport) => mcpServer.connect(transport)`. It must call
   * `transport.start(sink)` (directly or through the session runner) before it settles. Give
   * this or {@link serverFor}.
   */
  connect?: (transport: StreamableHttpSessionTransport, opening: SessionOpening) => Promise<unknown> | unknown;
  /**
   * A server per principal: called once per new session (stateless: per request) with who opened
   * it, returns the server that serves it (built for that principal, or picked from a cache).
   * Rules that only hide items from some principals are simpler as `requiredScopes` / `visible`
   * on the registrations of one shared `McpServer`, which also follow a step-up mid-session.
   */
  serverFor?: (opening: SessionOpening) => TransportServer | Promise<TransportServer>;
  /** Serve only this path (e.g. `/mcp`); other paths get 404. Default: any path. */
  path?: string;
  /**
   * Stateless mode: no sessions, a fresh transport per request, server-to-client requests
   * fail at once (`NoReturnChannelError`), GET and DELETE answer 405. The one way to ask for it.
   */
  stateless?: boolean;
  /**
   * Session id generator (default `crypto.randomUUID`).
   *
   * @deprecated as a stateless switch: `sessionIdGenerator: undefined` written out (the official
   * SDK's spelling) still selects stateless mode, as an alias of `stateless: true`; write
   * `stateless: true` instead. A generator function is not deprecated.
   */
  sessionIdGenerator?: (() => string) | undefined;
  /**
   * How a POST carrying requests is answered; MCP 2025-03-26 onwards (Transports §Streamable
   * HTTP, "Sending Messages to the Server") lets the server pick `application/json` or
   * `text/event-stream`, and every client must accept both.
   *
   * - unset (default): one JSON body, unless a message related to the request (a progress
   *   notification, a server-to-client request) is sent before its answer, which turns the
   *   answer into an SSE stream. With an `eventStore`, a session's POSTs are answered with an
   *   SSE stream from the start, so that every event has an id the client can resume from
   *   (`Last-Event-ID`) and handlers can close it for SSE polling.
   * - `true`: always one JSON body; related messages go to the session's standalone GET
   *   stream (a stateless request has none: they are dropped).
   * - `false`: always an SSE stream, whether or not an `eventStore` is set.
   */
  enableJsonResponse?: boolean;
  /** Makes SSE streams resumable (`Last-Event-ID`) and enables priming/polling. */
  eventStore?: EventStore;
  /** The `retry:` value (ms) sent in priming events and before polling closes. Default 1000. */
  retryIntervalMs?: number;
  /** Interval of SSE comment keep-alives, ms; 0 disables. Default 15 000. */
  keepAliveIntervalMs?: number;
  /** Idle time after which a session is evicted, ms. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Maximum number of live sessions; beyond it new sessions get 503. Default 10 000. */
  maxSessions?: number;
  /**
   * Maximum number of live sessions of one principal (per instance); beyond it its new sessions
   * get 429 with `Retry-After`. Anonymous sessions count against `maxSessions` only. Default 100;
   * `Infinity` disables.
   */
  maxSessionsPerPrincipal?: number;
  /**
   * Maximum number of open GET event streams (standalone streams and `Last-Event-ID`
   * resumptions) of one principal (per instance); beyond it its GETs get 429 with `Retry-After`.
   * Default twice `maxSessionsPerPrincipal`; `Infinity` disables.
   */
  maxEventStreamsPerPrincipal?: number;
  /** Largest accepted request body in bytes (413 beyond). Default 4 MiB. */
  maxBodyBytes?: number;
  /** Unrelated server messages kept per session while no GET stream is open. Default 1000. */
  maxQueuedMessages?: number;
  /**
   * Unread bytes one SSE connection may hold, per stream. When a client reads slower than the
   * server sends, sends wait for room (the session's `send()` resolves late) instead of the
   * server buffering without bound. Default 1 MiB.
   */
  maxStreamBufferBytes?: number;
  /**
   * How long a send may wait for room on an SSE connection before the connection is closed as
   * stalled, ms. Its events stay in the event store (if any) so the client can resume with
   * `Last-Event-ID`. Default 30 000.
   */
  stalledStreamTimeoutMs?: number;
  /**
   * Allowed `Host` values (see {@link HostGuardOptions}). Default: loopback names for requests on
   * loopback or unknown addresses, the address itself for requests on another address.
   * `listen()` on a non-loopback address refuses to start without it (`AllowedHostsRequiredError`).
   */
  allowedHosts?: readonly string[];
  /** Allowed `Origin` values (see {@link HostGuardOptions}). */
  allowedOrigins?: readonly string[];
  /**
   * Host/Origin validation (see {@link HostGuardOptions.enabled}): `'loopback'` (default: every
   * request, against the lists or the defaults of its address), `true` (the lists or the loopback
   * names, whatever the address) or `false` (never; only behind a proxy that checks `Host`).
   */
  dnsRebindingProtection?: HostGuardOptions['enabled'];
  /**
   * Runs after the Host/Origin check and before a request reaches any session. Return the
   * auth info (passed to `sink.onMessage` as `context.authInfo`), return a `Response` to
   * answer directly, or throw to answer 401 (the client sees a generic text; the error goes to
   * `onError`). For node requests the `Request` has no body.
   */
  authenticate?: (request: Request) => AuthenticateResult | Promise<AuthenticateResult>;
  /**
   * Names the principal of `authenticate`'s auth info: each session is bound to the principal
   * that opened it, and requests of another principal get 404 as if it did not exist. Default
   * `sessionPrincipal`: the issuer, subject and client of OAuth-shaped auth info (`sub`/`subject`),
   * else the whole value, as a SHA-256 digest. Return `undefined` to leave a session unbound.
   */
  principalOf?: PrincipalOf;
  /**
   * A full authorization layer (takes the place of `authenticate`): OAuth protection with
   * `createProtectedResource` from `@statemcp/http-transport/auth`. Its documents are served
   * before the `path` check; sessions are bound to the principal that created them.
   */
  authorization?: HttpAuthorization;
  /**
   * The protocol versions this endpoint serves, both eras: the ones accepted in
   * `MCP-Protocol-Version`, and its stateless (2026-07-28+) ones served without a session.
   * Default: every revision of both eras, as `Server`'s `supportedVersions`.
   */
  supportedVersions?: readonly string[];
  /** @deprecated Use `supportedVersions` (the same option under the name `Server` uses); read when that is not set. */
  supportedProtocolVersions?: readonly string[];
  /** Also serve the deprecated HTTP+SSE transport (2024-11-05) on these paths. */
  legacySse?: { ssePath?: string; messagePath?: string } | boolean;
  /**
   * Time and timers for session idle timeouts, SSE keep-alives and stalled streams. Default
   * `systemClock` from `@statemcp/protocol`; tests pass a `SimulatedClock`.
   */
  clock?: Clock;
  /**
   * Run as one instance of a cluster (scale-out): session records go to `cluster.sessions`, and
   * requests for a session another instance runs are relayed to it over `cluster.bus`, so a load
   * balancer may send any request to any instance. Use the same shared `eventStore` everywhere.
   */
  cluster?: ClusterOptions;
  /** Session lifecycle notifications (observability). */
  onSessionCreated?: (sessionId: string) => void;
  /** Called once when a session ends (DELETE, idle timeout, close). */
  onSessionClosed?: (sessionId: string) => void;
  /**
   * Failures the client is not told the details of: unexpected errors inside the handler
   * (answered with 500), and the reasons behind an authentication refusal — an `authenticate`
   * hook's exception, a token verifier's error (`TokenRejectedError` with the reason as
   * `cause`), an unreachable authorization server or replay store, a full DPoP replay set.
   */
  onError?: (error: unknown) => void;
}

/** Read-only view of the live sessions. */
export interface SessionRegistry {
  readonly size: number;
  /** The ids of the live sessions. */
  ids(): string[];
  /** The transport of a live session (does not count as activity). */
  get(sessionId: string): StreamableHttpSessionTransport | undefined;
  /** Terminates a session as a DELETE would. Returns false when unknown. */
  terminate(sessionId: string): boolean;
}

/** A node:http server started by {@link StreamableHttpServer.listen}. */
export interface ListeningServer {
  readonly server: Server;
  /** The MCP endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: URL;
  readonly port: number;
  /** Closes the MCP server (every session) and the HTTP server. */
  close(): Promise<void>;
}

/**
 * What a caller of {@link StreamableHttpServer.handleNodeRequest} or
 * {@link StreamableHttpServer.handleFetch} knows about a request beyond the request itself —
 * what framework adapters (`/express`, `/fastify`, `/hono`) pass.
 */
export interface HandleRequestOptions {
  /**
   * The body a framework already read: a parsed JSON value (`express.json()`, Fastify's JSON
   * parser), or its text or bytes. The size limit still applies (by `Content-Length`, or the
   * value's JSON size without one); the Content-Type check and the JSON-RPC checks run as usual.
   * Node requests whose `req.body` a body parser set are detected without this option.
   */
  parsedBody?: unknown;
  /**
   * The client's address, for `context.http.remoteAddress`. Node requests default to the
   * socket's; a fetch `Request` does not carry one (Bun: `server.requestIP(request)`, Deno:
   * `info.remoteAddr`).
   */
  remoteAddress?: string;
  /**
   * The local address the request arrived on. Without `allowedHosts`, a request on a loopback
   * (or unknown) address must name a loopback host, and one on another address must name that
   * address itself. A fetch `Request` counts as loopback unless this says otherwise; node
   * requests default to the socket's.
   */
  localAddress?: string;
}

/** A Streamable HTTP server: the Node and fetch front doors, `listen()`, its live sessions and `close()`. */
export interface StreamableHttpServer {
  /** node:http request handler: `http.createServer(mcp.handleNodeRequest)`. */
  handleNodeRequest(req: IncomingMessage, res: ServerResponse, options?: HandleRequestOptions): Promise<void>;
  /** Fetch-style handler for Bun, Deno, workers and web frameworks. */
  handleFetch(request: Request, options?: HandleRequestOptions): Promise<Response>;
  readonly sessions: SessionRegistry;
  /**
   * With `cluster`: how many requests this instance relayed to the instance running their
   * session, served for other instances, and sessions it adopted (docs/guide/scale-out.md). `undefined`
   * without `cluster` (or in stateless mode, which never relays).
   */
  readonly cluster: ClusterStats | undefined;
  /**
   * Starts a node:http server; binds 127.0.0.1 unless told otherwise. Binding another address
   * (`0.0.0.0`, `::`, a LAN address) needs `allowedHosts`: without it the promise rejects with
   * `AllowedHostsRequiredError` and nothing listens.
   */
  listen(options?: { port?: number; host?: string }): Promise<ListeningServer>;
  /** Ends every session and refuses further requests (503). Idempotent. */
  close(): Promise<void>;
}

