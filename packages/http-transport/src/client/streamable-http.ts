/**
 * The client side of Streamable HTTP (protocol revisions 2025-03-26 … 2025-11-25, digest
 * §5.2), over `fetch`.
 *
 * What it does, in the order a connection meets it:
 * - every message is its own POST with `Accept: application/json, text/event-stream`;
 *   202, JSON and SSE answers are all handled (checklist rules 62–64);
 * - the session id is taken only from the response to `initialize` and echoed on every
 *   later POST, GET and DELETE; `MCP-Protocol-Version` is sent once the session has called
 *   {@link StreamableHttpClientTransport.setProtocolVersion} (rules 70, 71, 75);
 * - after `notifications/initialized` it opens the standalone GET stream (405 = the server
 *   offers none) (rule 67);
 * - a cut SSE stream is resumed with GET + `Last-Event-ID`, waiting exactly the server's
 *   `retry:` when it sent one, else backing off exponentially with jitter; the attempt
 *   counter survives reconnections and is reset only by progress, so a stream that keeps
 *   failing ends as `dead` with a typed error instead of looping (rules 81, 83; lesson 14);
 * - a 404 for a session-bound request clears the session, replays the remembered
 *   `initialize` + `notifications/initialized` once, and retries the message; a second 404
 *   closes the transport (rule 73; lesson 13);
 * - an `initialize` POST refused with 400/404/405 falls back to the legacy HTTP+SSE
 *   transport (rule 84, digest §5.4);
 * - `close()` DELETEs the session (405 and failures tolerated, bounded by a timer) and
 *   aborts every stream (rule 74).
 *
 * When a POST's SSE stream ends before the response to its request and cannot be resumed
 * (it carried no event id, resumption was refused, or reconnection gave up), the transport
 * hands the session a **synthesized** JSON-RPC error response for that request id:
 * code -32603, `data: { source: 'transport', reason }`. That settles the request through
 * the session's normal path (no session-side special case, no hang); `data.source`
 * tells it apart from a server-sent error. A {@link TransportError} also goes to
 * `sink.onError` for diagnostics.
 */
import { defaultFetch } from './node-http-fetch.js';
import {
  ConnectionClosedError,
  ErrorCode,
  InvalidStateError,
  TransportError,
  isJsonObject,
  isRequestId,
  parseJson,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
  type Transport,
  type TransportCloseInfo,
  type TransportSink,
} from '@statemcp/protocol';

import { AbortScope } from './abort-scope.js';
import { HttpResponseError, briefly, errorForStatus, networkError, readBodyExcerpt } from './http-errors.js';
import {
  ReconnectTracker,
  resolveReconnectOptions,
  type ReconnectOptions,
  type ResolvedReconnectOptions,
} from './reconnect.js';
import { buildHeaders, type HeadersOption } from './request-headers.js';
import { SseClientTransport } from './sse-client.js';
import { systemClock, type TransportClock } from '../shared/clock.js';
import { SseParser, readSseStream } from '../shared/sse-parse.js';

const ACCEPT_BOTH = 'application/json, text/event-stream';
const SESSION_ID_PATTERN = /^[\x21-\x7e]+$/;
/** Modern-era (2026-07-28) error codes: a 400 carrying one comes from a modern server, not a legacy one. */
const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);

/** Options of {@link StreamableHttpClientTransport}. */
export interface StreamableHttpClientTransportOptions {
  /**
   * The `fetch` to use. Defaults to `nodeHttpFetch` (`node:http` with keep-alive) on Node when no
   * `requestInit` is given, else the global `fetch`.
   */
  fetch?: typeof fetch;
  /**
   * Extra headers for every request, or a function called before each request (for a
   * bearer token that may be refreshed). The transport's own headers win on conflict.
   */
  headers?: HeadersOption;
  /** Extra `fetch` options (credentials, dispatcher, …) for every request. */
  requestInit?: Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal'>;
  /**
   * Rejoin an existing session: the id is sent from the first request on and the standalone
   * GET stream opens at `start()`.
   */
  sessionId?: string;
  /** Reconnection of SSE streams. See {@link ReconnectOptions} for the defaults. */
  reconnect?: ReconnectOptions;
  /** Open the standalone GET stream after initialization. Default true. */
  standaloneStream?: boolean;
  /**
   * Fall back to legacy HTTP+SSE when `initialize` is refused with 400/404/405. Default
   * true: the fallback GETs the same URL. Pass `{ url }` when the server's legacy SSE
   * endpoint lives elsewhere (e.g. `/sse`), or `false` to never fall back.
   */
  legacyFallback?: boolean | { url: URL | string };
  /** How long the replayed `initialize` of a session recovery may take, in ms. Default 30000. */
  reinitializeTimeoutMs?: number;
  /** Upper bound of the DELETE sent by `close()`, in ms. Default 3000. */
  closeTimeoutMs?: number;
  /** Timers; inject a fake clock in tests. */
  clock?: TransportClock;
  /** Randomness for backoff jitter, in `[0, 1)`. Defaults to `Math.random`. */
  random?: () => number;
  /** Diagnostics: the server forgot the session (404) and a new one was established. */
  onSessionRecovered?: (info: SessionRecoveredInfo) => void;
  /** Diagnostics: an SSE stream changed state (connecting, open, reconnecting, dead, …). */
  onStreamStateChange?: (change: StreamStateChange) => void;
}

/** Passed to {@link StreamableHttpClientTransportOptions.onSessionRecovered}. */
export interface SessionRecoveredInfo {
  readonly previousSessionId: string;
  readonly sessionId: string | undefined;
}

/** The state of one SSE stream, as a discriminated union. */
export type StreamState =
  | { readonly kind: 'connecting'; readonly attempt: number }
  | { readonly kind: 'open'; readonly lastEventId: string | undefined }
  | { readonly kind: 'reconnecting'; readonly attempt: number; readonly delayMs: number; readonly lastEventId: string | undefined }
  /** The stream finished normally (a POST stream that delivered its response). */
  | { readonly kind: 'ended' }
  /** The server answered the standalone GET with 405: it offers no such stream. */
  | { readonly kind: 'unsupported' }
  /** Reconnection gave up or was refused; `error` says why. */
  | { readonly kind: 'dead'; readonly error: Error }
  /** The transport closed. */
  | { readonly kind: 'closed' };

/** Passed to {@link StreamableHttpClientTransportOptions.onStreamStateChange}. */
export interface StreamStateChange {
  /** `standalone` for the GET stream; `request` for a POST's response stream. */
  readonly stream: 'standalone' | 'request';
  /** For request streams: the ids of the requests the stream answers. */
  readonly requestIds: readonly RequestId[];
  readonly state: StreamState;
}

/** The transport's own state. */
type Mode =
  | { kind: 'new' }
  | { kind: 'streamable'; sink: TransportSink }
  | { kind: 'fallingBack'; sink: TransportSink; done: Promise<void> }
  | { kind: 'legacy'; sink: TransportSink; legacy: SseClientTransport }
  | { kind: 'closing'; sink: TransportSink | undefined; done: Promise<void> }
  | { kind: 'closed' };

/** One SSE stream: a POST's response stream (and its resumptions) or the standalone GET. */
interface StreamRecord {
  readonly role: 'standalone' | 'request';
  /** Requests whose responses this stream still owes. */
  readonly pending: Set<RequestId>;
  readonly requestIds: readonly RequestId[];
  readonly tracker: ReconnectTracker;
  lastEventId: string | undefined;
  controller: AbortController;
  timer: unknown;
  state: StreamState;
}

/** What one POST attempt came to, before any recovery. */
type PostOutcome =
  | { kind: 'done' }
  | { kind: 'sessionExpired'; sessionId: string }
  | { kind: 'legacyCandidate'; error: Error };

interface InternalWaiter {
  resolve(response: Record<string, unknown>): void;
  reject(error: Error): void;
}

/**
 * Streamable HTTP client transport.
 *
 * @example
 * ```ts
 * import { Client } from '@statemcp/client';
 * import { StreamableHttpClientTransport } from '@statemcp/http-transport';
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
  readonly #reconnect: ResolvedReconnectOptions;
  readonly #clock: TransportClock;
  readonly #random: () => number;
  /** Aborted by close: every in-flight POST and stream listens to it. */
  readonly #lifetime = new AbortController();
  /** The POSTs in flight, aborted together on close. */
  readonly #posts = new AbortScope();
  #mode: Mode = { kind: 'new' };
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  /** The last `initialize` the session sent, replayed when the server forgets the session. */
  #initializeRequest: JsonRpcRequest | undefined;
  /** The `notifications/initialized` the session sent, replayed after that `initialize`. */
  #initializedNotification: JsonRpcNotification | undefined;
  /** A recovery in progress, shared by every request that met the 404. */
  #recovery: Promise<void> | undefined;
  /** True from a recovery until a session-bound request succeeds: a 404 then is final. */
  #recoveredWithoutSuccess = false;
  #recoveryCount = 0;
  /** True once an `initialize` succeeded over Streamable HTTP (no legacy fallback after). */
  #established = false;
  #standalone: StreamRecord | undefined;
  readonly #requestStreams = new Set<StreamRecord>();
  /** Responses the transport itself waits for (the replayed `initialize`), by id. */
  readonly #internalWaiters = new Map<RequestId, InternalWaiter>();

  readonly canSendRequests = true;

  constructor(url: URL | string, options: StreamableHttpClientTransportOptions = {}) {
    this.#url = new URL(url);
    this.#fetch = options.fetch ?? defaultFetch(options.requestInit);
    this.#options = options;
    this.#reconnect = resolveReconnectOptions(options.reconnect);
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    if (options.sessionId !== undefined) {
      if (!SESSION_ID_PATTERN.test(options.sessionId)) throw new RangeError('sessionId must be visible ASCII (0x21-0x7E)');
      this.#sessionId = options.sessionId;
      this.#established = true;
    }
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
    return this.#standalone?.state;
  }

  /** How many times the session was re-established after a 404. */
  get sessionRecoveries(): number {
    return this.#recoveryCount;
  }

  /** Begins delivery to `sink`. No request is made until the first `send()`. */
  async start(sink: TransportSink): Promise<void> {
    if (this.#mode.kind !== 'new') throw new InvalidStateError('StreamableHttpClientTransport was already started', this.#mode.kind);
    this.#mode = { kind: 'streamable', sink };
    if (this.#sessionId !== undefined) this.#openStandalone();
  }

  /** Sends `MCP-Protocol-Version: <version>` on every later request. Called by the session. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  /**
   * POSTs one message. Resolves once the server accepted it (202, a JSON body, or the
   * headers of an SSE stream — the stream is then read in the background). Rejects with
   * {@link AuthRequiredError} on 401/403, {@link ConnectionClosedError} when the session
   * could not be recovered or the transport is closed, {@link TransportError} otherwise.
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
    // Messages sent while a recovery runs wait for the new session id.
    while (this.#recovery !== undefined) await this.#recovery.catch(() => undefined);
    const isInitialize = isRequestWithMethod(message, 'initialize');
    if (isInitialize) this.#initializeRequest = message as JsonRpcRequest;
    if (isNotificationWithMethod(message, 'notifications/initialized')) {
      this.#initializedNotification = message as JsonRpcNotification;
    }

    const first = await this.#post(message);
    switch (first.kind) {
      case 'done':
        return;
      case 'legacyCandidate':
        return this.#fallBackToLegacy(mode.sink, message, first.error);
      case 'sessionExpired':
        break;
    }
    // The server forgot the session (404): re-initialize once, then retry once.
    await this.#recover(first.sessionId);
    if (message === this.#initializedNotification) return; // the recovery re-sent it
    const second = await this.#post(message);
    if (second.kind === 'done') return;
    const error = new ConnectionClosedError(
      `The server answered 404 again after the session was re-established; giving up on ${this.#url.href}`,
      { details: { status: 404 } },
    );
    void this.#closeWith({ initiator: 'error', error }, false);
    throw error;
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
  // POST

  async #post(message: JsonRpcMessage, internal = false): Promise<PostOutcome> {
    const isInitialize = isRequestWithMethod(message, 'initialize');
    const sessionId = isInitialize ? undefined : this.#sessionId;
    const url = this.#url.href;
    const headers = await buildHeaders(this.#options.headers, {
      accept: ACCEPT_BOTH,
      'content-type': 'application/json',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': isInitialize ? undefined : this.#protocolVersion,
    });
    this.#assertOpen();
    // A signal of its own per POST: one shared signal would collect a listener per POST in flight.
    const scoped = this.#posts.child();
    try {
      return await this.#exchange(message, url, headers, scoped.signal, { isInitialize, sessionId, internal });
    } finally {
      scoped.release();
    }
  }

  async #exchange(
    message: JsonRpcMessage,
    url: string,
    headers: Headers | Record<string, string>,
    signal: AbortSignal,
    { isInitialize, sessionId, internal }: { isInitialize: boolean; sessionId: string | undefined; internal: boolean },
  ): Promise<PostOutcome> {
    let response: Response;
    try {
      response = await this.#fetch(url, {
        ...this.#options.requestInit,
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        signal,
      });
    } catch (error) {
      this.#assertOpen();
      throw networkError('POST', url, error);
    }
    this.#assertOpen();

    if (!response.ok) {
      const body = await readBodyExcerpt(response);
      if (response.status === 404 && sessionId !== undefined) return { kind: 'sessionExpired', sessionId };
      const error = errorForStatus('POST', url, response, body);
      if (
        isInitialize &&
        !internal &&
        !this.#established &&
        this.#options.legacyFallback !== false &&
        (response.status === 400 || response.status === 404 || response.status === 405) &&
        !isModernErrorBody(body)
      ) {
        return { kind: 'legacyCandidate', error };
      }
      // A JSON-RPC error response for this very request is an answer, not a failure.
      const answer = errorAnswerFor(message, body);
      if (answer !== undefined) {
        this.#deliver(answer);
        return { kind: 'done' };
      }
      this.#sinkOrUndefined()?.onError?.(error);
      throw error;
    }

    // Only the session's own traffic proves the new session works; the recovery's replayed
    // notifications/initialized does not.
    if (sessionId !== undefined && !internal) this.#recoveredWithoutSuccess = false;
    if (isInitialize) {
      this.#established = true;
      const issued = response.headers.get('mcp-session-id');
      if (issued !== null) {
        if (SESSION_ID_PATTERN.test(issued)) this.#sessionId = issued;
        else this.#sinkOrUndefined()?.onError?.(new TransportError(`Ignoring a malformed Mcp-Session-Id header: ${JSON.stringify(issued)}`));
      } else {
        this.#sessionId = undefined;
      }
    }

    const requestIds = requestIdsOf(message);
    const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
    const isSse = contentType.includes('text/event-stream');
    if (isNotificationWithMethod(message, 'notifications/initialized')) this.#openStandalone();
    if (response.status === 202 || response.body === null || (requestIds.length === 0 && !isSse)) {
      await response.body?.cancel().catch(() => undefined);
      return { kind: 'done' };
    }
    if (isSse) {
      this.#consumeRequestStream(response, requestIds);
      return { kind: 'done' };
    }
    if (contentType.includes('application/json')) {
      const text = await response.text().catch(() => '');
      this.#assertOpen();
      const pending = new Set(requestIds);
      if (text.trim().length > 0) {
        const parsed = parseJson(text);
        if (parsed.ok) this.#deliver(parsed.value, pending);
        else this.#sinkOrUndefined()?.onMalformed?.(text, parsed.reason);
      }
      this.#failUnanswered(pending, 'no-response-in-body', 'The JSON response did not contain the answer to this request');
      return { kind: 'done' };
    }
    await response.body.cancel().catch(() => undefined);
    const error = new TransportError(`POST ${url} answered with an unexpected content-type ${JSON.stringify(contentType)}`, {
      cause: new HttpResponseError('POST', url, response.status, response.statusText, '', undefined),
    });
    this.#sinkOrUndefined()?.onError?.(error);
    throw error;
  }

  // ---------------------------------------------------------------------------------------
  // Session recovery (404)

  async #recover(staleSessionId: string): Promise<void> {
    while (this.#recovery !== undefined) await this.#recovery.catch(() => undefined);
    this.#assertOpen();
    if (this.#sessionId !== staleSessionId) return; // someone else already recovered
    if (this.#recoveredWithoutSuccess) {
      const error = new ConnectionClosedError(
        `The server answered 404 for the session established by the last recovery; giving up on ${this.#url.href}`,
        { details: { status: 404 } },
      );
      void this.#closeWith({ initiator: 'error', error }, false);
      throw error;
    }
    const recovery = this.#reinitialize(staleSessionId);
    this.#recovery = recovery;
    try {
      await recovery;
    } finally {
      this.#recovery = undefined;
    }
  }

  async #reinitialize(staleSessionId: string): Promise<void> {
    const initialize = this.#initializeRequest;
    if (initialize === undefined) {
      const error = new ConnectionClosedError('The server forgot the session (404) and there is no initialize request to replay', {
        details: { status: 404 },
      });
      void this.#closeWith({ initiator: 'error', error }, false);
      throw error;
    }
    this.#sessionId = undefined;
    this.#stopStandalone();
    const id = `statemcp-reinitialize-${++this.#recoveryCount}`;
    try {
      const answered = new Promise<Record<string, unknown>>((resolve, reject) => this.#internalWaiters.set(id, { resolve, reject }));
      answered.catch(() => undefined);
      const outcome = await this.#post({ ...initialize, id }, true);
      if (outcome.kind !== 'done') throw new TransportError(`Re-initialization was refused (${outcome.kind})`);
      const timeoutMs = this.#options.reinitializeTimeoutMs ?? 30_000;
      const timer = this.#clock.setTimeout(() => {
        this.#internalWaiters.get(id)?.reject(new TransportError(`No answer to the replayed initialize within ${timeoutMs} ms`));
      }, timeoutMs);
      let response: Record<string, unknown>;
      try {
        response = await answered;
      } finally {
        this.#clock.clearTimeout(timer);
      }
      if (!isJsonObject(response.result)) {
        const detail = isJsonObject(response.error) ? String(response.error.message) : 'no result';
        throw new TransportError(`Re-initialization failed: ${detail}`);
      }
      const version = response.result.protocolVersion;
      if (typeof version === 'string' && this.#protocolVersion !== undefined) this.#protocolVersion = version;
      if (this.#initializedNotification !== undefined) {
        const sent = await this.#post(this.#initializedNotification, true);
        if (sent.kind !== 'done') throw new TransportError('notifications/initialized was refused after re-initialization');
      }
    } catch (error) {
      this.#internalWaiters.delete(id);
      if (this.#mode.kind === 'closing' || this.#mode.kind === 'closed') throw error;
      const closed = new ConnectionClosedError(
        `The session expired (404) and could not be re-established: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error, details: { status: 404 } },
      );
      void this.#closeWith({ initiator: 'error', error: closed }, false);
      throw closed;
    }
    this.#internalWaiters.delete(id);
    this.#recoveredWithoutSuccess = true;
    try {
      this.#options.onSessionRecovered?.({ previousSessionId: staleSessionId, sessionId: this.#sessionId });
    } catch {
      // A diagnostics callback must not break the transport.
    }
  }

  // ---------------------------------------------------------------------------------------
  // Legacy HTTP+SSE fallback

  async #fallBackToLegacy(sink: TransportSink, initialize: JsonRpcMessage, refusal: Error): Promise<void> {
    const fallback = this.#options.legacyFallback;
    const legacyUrl = typeof fallback === 'object' ? new URL(fallback.url, this.#url) : this.#url;
    const legacy = new SseClientTransport(legacyUrl, {
      ...(this.#options.fetch !== undefined && { fetch: this.#options.fetch }),
      ...(this.#options.headers !== undefined && { headers: this.#options.headers }),
      ...(this.#options.requestInit !== undefined && { requestInit: this.#options.requestInit }),
      ...(this.#options.clock !== undefined && { clock: this.#options.clock }),
    });
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.#mode = { kind: 'fallingBack', sink, done };
    try {
      await legacy.start({
        onMessage: (value, context) => sink.onMessage(value, context),
        onMalformed: (text, reason) => sink.onMalformed?.(text, reason),
        onError: (error) => sink.onError?.(error),
        onClose: (info) => void this.#closeWith(info, false),
      });
    } catch (error) {
      if (this.#mode.kind === 'fallingBack') this.#mode = { kind: 'streamable', sink };
      finish();
      throw new TransportError(
        `initialize was refused (${refusal.message}) and the legacy HTTP+SSE fallback failed too (${briefly(error)})`,
        { cause: error },
      );
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
  // SSE streams

  #newRecord(role: 'standalone' | 'request', requestIds: readonly RequestId[]): StreamRecord {
    return {
      role,
      pending: new Set(requestIds),
      requestIds,
      tracker: new ReconnectTracker(this.#reconnect, this.#random),
      lastEventId: undefined,
      controller: new AbortController(),
      timer: undefined,
      state: { kind: 'connecting', attempt: 0 },
    };
  }

  #setState(record: StreamRecord, state: StreamState): void {
    record.state = state;
    try {
      this.#options.onStreamStateChange?.({ stream: record.role, requestIds: record.requestIds, state });
    } catch {
      // A diagnostics callback must not break the transport.
    }
  }

  #consumeRequestStream(response: Response, requestIds: readonly RequestId[]): void {
    const record = this.#newRecord('request', requestIds);
    this.#requestStreams.add(record);
    this.#setState(record, { kind: 'open', lastEventId: undefined });
    void this.#readStream(record, response);
  }

  #openStandalone(): void {
    if (this.#options.standaloneStream === false) return;
    if (this.#mode.kind !== 'streamable') return;
    const current = this.#standalone;
    if (current !== undefined && (current.state.kind === 'open' || current.state.kind === 'connecting' || current.state.kind === 'reconnecting')) {
      return;
    }
    const record = this.#newRecord('standalone', []);
    this.#standalone = record;
    void this.#connectGet(record);
  }

  #stopStandalone(): void {
    const record = this.#standalone;
    if (record === undefined) return;
    this.#standalone = undefined;
    this.#clock.clearTimeout(record.timer);
    record.controller.abort();
  }

  /** GET the endpoint: the standalone stream, or a resumption (`Last-Event-ID`). */
  async #connectGet(record: StreamRecord): Promise<void> {
    if (!this.#isLive(record)) return;
    this.#setState(record, { kind: 'connecting', attempt: record.tracker.attempts });
    const url = this.#url.href;
    const sessionId = this.#sessionId;
    let response: Response;
    try {
      const headers = await buildHeaders(this.#options.headers, {
        accept: 'text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': this.#protocolVersion,
        'last-event-id': record.lastEventId,
      });
      if (!this.#isLive(record)) return;
      response = await this.#fetch(url, {
        ...this.#options.requestInit,
        method: 'GET',
        headers,
        signal: AbortSignal.any([this.#lifetime.signal, record.controller.signal]),
      });
    } catch (error) {
      if (!this.#isLive(record)) return;
      this.#retryOrDie(record, networkError('GET', url, error));
      return;
    }
    if (!this.#isLive(record)) {
      await response.body?.cancel().catch(() => undefined);
      return;
    }
    if (!response.ok) {
      const body = await readBodyExcerpt(response);
      const error = errorForStatus('GET', url, response, body);
      if (response.status === 405 && record.role === 'standalone') {
        this.#setState(record, { kind: 'unsupported' });
        return;
      }
      if (response.status === 404 && sessionId !== undefined) {
        if (record.role === 'standalone' && !this.#recoveredWithoutSuccess) {
          // The session is gone. Recover in the background; the replayed
          // notifications/initialized reopens the stream. (Right after a recovery, a 404
          // here means the server will not serve this stream: it dies instead of looping.)
          this.#standalone = undefined;
          this.#setState(record, { kind: 'dead', error });
          this.#recover(sessionId).catch(() => undefined);
          return;
        }
        this.#die(record, error, 'session-expired');
        return;
      }
      if (response.status === 401 || response.status === 403 || response.status === 405 || response.status === 400) {
        this.#die(record, error, 'resume-refused');
        return;
      }
      this.#retryOrDie(record, error);
      return;
    }
    const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
    if (!contentType.includes('text/event-stream') || response.body === null) {
      await response.body?.cancel().catch(() => undefined);
      this.#die(record, new TransportError(`GET ${url} did not answer with an SSE stream (content-type ${JSON.stringify(contentType)})`), 'resume-refused');
      return;
    }
    if (sessionId !== undefined) this.#recoveredWithoutSuccess = false;
    this.#setState(record, { kind: 'open', lastEventId: record.lastEventId });
    await this.#readStream(record, response);
  }

  /** Reads one connection of a stream, then decides: done, reconnect, or fail. */
  async #readStream(record: StreamRecord, response: Response): Promise<void> {
    const body = response.body;
    if (body === null) return;
    // A request stream is complete once every response it owed has arrived; reading stops
    // there even if the server keeps the connection open.
    const complete = new AbortController();
    const parser = new SseParser(
      {
        onEvent: (event) => {
          record.tracker.progress();
          if (event.type !== 'message' || event.data.length === 0) return;
          const parsed = parseJson(event.data);
          if (parsed.ok) this.#deliver(parsed.value);
          else this.#sinkOrUndefined()?.onMalformed?.(event.data, parsed.reason);
          if (record.role === 'request' && record.pending.size === 0) complete.abort();
        },
        onLastEventId: (id) => {
          record.lastEventId = id;
          record.tracker.progress();
        },
        onRetry: (ms) => {
          record.tracker.serverRetryMs = ms;
        },
      },
      record.lastEventId !== undefined ? { lastEventId: record.lastEventId } : undefined,
    );
    let failure: Error | undefined;
    try {
      await readSseStream(body, parser, AbortSignal.any([this.#lifetime.signal, record.controller.signal, complete.signal]));
    } catch (error) {
      if (!complete.signal.aborted) {
        const reason = error instanceof Error ? error.message : String(error);
        failure = new TransportError(`The SSE stream from ${this.#url.href} broke: ${reason}`, { cause: error });
      }
    }
    if (!this.#isLive(record)) return;
    if (record.role === 'request' && record.pending.size === 0) {
      this.#requestStreams.delete(record);
      this.#setState(record, { kind: 'ended' });
      return;
    }
    if (record.role === 'request' && record.lastEventId === undefined) {
      this.#die(record, failure ?? new TransportError('The SSE stream ended before the response and carried no event id to resume from'), 'stream-ended');
      return;
    }
    this.#retryOrDie(record, failure);
  }

  #retryOrDie(record: StreamRecord, error: Error | undefined): void {
    const next = record.tracker.next();
    if (next === undefined) {
      const reason = error?.message ?? 'the stream kept closing';
      this.#die(
        record,
        new TransportError(`SSE stream reconnection gave up after ${this.#reconnect.maxRetries} attempts: ${reason}`, { cause: error }),
        'reconnect-exhausted',
      );
      return;
    }
    this.#setState(record, { kind: 'reconnecting', attempt: next.attempt, delayMs: next.delayMs, lastEventId: record.lastEventId });
    record.timer = this.#clock.setTimeout(() => {
      record.timer = undefined;
      void this.#connectGet(record);
    }, next.delayMs);
  }

  /** A stream that cannot continue: report it, and fail the requests it still owed. */
  #die(record: StreamRecord, error: Error, reason: string): void {
    this.#clock.clearTimeout(record.timer);
    this.#requestStreams.delete(record);
    this.#setState(record, { kind: 'dead', error });
    this.#sinkOrUndefined()?.onError?.(error);
    this.#failUnanswered(record.pending, reason, `The SSE stream for this request ended before its response arrived (${error.message})`);
  }

  #isLive(record: StreamRecord): boolean {
    if (record.controller.signal.aborted) return false;
    return this.#mode.kind === 'streamable' || this.#mode.kind === 'fallingBack';
  }

  // ---------------------------------------------------------------------------------------
  // Delivery

  /**
   * Hands inbound messages to the sink (a batch array is split), noting responses so the
   * streams that owed them know they are done. Responses to the transport's own replayed
   * `initialize` are swallowed.
   */
  #deliver(value: unknown, answered?: Set<RequestId>): void {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (isJsonObject(item) && !('method' in item) && ('result' in item || 'error' in item) && isRequestId(item.id)) {
        const id = item.id;
        answered?.delete(id);
        for (const record of this.#requestStreams) record.pending.delete(id);
        const waiter = this.#internalWaiters.get(id);
        if (waiter !== undefined) {
          this.#internalWaiters.delete(id);
          waiter.resolve(item);
          continue;
        }
      }
      this.#sinkOrUndefined()?.onMessage(item);
    }
  }

  #failUnanswered(ids: Set<RequestId>, reason: string, message: string): void {
    for (const id of [...ids]) {
      const synthesized: JsonRpcErrorResponse = {
        jsonrpc: '2.0',
        id,
        error: { code: ErrorCode.InternalError, message, data: { source: 'transport', reason } },
      };
      this.#deliver(synthesized, ids);
    }
  }

  #sinkOrUndefined(): TransportSink | undefined {
    const mode = this.#mode;
    switch (mode.kind) {
      case 'streamable':
      case 'fallingBack':
      case 'legacy':
        return mode.sink;
      case 'new':
      case 'closing':
      case 'closed':
        return undefined;
    }
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
      const standalone = this.#standalone;
      if (standalone !== undefined) {
        this.#clock.clearTimeout(standalone.timer);
        standalone.controller.abort();
        standalone.state = { kind: 'closed' };
      }
      for (const record of this.#requestStreams) {
        this.#clock.clearTimeout(record.timer);
        record.controller.abort();
        record.state = { kind: 'closed' };
      }
      this.#requestStreams.clear();
      for (const waiter of this.#internalWaiters.values()) waiter.reject(new ConnectionClosedError('The Streamable HTTP transport is closed'));
      this.#internalWaiters.clear();
      try {
        if (legacy !== undefined) await legacy.terminate();
        else if (deleteSession && sessionId !== undefined) await this.#deleteSession(sessionId);
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

  /** DELETE the session; 405, errors and slowness are all tolerated. */
  async #deleteSession(sessionId: string): Promise<void> {
    const controller = new AbortController();
    const timer = this.#clock.setTimeout(() => controller.abort(), this.#options.closeTimeoutMs ?? 3000);
    try {
      const headers = await buildHeaders(this.#options.headers, {
        'mcp-session-id': sessionId,
        'mcp-protocol-version': this.#protocolVersion,
      });
      const response = await Promise.race([
        this.#fetch(this.#url.href, { ...this.#options.requestInit, method: 'DELETE', headers, signal: controller.signal }),
        new Promise<never>((_, reject) => {
          controller.signal.addEventListener('abort', () => reject(new Error('DELETE timed out')), { once: true });
        }),
      ]);
      await response.body?.cancel().catch(() => undefined);
    } catch {
      // Best effort: the server reaps idle sessions anyway.
    } finally {
      this.#clock.clearTimeout(timer);
    }
  }
}

function isRequestWithMethod(message: JsonRpcMessage, method: string): boolean {
  return 'method' in message && 'id' in message && message.method === method;
}

function isNotificationWithMethod(message: JsonRpcMessage, method: string): boolean {
  return 'method' in message && !('id' in message) && message.method === method;
}

/** Ids of the requests in a message (one request, or requests inside a 2025-03-26 batch). */
function requestIdsOf(message: JsonRpcMessage | readonly JsonRpcMessage[]): RequestId[] {
  const items: readonly unknown[] = Array.isArray(message) ? message : [message];
  const ids: RequestId[] = [];
  for (const item of items) {
    if (isJsonObject(item) && typeof item.method === 'string' && isRequestId(item.id)) ids.push(item.id);
  }
  return ids;
}

/** A 400 body that is a modern-era JSON-RPC error means "modern server": no fallback (digest §5.4). */
function isModernErrorBody(body: string): boolean {
  const parsed = parseJson(body);
  if (!parsed.ok || !isJsonObject(parsed.value)) return false;
  const error = parsed.value.error;
  return isJsonObject(error) && typeof error.code === 'number' && MODERN_ERROR_CODES.has(error.code);
}

/** The body of a refused POST, when it is a JSON-RPC error response to the posted request. */
function errorAnswerFor(message: JsonRpcMessage, body: string): Record<string, unknown> | undefined {
  if (!('id' in message) || !('method' in message)) return undefined;
  const parsed = parseJson(body);
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  const value = parsed.value;
  if (value.id !== message.id || !isJsonObject(value.error)) return undefined;
  return value;
}
