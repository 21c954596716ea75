/**
 * The Transport interface: the only thing a transport owns is moving JSON-RPC messages and
 * its own I/O resources (processes, sockets, streams). It never decides lifecycle: the
 * session's state machine decides *when* to close; the transport knows *how*.
 *
 * Contract:
 * - `start(sink)` begins delivery. Every inbound frame is handed to `sink.onMessage` as a
 *   parsed JSON value (not yet classified), or to `sink.onMalformed` when it was not JSON.
 * - `send(message)` resolves when the message has been handed to the OS / stream (stdio
 *   backpressure honoured). It rejects with a typed error if the transport is closed.
 * - `close()` closes gracefully (stdio: close stdin → SIGTERM → SIGKILL; HTTP: DELETE).
 *   It is idempotent and resolves once the transport is fully closed.
 * - `sink.onClose` is called exactly once when the transport is closed, whoever closed it.
 * - A transport never invents a message from the peer. When it cannot deliver an outbound
 *   request, or the channel that would have carried its response is gone for good, it calls
 *   `sink.onUndeliverable(ids, error)`; the runner settles those requests with a local error
 *   of category `interrupted`. It never forges a JSON-RPC error response.
 * - Lifecycle belongs to the session's machine. When an HTTP server forgets the session (404
 *   for the session id, MCP 2025-11-25 Transports §Session Management), the transport drops the
 *   id, calls `sink.onSessionExpired(expiry)` once for it, and rejects every message that met
 *   the 404 with `SessionExpiredError`. It holds nothing and names no method: the machine runs
 *   the handshake again (Initializing, phase `resuming`) while the runner's ledger holds every
 *   other outbound message, the bounced ones included, and sends them once the new session is up.
 */
import type { JsonRpcMessage, RequestId } from '../jsonrpc/messages.js';

/** What a transport knows about a session the server forgot ({@link TransportSink.onSessionExpired}). */
export interface SessionExpiry {
  /** The forgotten session had itself replaced a forgotten one (its id was issued after a 404). */
  readonly replacement: boolean;
  /** The server accepted a request on the forgotten session (a 2xx to a POST carrying a request). */
  readonly answered: boolean;
}
import type { PeerInfo } from '../machines/connection-types.js';

/** Where a transport delivers what it receives. Implemented by the session runner. */
export interface TransportSink {
  /** A parsed JSON value from the peer (a message, a batch, or garbage to be rejected). */
  onMessage(value: unknown, context?: InboundContext): void;
  /** A frame that was not valid JSON; the runner answers -32700 where a reply is possible. */
  onMalformed?(text: string, reason: string): void;
  /** A non-fatal transport problem (diagnostics). Fatal ones end with `onClose`. */
  onError?(error: Error): void;
  /** The transport has closed. Called exactly once. */
  onClose(info: TransportCloseInfo): void;
  /**
   * These outbound requests cannot be delivered, or their responses can no longer arrive (a
   * POST failed, the SSE stream carrying them died past its retries). The runner settles each
   * still pending with a local error of category `interrupted`.
   */
  onUndeliverable?(ids: readonly RequestId[], error: Error): void;
  /**
   * The peer no longer knows this transport's session (Streamable HTTP: 404 for the session
   * id), reported once per session id, before the messages that met the 404 reject with
   * `SessionExpiredError`. `expiry` tells the machine what the transport knows of that
   * session; see the contract above.
   */
  onSessionExpired?(expiry?: SessionExpiry): void;
  /**
   * The transport is authorizing (`true`: an OAuth login, refresh or step-up began; nothing it
   * sends can be answered until it ends) or done (`false`). While authorizing, the runner
   * pauses its requests' timeouts — a user signing in in a browser is not a silent peer — and
   * each pending request gets its full timeout again once authorization ends.
   */
  onAuthorizing?(active: boolean): void;
}

/** Per-message context a transport can attach (HTTP headers, auth, the HTTP request). */
export interface InboundContext {
  /** Authentication result from the transport's auth hook, passed to handlers. */
  authInfo?: unknown;
  /** Request headers, lower-cased names (HTTP transports). */
  headers?: Readonly<Record<string, string>>;
  /** Transport-level session id (HTTP `Mcp-Session-Id`). */
  sessionId?: string;
  /**
   * The HTTP request that carried the message: the POST of Streamable HTTP or legacy SSE, or
   * the upgrade request of a WebSocket. Absent on transports without HTTP (stdio, in-memory).
   */
  http?: HttpRequestInfo;
}

/**
 * A read-only view of the HTTP request that carried a message (frozen, headers included).
 *
 * @example
 * ```ts
 * server.setRequestHandler('tools/call', (params, context) => {
 *   const http = context.transportContext?.http; // undefined on stdio
 *   return { content: [{ type: 'text', text: http?.headers['user-agent'] ?? 'no HTTP request' }] };
 * });
 * ```
 */
export interface HttpRequestInfo {
  /** The HTTP method, upper case (`POST`; `GET` for a WebSocket upgrade). */
  readonly method: string;
  /** The absolute request URL, built from the request target and its `Host` header. */
  readonly url: string;
  /** Every request header, lower-cased names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The peer's IP address as the socket saw it (a proxy's address behind a proxy: read
   * `x-forwarded-for` from `headers` when you trust it), or `undefined` when the runtime does
   * not tell (a fetch-style handler given no address).
   */
  readonly remoteAddress: string | undefined;
}

/** Why and how a transport closed. */
export interface TransportCloseInfo {
  /** `local`: this side called `close()`; `remote`: the peer went away; `error`: a failure. */
  initiator: 'local' | 'remote' | 'error';
  error?: Error;
  /** Free-form diagnostics (exit code, signal, stderr tail, HTTP status, …). */
  details?: Record<string, unknown>;
}

/** Options for one outbound message. */
export interface SendOptions {
  /**
   * The inbound request this message belongs to (a progress notification, a log message, a
   * nested request, or the response itself). HTTP server transports route it to that
   * request's stream.
   */
  relatedRequestId?: RequestId;
  /**
   * Request metadata the sender derived for this message, carried as headers by a transport
   * that routes by headers ({@link Transport.mirrorsToolArguments}): the `Mcp-Param-*` of a
   * 2026-07-28 `tools/call` (MCP 2026-07-28, Transports §Streamable HTTP). Other transports
   * ignore it.
   */
  headers?: Readonly<Record<string, string>>;
}

/** A bidirectional JSON-RPC message channel. */
export interface Transport {
  /** Opens the channel and starts delivering inbound messages, transitions and failures to `sink`. */
  start(sink: TransportSink): Promise<void>;
  /** Resolves once the message is handed to the OS or the stream; rejects if it cannot be. */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /** Graceful close, per transport (stdio: close stdin → SIGTERM → SIGKILL; HTTP: DELETE); idempotent. */
  close(): Promise<void>;
  /** Forceful close: no graceful steps. Defaults to `close()` where there is no difference. */
  terminate?(): Promise<void>;
  /** Transport-level session id once known (HTTP). */
  readonly sessionId?: string | undefined;
  /**
   * Called by the session once the protocol version is negotiated, so HTTP client
   * transports can send `MCP-Protocol-Version` on every later request.
   */
  setProtocolVersion?(version: string): void;
  /**
   * Set by transports that carry one exchange of a session whose handshake was answered
   * elsewhere (stateless Streamable HTTP creates a transport per request). A server session
   * connected to it starts in Operating at this protocol version, through the machine's
   * `sessionAssumed` event, instead of waiting for an `initialize` that will never come.
   */
  readonly assumedProtocolVersion?: string | undefined;
  /**
   * True when this transport carries one exchange and ends with its answer (stateless
   * Streamable HTTP: one POST, MCP 2026-07-28 Transports §Streamable HTTP). At a stateless
   * version (its {@link assumedProtocolVersion}) a server may serve it without a session
   * (`StatelessDispatcher`): there is no later message for a connection to be kept for.
   */
  readonly singleExchange?: boolean;
  /**
   * Set by a server transport that continues a session another instance ran until it died
   * (scale-out: the Streamable HTTP server adopting a session from its shared record). A server
   * session connected to it starts in Operating at the session's negotiated version with the
   * client's declared capabilities, through the machine's `sessionAdopted` event.
   */
  readonly adoptedSession?: AdoptedSession | undefined;
  /**
   * True when this transport can carry server-to-client requests (false for stateless
   * HTTP). The session fails such requests at once with `NoReturnChannelError` when false.
   */
  readonly canSendRequests?: boolean;
  /**
   * True when the peer behind this transport is one endpoint that answers every request or
   * closes the channel (a child process on stdio). A client's modern-era discovery then has no
   * `discoveryTimeoutMs` of its own: a slow-starting server's late answer could not be told
   * apart from a legacy server's silence, so it waits for the answer (bounded by the connect
   * timeout, else the default request timeout) or for the channel to close.
   */
  readonly answersUntilClosed?: boolean;
  /**
   * True when this transport mirrors annotated tool arguments into request headers (2026-07-28
   * Streamable HTTP: `x-mcp-header` → `Mcp-Param-*`, MCP 2026-07-28 Transports §Streamable
   * HTTP). A client on it then leaves out of `tools/list` every tool whose annotations break the
   * rules, and passes each call's headers in {@link SendOptions.headers}.
   */
  readonly mirrorsToolArguments?: boolean;
  /**
   * Cancels outbound request `id` by the transport's own means, when this transport has one
   * for it (2026-07-28 Streamable HTTP: closing the request's response stream is its
   * cancellation, MCP 2026-07-28 Utilities §Cancellation). Returns true when it did: the
   * session then sends no `notifications/cancelled`. False for a request it cannot end so
   * (any request of a legacy session, whose dropped stream is not a cancellation).
   */
  cancelRequest?(id: RequestId): boolean;
}

/** What a server session adopted from another instance starts from (see {@link Transport.adoptedSession}). */
export interface AdoptedSession {
  /** The version the session negotiated on the instance that ran it. */
  readonly protocolVersion: string;
  /** What the client declared in its `initialize` (capabilities, and `clientInfo` when known). */
  readonly peer: PeerInfo;
}
