/**
 * The client side of Streamable HTTP, over `fetch`: the session-bearing shape of 2025-03-26 …
 * 2025-11-25 (MCP 2025-11-25 basic/transports §Streamable HTTP) and the stateless shape of
 * 2026-07-28 (MCP 2026-07-28 basic/transports/streamable-http).
 *
 * What it does, in the order a connection meets it:
 * - every message is its own POST with `Accept: application/json, text/event-stream`; 202, JSON
 *   and SSE answers are all handled (SSE streams and the GET stream: `sse-streams.ts`), read as
 *   an `HttpAnswer` of `fetch` or, on the default `fetch` on Node, of the transport's own
 *   `node:http` POST (`http-answer.ts`);
 * - the session id from the answer to the POST sent while the transport has none is echoed on
 *   every later POST, GET and DELETE; `MCP-Protocol-Version` once the session called
 *   `setProtocolVersion` (MCP 2025-11-25 Transports §Session Management, §Protocol Version
 *   Header); once a POST was accepted, the standalone GET stream opens (405: none offered);
 * - a 404 for the session id means the server forgot the session: the transport drops the id,
 *   reports `sink.onSessionExpired({ replacement, answered })` once and rejects what met the 404
 *   with `SessionExpiredError`; the session's machine decides what follows;
 * - a session-opening POST refused with 400/404/405 falls back to the legacy HTTP+SSE
 *   transport (§Backwards Compatibility); `close()` DELETEs the session (405 and failures
 *   tolerated, bounded by a timer) and aborts every stream;
 * - the 2026-07-28 shape (a request whose `_meta` names a revision with routing headers, MCP
 *   2026-07-28 Transports §Streamable HTTP): no session, the routing headers
 *   (`routing-headers.ts`) and the `Mcp-Param-*` the client passes (`SendOptions.headers`); a
 *   request is cancelled by closing its POST (`cancelRequest`).
 *
 * The transport never invents a server's answer: requests it cannot deliver, or whose answer
 * can no longer arrive, go to `sink.onUndeliverable(ids, error)`.
 */
import {
  ConnectionClosedError,
  InvalidStateError,
  SessionExpiredError,
  TransportError,
  isJsonObject,
  parseJson,
  systemClock,
  type Clock,
  type JsonRpcMessage,
  type RequestId,
  type SendOptions,
  type Transport,
  type TransportCloseInfo,
  type TransportSink,
} from '@statemcp/protocol';
import { isRequestId } from '@statemcp/protocol/internal';
import { AbortScope, type ScopedSignal } from './abort-scope.js';
import { authMiddleware } from './auth-hook.js';
import { errorForAnswer, postExchange, readJsonAnswer, unexpectedContentType, type HttpAnswer, type PostExchange } from './http-answer.js';
import { networkError } from './http-errors.js';
import { transportFetch } from './transport-fetch.js';
import { resolveReconnectOptions } from './reconnect.js';
import { postHeaders } from './request-headers.js';
import { deleteHttpSession } from './delete-session.js';
import { errorAnswerFor, isModernErrorBody, removeId, requestIdsOf } from './message-kinds.js';
import { ModernRequests } from './modern-requests.js';
import { startLegacyFallback } from './legacy-fallback.js';
import { routedVersion } from './routing-headers.js';
import type { SseClientTransport } from './sse-client.js';
import { SseStreams } from './sse-streams.js';
import { type Mode, type PostOutcome, type PostRole, type SessionRecord } from './transport-state.js';
import type { StreamableHttpClientTransportOptions, StreamState } from './streamable-http-options.js';

export type { SessionRecoveredInfo, StreamableHttpClientTransportOptions, StreamState, StreamStateChange } from './streamable-http-options.js';

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
  /** How a POST is sent: the transport's own `node:http` POST on the default `fetch`, else `fetch` (`http-answer.ts`). */
  readonly #exchange: PostExchange;
  readonly #options: StreamableHttpClientTransportOptions;
  readonly #clock: Clock;
  /** Aborted by close: every stream listens to it. */
  readonly #lifetime = new AbortController();
  /** The POSTs in flight, aborted together on close (one signal each, no shared listeners). */
  readonly #posts = new AbortScope();
  readonly #streams: SseStreams;
  #mode: Mode = { kind: 'new' };
  #sessionId: string | undefined;
  /** What this transport knows of the current session (reported when the server forgets it). */
  #session: SessionRecord = { replacement: false, answered: false, standalone: false };
  /** The session id the server forgot, until a new one replaces it. */
  #forgotten: string | undefined;
  #protocolVersion: string | undefined;
  /** False from a 404 until the session sets the version again: the new session's opening POST goes without it. */
  #versionHeader = false;
  #recoveryCount = 0;
  /** True once a session-opening POST succeeded over Streamable HTTP (no legacy fallback after). */
  #established = false;
  /** Modern era: routing headers, and cancellation by aborting the POST. */
  readonly #modern = new ModernRequests();

  readonly canSendRequests = true;
  /** A 2026-07-28 request carries its annotated tool arguments as `Mcp-Param-*` headers (`SendOptions.headers`). */
  readonly mirrorsToolArguments = true;

  constructor(url: URL | string, options: StreamableHttpClientTransportOptions = {}) {
    this.#url = new URL(url);
    const base = transportFetch(options.fetch, options.requestInit);
    // While the provider authorizes, the session's request timeouts wait (a login is not a silent server).
    const onAuthorizing = (active: boolean): void => this.#sink()?.onAuthorizing?.(active);
    this.#fetch = options.authProvider === undefined ? base : authMiddleware(options.authProvider, { onAuthorizing })(base);
    // The legacy fallback builds its transport from the options: it gets the authorized fetch too.
    this.#options = options.authProvider === undefined ? options : { ...options, fetch: this.#fetch };
    this.#exchange = postExchange(this.#url, options, this.#fetch);
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
      sessionExpired: (sessionId) => this.#expire(sessionId),
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

  /** How many times a session the server forgot was replaced by a new one (a new session id issued after the 404). */
  get sessionRecoveries(): number {
    return this.#recoveryCount;
  }

  /** Begins delivery to `sink`. No request is made until the first `send()`. */
  async start(sink: TransportSink): Promise<void> {
    if (this.#mode.kind !== 'new') throw new InvalidStateError('StreamableHttpClientTransport was already started', this.#mode.kind);
    this.#mode = { kind: 'streamable', sink };
    if (this.#sessionId !== undefined) this.#accepted(false);
  }

  /** Sends `MCP-Protocol-Version: <version>` on every later request. Called by the session. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
    this.#versionHeader = true;
  }

  /**
   * POSTs one message. Resolves once the server accepted it (202, a JSON body, or the
   * headers of an SSE stream — the stream is then read in the background). Rejects with
   * `SessionExpiredError` when the server forgot the session (404; reported to the sink
   * first), `AuthRequiredError` (`@statemcp/protocol`) on 401/403, {@link ConnectionClosedError}
   * when the transport is closed, {@link TransportError} otherwise.
   */
  async send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
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
        return this.send(message, options);
      case 'streamable':
        break;
    }
    const outcome = await this.#post(message, options?.headers);
    switch (outcome.kind) {
      case 'done':
        return;
      case 'legacyCandidate':
        return this.#fallBackToLegacy(mode.sink, message, outcome.error);
      case 'sessionExpired':
        this.#expire(outcome.sessionId);
        throw new SessionExpiredError(`The server forgot the session (HTTP 404 from ${this.#url.href})`);
    }
  }

  /** Closes the POST of 2026-07-28 request `id`, its cancellation (MCP 2026-07-28 Utilities §Cancellation); false for any other. */
  cancelRequest(id: RequestId): boolean {
    if (!this.#modern.cancel(id)) return false;
    this.#streams.cancelRequest(id);
    return true;
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

  /** A 404 for `staleSessionId`: forgotten and reported once; the machine decides (a sink that cannot run the handshake again: closed). */
  #expire(staleSessionId: string): void {
    if (this.#sessionId !== staleSessionId || this.#mode.kind !== 'streamable') return;
    const sink = this.#mode.sink;
    if (sink.onSessionExpired === undefined) {
      const why = `The server forgot the session and this session cannot run the handshake again (HTTP 404 from ${this.#url.href})`;
      return void this.#closeWith({ initiator: 'error', error: new SessionExpiredError(why) }, false);
    }
    const { replacement, answered } = this.#session;
    this.#forgotten = staleSessionId;
    this.#sessionId = undefined;
    this.#versionHeader = false;
    this.#streams.stopStandalone();
    sink.onSessionExpired({ replacement, answered });
  }

  // ---------------------------------------------------------------------------------------
  // POST

  async #post(message: JsonRpcMessage, extraHeaders: Readonly<Record<string, string>> | undefined): Promise<PostOutcome> {
    // Modern era (the request's `_meta` names a revision with routing headers): no session, routing headers (MCP 2026-07-28 basic/transports/streamable-http).
    const modern = routedVersion(message);
    const sessionId = modern !== undefined ? undefined : this.#sessionId;
    // With no session before the first one or after a 404, a POST opens one (the session's `initialize`).
    const role: PostRole = modern !== undefined ? 'modern' : sessionId === undefined && (!this.#established || this.#forgotten !== undefined) ? 'opening' : 'session';
    const url = this.#url.href;
    const requestIds = requestIdsOf(message);
    // A signal of its own per POST (a shared one would collect a listener per POST in flight); a modern request is cancelled through it.
    const scoped = this.#posts.child();
    const routingHeaders = modern === undefined ? undefined : this.#modern.open(message, requestIds, modern, extraHeaders, scoped);
    let headers: Record<string, string>;
    try {
      const built = postHeaders(this.#options.headers, routingHeaders, sessionId, this.#versionHeader ? this.#protocolVersion : undefined);
      // Fixed headers come back synchronously: no promise hop before the fetch.
      headers = built instanceof Promise ? await built : built;
      this.#assertOpen();
    } catch (error) {
      scoped.release();
      if (modern !== undefined) this.#modern.forget(requestIds);
      throw error;
    }
    let answer: HttpAnswer;
    try {
      answer = await this.#exchange(headers, JSON.stringify(message), scoped);
    } catch (error) {
      scoped.release();
      if (modern !== undefined) this.#modern.forget(requestIds);
      this.#assertOpen();
      throw networkError('POST', url, error);
    }
    try {
      this.#assertOpen();
      const outcome = this.#answer(message, requestIds, answer, sessionId, role, scoped);
      return outcome instanceof Promise ? await outcome : outcome;
    } finally {
      scoped.release();
    }
  }

  /**
   * What the server's answer to one POST means. Synchronous for an SSE answer (the common
   * case: the stream is read in the background), so that answer takes no promise of its own.
   */
  #answer(message: JsonRpcMessage, requestIds: RequestId[], answer: HttpAnswer, sessionId: string | undefined, role: PostRole, scoped: ScopedSignal): PostOutcome | Promise<PostOutcome> {
    if (!answer.ok) return this.#refused(message, answer, sessionId, role === 'opening');
    if (role === 'opening') this.#takeSessionId(answer);
    // The session's own traffic (with or without an id: a stateless server issues none).
    if (role === 'session' && sessionId === this.#sessionId) this.#accepted(requestIds.length > 0);
    const contentType = (answer.header('content-type') ?? '').toLowerCase();
    const isSse = contentType.includes('text/event-stream');
    if (answer.status === 202 || !answer.hasBody || (requestIds.length === 0 && !isSse)) return answer.discard().then(() => DONE);
    if (isSse) {
      this.#streams.consumeRequestStream(answer, requestIds, scoped);
      return DONE;
    }
    if (contentType.includes('application/json')) return this.#readJson(answer, requestIds);
    return this.#unexpected(answer, contentType);
  }

  /**
   * The server accepted a POST on the current session: it knows the session, so its standalone
   * stream opens (once per session); a request accepted proves a replacement session works.
   */
  #accepted(request: boolean): void {
    const session = this.#session;
    if (request) session.answered = true;
    if (session.standalone) return;
    session.standalone = true;
    this.#streams.openStandalone();
  }

  /** A POST the server did not accept (a status other than 2xx). */
  async #refused(message: JsonRpcMessage, answer: HttpAnswer, sessionId: string | undefined, opening: boolean): Promise<PostOutcome> {
    const url = this.#url.href;
    const body = await answer.excerpt();
    const status = answer.status;
    if (status === 404 && sessionId !== undefined) return { kind: 'sessionExpired', sessionId };
    const error = errorForAnswer('POST', url, answer, body);
    const legacyStatus = status === 400 || status === 404 || status === 405;
    if (opening && !this.#established && this.#options.legacyFallback !== false && legacyStatus && !isModernErrorBody(body)) {
      return { kind: 'legacyCandidate', error };
    }
    // A JSON-RPC error response for this very request is an answer, not a failure.
    const errorAnswer = errorAnswerFor(message, body);
    if (errorAnswer !== undefined) {
      this.#deliver(errorAnswer);
      return DONE;
    }
    this.#sink()?.onError?.(error);
    throw error;
  }

  /** A JSON body carrying the answers to the POST's requests (taken out of `requestIds`, this POST's own array). */
  async #readJson(answer: HttpAnswer, requestIds: RequestId[]): Promise<PostOutcome> {
    const text = await readJsonAnswer(answer, this.#options.maxMessageSize, this.#url.href);
    this.#assertOpen();
    if (typeof text === 'string' && text.trim().length > 0) {
      const parsed = parseJson(text);
      if (parsed.ok) this.#deliver(parsed.value, requestIds);
      else this.#sink()?.onMalformed?.(text, parsed.reason);
    }
    if (requestIds.length > 0) this.#undeliverable(requestIds, typeof text === 'string' ? new TransportError(`The JSON response from ${this.#url.href} did not contain the answer to this request`) : text);
    return DONE;
  }

  async #unexpected(answer: HttpAnswer, contentType: string): Promise<PostOutcome> {
    await answer.discard();
    const error = unexpectedContentType('POST', this.#url.href, answer, contentType);
    this.#sink()?.onError?.(error);
    throw error;
  }

  /** The answer to a session-opening POST: the session id it issues, if any (a new session, perhaps replacing a forgotten one). */
  #takeSessionId(answer: HttpAnswer): void {
    this.#established = true;
    const issued = answer.header('mcp-session-id');
    if (issued === null) return;
    if (!SESSION_ID_PATTERN.test(issued)) {
      this.#sink()?.onError?.(new TransportError(`Ignoring a malformed Mcp-Session-Id header: ${JSON.stringify(issued)}`));
      return;
    }
    const previousSessionId = this.#forgotten;
    this.#sessionId = issued;
    this.#forgotten = undefined;
    this.#session = { replacement: previousSessionId !== undefined, answered: false, standalone: false };
    if (previousSessionId === undefined) return;
    this.#recoveryCount++;
    try {
      this.#options.onSessionRecovered?.({ previousSessionId, sessionId: issued });
    } catch {
      // A diagnostics callback must not break the transport.
    }
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

  /** Hands inbound messages to the sink (a batch array is split), taking the answered ids out of `owed`. */
  #deliver(value: unknown, owed?: RequestId[]): void {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (isJsonObject(item) && !('method' in item) && ('result' in item || 'error' in item) && isRequestId(item.id)) {
        if (owed !== undefined) removeId(owed, item.id);
        this.#streams.answered(item.id);
        this.#modern.answered(item.id);
      }
      this.#sink()?.onMessage(item);
    }
  }

  #undeliverable(ids: readonly RequestId[], error: Error): void {
    this.#modern.forget(ids);
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
