/**
 * The client side of Streamable HTTP, over `fetch`: the session-bearing shape of 2025-03-26 …
 * 2025-11-25 (MCP 2025-11-25 basic/transports §Streamable HTTP) and the stateless shape of
 * 2026-07-28 (MCP 2026-07-28 basic/transports/streamable-http).
 *
 * What it does, in the order a connection meets it:
 * - every message is its own POST with `Accept: application/json, text/event-stream`;
 *   202, JSON and SSE answers are all handled; SSE streams, their
 *   resumption and the standalone GET stream live in `sse-streams.ts`;
 * - the session id is taken only from the response to `initialize` and echoed on every
 *   later POST, GET and DELETE; `MCP-Protocol-Version` is sent once the session has called
 *   {@link StreamableHttpClientTransport.setProtocolVersion} (MCP 2025-11-25 basic/transports
 * §Session Management, MCP 2025-11-25 basic/transports §Protocol Version Header);
 * - after `notifications/initialized` it opens the standalone GET stream (405 = the server
 *   offers none) (MCP 2025-11-25 basic/transports §Listening for Messages from the Server);
 * - a 404 for the session id means the server forgot the session (MCP 2025-11-25 basic/transports
 *   §Session Management). The transport
 *   runs no handshake of its own: it drops the id, holds every later message except
 *   `initialize`, and reports `sink.onSessionExpired()`; the session's machine runs the
 *   handshake again, and once its `notifications/initialized` has gone out the held messages
 *   follow, in order. A 404 again before the new session served anything closes the transport;
 * - an `initialize` POST refused with 400/404/405 falls back to the legacy HTTP+SSE
 *   transport (MCP 2025-11-25 basic/transports §Backwards Compatibility, MCP 2026-07-28
 * basic/versioning §Backward Compatibility);
 * - `close()` DELETEs the session (405 and failures tolerated, bounded by a timer) and
 *   aborts every stream (MCP 2025-11-25 basic/transports §Session Management);
 * - the 2026-07-28 shape (a request whose `_meta` names a revision with routing headers,
 *   MCP 2026-07-28 basic/transports/streamable-http): no session id, `MCP-Protocol-Version` from
 * the `_meta`, `Mcp-Method`,
 *   `Mcp-Name`, `Mcp-Param-*` (`routing-headers.ts`); tools with invalid `x-mcp-header`
 *   annotations are left out of `tools/list` results. With no handshake there is no GET
 *   stream and no session to DELETE.
 *
 * The transport never invents a server's answer: requests it cannot deliver, or whose answer
 * can no longer arrive, go to `sink.onUndeliverable(ids, error)`.
 */
import {
  ConnectionClosedError,
  InvalidStateError,
  TransportError,
  isJsonObject,
  parseJson,
  systemClock,
  type Clock,
  type JsonRpcMessage,
  type RequestId,
  type Transport,
  type TransportCloseInfo,
  type TransportSink,
} from '@statemcp/protocol';
import { isRequestId } from '@statemcp/protocol/internal';
import { AbortScope, type ScopedSignal } from './abort-scope.js';
import { authMiddleware } from './auth-hook.js';
import { HttpResponseError, errorForStatus, networkError, readBodyExcerpt } from './http-errors.js';
import { transportFetch } from './node-http-fetch.js';
import { discardBody, hasBody, readJsonText, responseHeader } from './response-body.js';
import { resolveReconnectOptions } from './reconnect.js';
import { buildHeaders } from './request-headers.js';
import { deleteHttpSession } from './delete-session.js';
import { errorAnswerFor, isModernErrorBody, isNotificationWithMethod, isRequestWithMethod, requestIdsOf } from './message-kinds.js';
import { startLegacyFallback } from './legacy-fallback.js';
import { ToolParamHeaders, routedVersion } from './routing-headers.js';
import type { SseClientTransport } from './sse-client.js';
import { SseStreams } from './sse-streams.js';
import { holdMessage, type Expiry, type Mode, type PostOutcome } from './transport-state.js';
import type { StreamableHttpClientTransportOptions, StreamState } from './streamable-http-options.js';

export type { SessionRecoveredInfo, StreamableHttpClientTransportOptions, StreamState, StreamStateChange } from './streamable-http-options.js';

const ACCEPT_BOTH = 'application/json, text/event-stream';
const SESSION_ID_PATTERN = /^[\x21-\x7e]+$/;
/** The outcome of a POST whose answer was taken (one shared object: it carries nothing). */
const DONE: PostOutcome = Object.freeze({ kind: 'done' });

/**
 * Streamable HTTP client transport.
 *
 * @example
 * ```ts
 * import { Client } from '@statemcp/client';
 * import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
 *
 * const transport = new StreamableHttpClientTransport(new URL('http://127.0.0.1:3000/mcp'), {
 *   headers: async () => ({ authorization: `Bearer ${await getToken()}` }),
 *   reconnect: { initialDelayMs: 500, maxRetries: 8 },
 * });
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 * await client.connect(transport);
 * const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
 * await client.close(); // DELETEs the session
 * ```
 */
export class StreamableHttpClientTransport implements Transport {
  readonly #url: URL;
  readonly #fetch: typeof fetch;
  readonly #options: StreamableHttpClientTransportOptions;
  readonly #clock: Clock;
  /** Aborted by close: every stream listens to it. */
  readonly #lifetime = new AbortController();
  /** The POSTs in flight, aborted together on close (one signal each, no shared listeners). */
  readonly #posts = new AbortScope();
  readonly #streams: SseStreams;
  #mode: Mode = { kind: 'new' };
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  /** Set while the server's forgotten session is being replaced. */
  #expiry: Expiry | undefined;
  /** True from a replaced session until it served a message: a 404 then is final. */
  #replacedWithoutSuccess = false;
  #recoveryCount = 0;
  /** True once an `initialize` succeeded over Streamable HTTP (no legacy fallback after). */
  #established = false;
  /** Modern era: the tools' `x-mcp-header` annotations, for `Mcp-Param-*` headers. */
  readonly #paramHeaders = new ToolParamHeaders();
  /** Modern era: ids of `tools/list` requests whose results are screened for invalid annotations. */
  readonly #toolLists = new Set<RequestId>();
  /** Modern era: requests not yet answered, with what aborts their POST (cancelling one closes its stream). */
  readonly #modernRequests = new Map<RequestId, AbortController>();

  readonly canSendRequests = true;

  constructor(url: URL | string, options: StreamableHttpClientTransportOptions = {}) {
    this.#url = new URL(url);
    const base = transportFetch(options.fetch, options.requestInit);
    // While the provider authorizes, the session's request timeouts wait (a login is not a silent server).
    const onAuthorizing = (active: boolean): void => this.#sink()?.onAuthorizing?.(active);
    this.#fetch = options.authProvider === undefined ? base : authMiddleware(options.authProvider, { onAuthorizing })(base);
    // The legacy fallback builds its transport from the options: it gets the authorized fetch too.
    this.#options = options.authProvider === undefined ? options : { ...options, fetch: this.#fetch };
    this.#clock = options.clock ?? systemClock;
    if (options.sessionId !== undefined) {
      if (!SESSION_ID_PATTERN.test(options.sessionId)) throw new RangeError('sessionId must be visible ASCII (0x21-0x7E)');
      this.#sessionId = options.sessionId;
      this.#established = true;
    }
    this.#streams = new SseStreams({
      url: this.#url,
      fetch: this.#fetch,
      options,
      reconnect: resolveReconnectOptions(options.reconnect),
      clock: this.#clock,
      random: options.random ?? Math.random,
      lifetime: this.#lifetime.signal,
      sessionId: () => this.#sessionId,
      protocolVersion: () => this.#protocolVersion,
      isOpen: () => this.#mode.kind === 'streamable' || this.#mode.kind === 'fallingBack',
      deliver: (value) => this.#deliver(value),
      malformed: (text, reason) => this.#sink()?.onMalformed?.(text, reason),
      error: (error) => this.#sink()?.onError?.(error),
      undeliverable: (ids, error) => this.#undeliverable(ids, error),
      // Right after a replacement a 404 on the GET means this server serves no such stream: it just dies.
      sessionExpired: (sessionId) => {
        if (!this.#replacedWithoutSuccess) this.#expire(sessionId);
      },
    });
  }

  /** The `Mcp-Session-Id` in use, once the server has issued one. */
  get sessionId(): string | undefined {
    return this.#mode.kind === 'legacy' ? undefined : this.#sessionId;
  }

  /** The negotiated version sent as `MCP-Protocol-Version`, once set. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** `streamable`, or `legacy` after falling back to HTTP+SSE. */
  get wire(): 'streamable' | 'legacy' {
    return this.#mode.kind === 'legacy' ? 'legacy' : 'streamable';
  }

  /** The standalone GET stream's state; `undefined` before it was first opened. */
  get standaloneStreamState(): StreamState | undefined {
    return this.#streams.standaloneState;
  }

  /** How many times a forgotten session was replaced by a new one. */
  get sessionRecoveries(): number {
    return this.#recoveryCount;
  }

  /** Begins delivery to `sink`. No request is made until the first `send()`. */
  async start(sink: TransportSink): Promise<void> {
    if (this.#mode.kind !== 'new') throw new InvalidStateError('StreamableHttpClientTransport was already started', this.#mode.kind);
    this.#mode = { kind: 'streamable', sink };
    if (this.#sessionId !== undefined) this.#streams.openStandalone();
  }

  /** Sends `MCP-Protocol-Version: <version>` on every later request. Called by the session. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  /**
   * POSTs one message. Resolves once the server accepted it (202, a JSON body, or the
   * headers of an SSE stream — the stream is then read in the background); while a forgotten
   * session is being replaced, once it went out on the new one. Rejects with
   * `AuthRequiredError` (`@statemcp/protocol`) on 401/403, {@link ConnectionClosedError} when the transport is
   * closed (or closed because the session could not be replaced), {@link TransportError} otherwise.
   */
  async send(message: JsonRpcMessage): Promise<void> {
    const mode = this.#mode;
    switch (mode.kind) {
      case 'new':
        throw new InvalidStateError('StreamableHttpClientTransport is not started', mode.kind);
      case 'closing':
      case 'closed':
        throw new ConnectionClosedError('The Streamable HTTP transport is closed');
      case 'legacy':
        return mode.legacy.send(message);
      case 'fallingBack':
        await mode.done;
        return this.send(message);
      case 'streamable':
        break;
    }
    if (this.#cancelModern(message)) return;
    const handshake = isRequestWithMethod(message, 'initialize') || isNotificationWithMethod(message, 'notifications/initialized');
    const expiry = this.#expiry;
    if (expiry !== undefined && !handshake) return holdMessage(expiry, message);
    const outcome = await this.#post(message);
    switch (outcome.kind) {
      case 'done':
        if (isNotificationWithMethod(message, 'notifications/initialized')) await this.#release();
        return;
      case 'legacyCandidate':
        return this.#fallBackToLegacy(mode.sink, message, outcome.error);
      case 'sessionExpired': {
        this.#expire(outcome.sessionId);
        const current = this.#expiry;
        if (current !== undefined) return holdMessage(current, message);
        // Another message already saw the session replaced: this one goes out on the new session.
        if (this.#mode.kind === 'streamable' && this.#sessionId !== undefined && this.#sessionId !== outcome.sessionId) return this.send(message);
        throw new ConnectionClosedError(`The server forgot the session (HTTP 404 from ${this.#url.href})`, { details: { status: 404 } });
      }
    }
  }

  /**
   * Closes gracefully: aborts every stream, DELETEs the session (405 and failures are
   * tolerated; bounded by `closeTimeoutMs`), then fires `sink.onClose` once. Idempotent.
   */
  async close(): Promise<void> {
    return this.#closeWith({ initiator: 'local' }, true);
  }

  /** Closes without the DELETE: streams are aborted and `sink.onClose` fires at once. */
  async terminate(): Promise<void> {
    return this.#closeWith({ initiator: 'local' }, false);
  }

  // ---------------------------------------------------------------------------------------
  // A session the server forgot

  /** The server answered 404 for `staleSessionId`: hand the handshake to the session's machine. */
  #expire(staleSessionId: string): void {
    if (this.#expiry !== undefined || this.#sessionId !== staleSessionId || this.#mode.kind !== 'streamable') return;
    const sink = this.#mode.sink;
    if (this.#replacedWithoutSuccess || sink.onSessionExpired === undefined) {
      const why = this.#replacedWithoutSuccess ? 'again, right after the session was replaced' : 'and this session cannot run the handshake again';
      void this.#closeWith({ initiator: 'error', error: new ConnectionClosedError(`The server forgot the session ${why} (HTTP 404 from ${this.#url.href})`, { details: { status: 404 } }) }, false);
      return;
    }
    this.#expiry = { previousSessionId: staleSessionId, held: [] };
    this.#sessionId = undefined;
    this.#streams.stopStandalone();
    sink.onSessionExpired();
  }

  /** The new session's `notifications/initialized` went out: send what was held, in order. */
  async #release(): Promise<void> {
    const expiry = this.#expiry;
    if (expiry === undefined) return;
    this.#expiry = undefined;
    this.#replacedWithoutSuccess = true;
    this.#recoveryCount++;
    try {
      this.#options.onSessionRecovered?.({ previousSessionId: expiry.previousSessionId, sessionId: this.#sessionId });
    } catch {
      // A diagnostics callback must not break the transport.
    }
    for (const held of expiry.held) this.send(held.message).then(held.resolve, held.reject);
  }

  // ---------------------------------------------------------------------------------------
  // POST

  async #post(message: JsonRpcMessage): Promise<PostOutcome> {
    const isInitialize = isRequestWithMethod(message, 'initialize');
    // Modern era (the request's `_meta` names a revision with routing headers): no session,
    // routing headers (MCP 2026-07-28 basic/transports/streamable-http).
    const modern = routedVersion(message);
    const sessionId = isInitialize || modern !== undefined ? undefined : this.#sessionId;
    const url = this.#url.href;
    if (modern !== undefined && isRequestWithMethod(message, 'tools/list')) for (const id of requestIdsOf(message)) this.#toolLists.add(id);
    // Only a modern request is cancelled by aborting its POST (`#cancelModern`): a legacy POST needs no controller of its own.
    const cancel = modern === undefined ? undefined : new AbortController();
    if (cancel !== undefined) for (const id of requestIdsOf(message)) this.#modernRequests.set(id, cancel);
    const built = buildHeaders(this.#options.headers, {
      accept: ACCEPT_BOTH,
      'content-type': 'application/json',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': isInitialize ? undefined : this.#protocolVersion,
      ...(modern !== undefined ? this.#paramHeaders.headersFor(message, modern) : {}),
    });
    // Fixed headers come back synchronously: no promise hop before the fetch.
    const headers = built instanceof Promise ? await built : built;
    this.#assertOpen();
    // A signal of its own per POST: one shared signal would collect a listener per POST in flight.
    const scoped = this.#posts.child();
    let response: Response;
    try {
      const signal = cancel === undefined ? scoped.signal : AbortSignal.any([scoped.signal, cancel.signal]);
      response = await this.#fetch(url, { ...this.#options.requestInit, method: 'POST', headers, body: JSON.stringify(message), signal });
    } catch (error) {
      scoped.release();
      for (const id of requestIdsOf(message)) this.#modernRequests.delete(id);
      this.#assertOpen();
      throw networkError('POST', url, error);
    }
    try {
      this.#assertOpen();
      const outcome = this.#answer(message, response, sessionId, scoped);
      return outcome instanceof Promise ? await outcome : outcome;
    } finally {
      scoped.release();
    }
  }

  /**
   * What the server's answer to one POST means. Synchronous for an SSE answer (the common
   * case: the stream is read in the background), so that answer takes no promise of its own.
   */
  #answer(message: JsonRpcMessage, response: Response, sessionId: string | undefined, scoped: ScopedSignal): PostOutcome | Promise<PostOutcome> {
    if (!response.ok) return this.#refused(message, response, sessionId);
    // Only the session's own traffic proves a replaced session works, not its handshake.
    if (sessionId !== undefined && !isNotificationWithMethod(message, 'notifications/initialized')) this.#replacedWithoutSuccess = false;
    if (isRequestWithMethod(message, 'initialize')) this.#takeSessionId(response);

    const requestIds = requestIdsOf(message);
    const contentType = (responseHeader(response, 'content-type') ?? '').toLowerCase();
    const isSse = contentType.includes('text/event-stream');
    if (isNotificationWithMethod(message, 'notifications/initialized')) this.#streams.openStandalone();
    if (response.status === 202 || !hasBody(response) || (requestIds.length === 0 && !isSse)) return discardBody(response).then(() => DONE);
    if (isSse) {
      this.#streams.consumeRequestStream(response, requestIds, scoped);
      return DONE;
    }
    if (contentType.includes('application/json')) return this.#readJson(response, requestIds);
    return this.#unexpected(response, contentType);
  }

  /** A POST the server did not accept (a status other than 2xx). */
  async #refused(message: JsonRpcMessage, response: Response, sessionId: string | undefined): Promise<PostOutcome> {
    const url = this.#url.href;
    const body = await readBodyExcerpt(response);
    if (response.status === 404 && sessionId !== undefined) return { kind: 'sessionExpired', sessionId };
    const error = errorForStatus('POST', url, response, body);
    const legacyStatus = response.status === 400 || response.status === 404 || response.status === 405;
    if (isRequestWithMethod(message, 'initialize') && !this.#established && this.#options.legacyFallback !== false && legacyStatus && !isModernErrorBody(body)) {
      return { kind: 'legacyCandidate', error };
    }
    // A JSON-RPC error response for this very request is an answer, not a failure.
    const answer = errorAnswerFor(message, body);
    if (answer !== undefined) {
      this.#deliver(answer);
      return DONE;
    }
    this.#sink()?.onError?.(error);
    throw error;
  }

  /** A JSON body carrying the answers to the POST's requests. */
  async #readJson(response: Response, requestIds: readonly RequestId[]): Promise<PostOutcome> {
    const text = await readJsonText(response, this.#options.maxMessageSize, this.#url.href);
    this.#assertOpen();
    const pending = new Set(requestIds);
    if (typeof text === 'string' && text.trim().length > 0) {
      const parsed = parseJson(text);
      if (parsed.ok) this.#deliver(parsed.value, pending);
      else this.#sink()?.onMalformed?.(text, parsed.reason);
    }
    if (pending.size > 0) this.#undeliverable([...pending], typeof text === 'string' ? new TransportError(`The JSON response from ${this.#url.href} did not contain the answer to this request`) : text);
    return DONE;
  }

  async #unexpected(response: Response, contentType: string): Promise<PostOutcome> {
    const url = this.#url.href;
    await discardBody(response);
    const error = new TransportError(`POST ${url} answered with an unexpected content-type ${JSON.stringify(contentType)}`, {
      cause: new HttpResponseError('POST', url, response.status, response.statusText, '', undefined),
    });
    this.#sink()?.onError?.(error);
    throw error;
  }

  #takeSessionId(response: Response): void {
    this.#established = true;
    const issued = responseHeader(response, 'mcp-session-id');
    if (issued === null) {
      this.#sessionId = undefined;
    } else if (SESSION_ID_PATTERN.test(issued)) {
      this.#sessionId = issued;
    } else {
      this.#sink()?.onError?.(new TransportError(`Ignoring a malformed Mcp-Session-Id header: ${JSON.stringify(issued)}`));
    }
  }

  /**
   * Modern era: a request is cancelled by closing its POST and response stream, which the
   * server treats as cancellation (MCP 2026-07-28 basic/transports/streamable-http); no
   * `notifications/cancelled` is posted.
   * True when `message` was such a cancellation.
   */
  #cancelModern(message: JsonRpcMessage): boolean {
    if (!isNotificationWithMethod(message, 'notifications/cancelled') || !('params' in message) || !isJsonObject(message.params)) return false;
    const id = message.params.requestId;
    const cancel = isRequestId(id) ? this.#modernRequests.get(id) : undefined;
    if (cancel === undefined || !isRequestId(id)) return false;
    this.#modernRequests.delete(id);
    cancel.abort();
    this.#streams.cancelRequest(id);
    return true;
  }

  // ---------------------------------------------------------------------------------------
  // Legacy HTTP+SSE fallback

  async #fallBackToLegacy(sink: TransportSink, initialize: JsonRpcMessage, refusal: Error): Promise<void> {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.#mode = { kind: 'fallingBack', sink, done };
    let legacy: SseClientTransport;
    try {
      legacy = await startLegacyFallback(this.#url, this.#options, sink, refusal, (info) => void this.#closeWith(info, false));
    } catch (error) {
      if (this.#mode.kind === 'fallingBack') this.#mode = { kind: 'streamable', sink };
      finish();
      throw error;
    }
    if (this.#mode.kind !== 'fallingBack') {
      finish();
      await legacy.terminate();
      throw new ConnectionClosedError('The transport closed while falling back to HTTP+SSE');
    }
    this.#mode = { kind: 'legacy', sink, legacy };
    finish();
    await legacy.send(initialize);
  }

  // ---------------------------------------------------------------------------------------
  // Delivery

  /** Hands inbound messages to the sink (a batch array is split), noting the answers the streams owed. */
  #deliver(value: unknown, answered?: Set<RequestId>): void {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      let delivered: unknown = item;
      if (isJsonObject(item) && !('method' in item) && ('result' in item || 'error' in item) && isRequestId(item.id)) {
        answered?.delete(item.id);
        this.#streams.answered(item.id);
        this.#modernRequests.delete(item.id);
        // HTTP clients leave out tools whose `x-mcp-header` annotations break the rules (MCP
        // 2026-07-28 basic/transports/streamable-http), with a warning.
        if (this.#toolLists.delete(item.id) && isJsonObject(item.result)) {
          const warn = (tool: string, why: string): void => this.#sink()?.onError?.(new TransportError(`Left out tool ${JSON.stringify(tool)} from tools/list: ${why}`));
          delivered = { ...item, result: this.#paramHeaders.screen(item.result, warn) };
        }
      }
      this.#sink()?.onMessage(delivered);
    }
  }

  #undeliverable(ids: readonly RequestId[], error: Error): void {
    for (const id of ids) this.#modernRequests.delete(id);
    const sink = this.#sink();
    if (sink?.onUndeliverable !== undefined) sink.onUndeliverable(ids, error);
    else sink?.onError?.(error);
  }

  #sink(): TransportSink | undefined {
    const mode = this.#mode;
    return mode.kind === 'new' || mode.kind === 'closed' ? undefined : mode.sink;
  }

  #assertOpen(): void {
    const kind = this.#mode.kind;
    if (kind === 'closing' || kind === 'closed') throw new ConnectionClosedError('The Streamable HTTP transport is closed');
  }

  // ---------------------------------------------------------------------------------------
  // Closing

  #closeWith(info: TransportCloseInfo, deleteSession: boolean): Promise<void> {
    const mode = this.#mode;
    if (mode.kind === 'closing') return mode.done;
    if (mode.kind === 'closed') return Promise.resolve();
    const sink = mode.kind === 'new' ? undefined : mode.sink;
    const legacy = mode.kind === 'legacy' ? mode.legacy : undefined;
    const sessionId = this.#sessionId;
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    // Enter `closing` before any side effect, so re-entrant calls (a legacy transport
    // reporting its own close) join this close instead of starting another.
    this.#mode = { kind: 'closing', sink, done };
    void (async () => {
      this.#lifetime.abort();
      this.#posts.abort();
      this.#streams.closeAll();
      const held = this.#expiry?.held ?? [];
      this.#expiry = undefined;
      for (const message of held) message.reject(new ConnectionClosedError('The Streamable HTTP transport closed before the session was replaced'));
      try {
        if (legacy !== undefined) await legacy.terminate();
        else if (deleteSession && sessionId !== undefined) {
          await deleteHttpSession({ url: this.#url, fetch: this.#fetch, options: this.#options, clock: this.#clock, sessionId, protocolVersion: this.#protocolVersion });
        }
      } finally {
        this.#mode = { kind: 'closed' };
        try {
          sink?.onClose(info);
        } finally {
          finish();
        }
      }
    })();
    return done;
  }
}
