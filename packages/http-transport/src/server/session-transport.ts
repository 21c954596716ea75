/**
 * The per-session server Transport of Streamable HTTP (MCP 2025-11-25, Transports §Streamable
 * HTTP). One instance per HTTP session (or per request in stateless mode) is handed to one
 * session runner through the server's `connect` option. It only moves messages; the session's
 * state machine decides everything about the lifecycle.
 *
 * Routing of `send(message, { relatedRequestId })` — each message goes to exactly one
 * stream, never broadcast:
 *
 * ```
 *  response (id = X)            ──▶ the POST that carried request X (SSE event, or JSON body)
 *  message related to request X ──▶ that POST's SSE stream while X is unanswered
 *                                   (JSON mode / no such stream: as if unrelated)
 *  unrelated message            ──▶ the standalone GET stream; while none is open: queued
 *                                   (bounded) and, with an event store, stored for replay
 * ```
 *
 * With an {@link EventStore}, every SSE event gets an id `<stream>:<seq>` and is stored before
 * it is written, so a client can resume a cut stream with `GET` + `Last-Event-ID`. Streams
 * start with a priming event (id, empty data, `retry:`) for clients of 2025-11-25 or later,
 * and {@link StreamableHttpSessionTransport.closeRequestStream} lets a handler end the
 * connection mid-call so the client polls (SSE polling, SEP-1699).
 */
import {
  ConnectionClosedError,
  ErrorCode,
  NoReturnChannelError,
  TransportError,
  type JsonRpcMessage,
  type JsonRpcResponse,
  type RequestId,
  type SendOptions,
  type TransportCloseInfo,
  type TransportSink,
} from '@statemcp/protocol';
import { hasFeature, requestIdInUse } from '@statemcp/protocol/internal';
import { encodeSseEvent, encodeSseRetry } from '../shared/sse-encode.js';
import { appendInTurn, continueStandalone, forgetStreams, replayEnded, replayStream, trackRequests, writeReplayed } from './event-replay.js';
import { HttpErrorCode, emptyResponse, errorResponse, type HttpAnswer } from './http-response.js';
import { flatRandomUuid, flatString } from './flat-string.js';
import { SseConnection } from './sse-connection.js';
import { answerExchange, firstIdInUse, isResponse, jsonAnswerOf, newJsonExchange, newRequestStream, recordJsonResponse, type AcceptedPost, type JsonExchange, type RequestStream } from './session-transport-parts.js';
import type { SessionTransportOptions, SessionTransportSettings, StandaloneStream, StreamableHttpSessionTransport } from './session-transport-parts.js';

export type { AcceptedPost, SessionTransportOptions, SessionTransportSettings, StreamableHttpSessionTransport } from './session-transport-parts.js';

/** @internal The implementation; the public surface is {@link StreamableHttpSessionTransport}. */
export class HttpServerSessionTransport implements StreamableHttpSessionTransport {
  readonly sessionId: string | undefined;
  readonly stateless: boolean;
  /** Stateless: this transport carries one POST and ends with its answer (`Transport.singleExchange`). */
  readonly singleExchange: boolean;
  readonly canSendRequests: boolean;
  readonly #settings: SessionTransportSettings;
  /**
   * What every stream id of the session starts with, whichever instance wrote it (its length
   * and the session id: no session's scope is a prefix of another's); empty when stateless.
   */
  readonly #scope: string;
  /** What follows the scope in this transport's stream ids before their random part (a replica's instance tag). */
  readonly #streamTag: string;
  /** Prefix of every stream id of this transport (ownership check for `Last-Event-ID`); drawn at first use, which a stateless JSON answer never makes. */
  #keyValue: string | undefined;
  #nextStream = 1;
  #sink: TransportSink | undefined;
  #state: 'new' | 'started' | 'closed' = 'new';
  #protocolVersion: string | undefined;
  readonly #routes = new Map<RequestId, RequestStream | JsonExchange>();
  /** The POST streams answered as SSE, by id; made at first use (a JSON answer never makes it). */
  #streams: Map<string, RequestStream> | undefined;
  #pendingJson = 0;
  #standaloneValue: StandaloneStream | undefined;

  readonly requestProtocolVersion: string | undefined;
  /**
   * Stateless requests other than `initialize` belong to a handshake answered on an earlier
   * request: the session starts in Operating at this version (protocol `sessionAssumed`).
   */
  readonly assumedProtocolVersion: string | undefined;
  /** A session taken over from an instance that died: its machine starts in Operating (protocol `sessionAdopted`). */
  readonly adoptedSession: SessionTransportOptions['adopted'];

  constructor(options: SessionTransportOptions) {
    const { sessionId, settings } = options;
    this.sessionId = sessionId;
    this.#scope = sessionId === undefined ? '' : `${sessionId.length}.${sessionId}.`;
    this.#streamTag = options.streamTag ?? '';
    this.stateless = this.singleExchange = sessionId === undefined;
    this.canSendRequests = !this.stateless;
    this.adoptedSession = this.stateless ? undefined : options.adopted;
    this.requestProtocolVersion = this.stateless ? options.requestVersion : undefined;
    this.assumedProtocolVersion = this.stateless && options.carriesInitialize !== true ? options.requestVersion : undefined;
    this.#settings = settings;
  }

  get #key(): string {
    return (this.#keyValue ??= flatString(`${this.#scope}${this.#streamTag}${flatRandomUuid()}`));
  }

  /** The standalone GET stream, made at first use (a stateless transport has none). */
  get #standalone(): StandaloneStream {
    return (this.#standaloneValue ??= { id: `${this.#key}.0`, connection: undefined, chain: Promise.resolve(), queue: [] });
  }

  /** The negotiated version, once the session's machine has fixed it (see {@link setProtocolVersion}). */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /**
   * Called by the session runner when the machine fixes the version (its `negotiated` effect,
   * before the InitializeResult goes out): the transport learns it from the machine, never by
   * reading the result on its way out.
   */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  get closed(): boolean {
    return this.#state === 'closed';
  }

  get started(): boolean {
    return this.#state === 'started';
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.#state === 'closed') throw new ConnectionClosedError('The HTTP session transport is closed');
    if (this.#state === 'started') throw new TransportError('The HTTP session transport is already started');
    this.#sink = sink;
    this.#state = 'started';
  }

  /** True while an HTTP exchange of this session is open (keeps the session from idling out). */
  isBusy(): boolean {
    if (this.#pendingJson > 0 || this.#standaloneValue?.connection?.open === true) return true;
    if (this.#streams !== undefined) for (const stream of this.#streams.values()) if (stream.connection?.open === true) return true;
    return false;
  }

  async send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    if (this.#state === 'closed') throw new ConnectionClosedError('The HTTP session transport is closed');
    if (isResponse(message)) {
      await this.#sendResponse(message);
      return;
    }
    const isRequest = 'id' in message;
    if (isRequest && !this.canSendRequests) {
      throw new NoReturnChannelError('Stateless HTTP has no channel for server-to-client requests');
    }
    let related = options?.relatedRequestId === undefined ? undefined : this.#routes.get(options.relatedRequestId);
    if (related?.kind === 'json' && related.upgradable) related = this.#upgrade(related);
    if (related?.kind === 'sse' && !related.done) {
      await this.#write(related, message);
      return;
    }
    if (this.stateless) return; // nowhere to deliver an unrelated notification; dropped by design
    await this.#writeStandalone(message);
  }

  async #sendResponse(message: JsonRpcResponse): Promise<void> {
    const id = message.id;
    if (id === undefined || id === null) {
      this.#report(new TransportError('Dropped an error response without id: it belongs to no HTTP request'));
      return;
    }
    const route = this.#routes.get(id);
    if (route === undefined) return; // late or unknown: nothing waits for it
    this.#routes.delete(id);
    if (route.kind === 'json') {
      if (recordJsonResponse(route, id, message)) this.#finishJson(route);
      return;
    }
    route.pending.delete(id);
    const last = route.pending.size === 0;
    if (last) route.done = true;
    const written = this.#write(route, message);
    if (last) this.#finishStream(route);
    await written;
  }

  #finishJson(exchange: JsonExchange): void {
    this.#pendingJson--;
    answerExchange(exchange, jsonAnswerOf(exchange));
    this.#afterExchange();
  }

  #finishStream(stream: RequestStream): void {
    stream.chain = stream.chain.then(() => {
      stream.connection?.close();
      stream.connection = undefined;
      this.#streams?.delete(stream.id);
      this.#afterExchange();
    });
  }

  #afterExchange(): void {
    this.#settings.onActivity?.(this);
    if (this.stateless && this.#routes.size === 0) void this.terminate('local', { reason: 'stateless request done' });
  }

  /** Stores (when resumable) and writes one message on a request stream, in order. */
  #write(stream: RequestStream, message: JsonRpcMessage): Promise<void> {
    const store = this.#settings.eventStore;
    const appended = appendInTurn(store, stream.id, message);
    const task = stream.chain.then(async () => {
      const id = await appended();
      const connection = stream.connection;
      if (connection?.open === true) {
        await this.#writeEvent(connection, encodeSseEvent({ id, data: JSON.stringify(message) }), message);
      } else if (store === undefined) {
        this.#lost(message, new TransportError('A message was lost: its SSE stream is disconnected and there is no event store'));
      }
    });
    stream.chain = task.catch((error: unknown) => this.#report(error));
    return task;
  }

  #writeStandalone(message: JsonRpcMessage): Promise<void> {
    const standalone = this.#standalone;
    const appended = appendInTurn(this.#settings.eventStore, standalone.id, message);
    const task = standalone.chain.then(async () => {
      const id = await appended();
      const connection = standalone.connection;
      if (connection?.open === true && (await this.#writeEvent(connection, encodeSseEvent({ id, data: JSON.stringify(message) }), message))) return;
      standalone.queue.push({ id, message });
      if (standalone.queue.length > this.#settings.maxQueuedMessages) {
        const dropped = standalone.queue.shift();
        if (dropped !== undefined) this.#lost(dropped.message, new TransportError('The standalone stream queue is full; dropped its oldest message'));
      }
    });
    standalone.chain = task.catch((error: unknown) => this.#report(error));
    return task;
  }

  /**
   * Takes one POST that passed the HTTP checks: registers its requests' routes, then hands
   * every item to the session. Resolves with the HTTP answer (202, JSON body, or SSE).
   */
  acceptPost(post: AcceptedPost): Promise<HttpAnswer> {
    const sink = this.#sink;
    if (this.#state !== 'started' || sink === undefined) {
      return Promise.resolve(errorResponse(404, HttpErrorCode.SessionNotFound, 'Session not found', { headers: post.headers }));
    }
    const inUse = firstIdInUse(this.#routes, post.requestIds);
    if (inUse !== undefined) {
      return Promise.resolve(errorResponse(400, ErrorCode.InvalidRequest, requestIdInUse(inUse).message, { id: inUse, headers: post.headers }));
    }
    if (post.requestIds.length === 0) {
      this.#deliver(sink, post);
      if (this.stateless) void this.terminate('local', { reason: 'stateless request done' });
      return Promise.resolve(emptyResponse(202, post.headers));
    }
    if (post.mode === 'json' || post.mode === 'auto') {
      return new Promise<HttpAnswer>((resolve) => {
        const exchange = newJsonExchange(post, resolve);
        this.#pendingJson++;
        for (const id of post.requestIds) this.#routes.set(id, exchange);
        if (this.stateless) {
          post.client?.onClientGone(() => void this.terminate('remote', { reason: 'client disconnected' }));
        }
        this.#settings.onActivity?.(this);
        this.#deliver(sink, post);
      });
    }
    const stream = newRequestStream(`${this.#key}.${this.#nextStream++}`, post.requestIds);
    const connection = this.#openConnection(stream, post.headers);
    stream.connection = connection;
    (this.#streams ??= new Map()).set(stream.id, stream);
    for (const id of post.requestIds) this.#routes.set(id, stream);
    trackRequests(this.#settings, stream.id, post.requestIds, (error) => this.#report(error));
    this.#prime(stream, post.version);
    this.#settings.onActivity?.(this);
    this.#deliver(sink, post);
    return Promise.resolve(connection);
  }

  /**
   * Mode `auto`: a notification related to the request comes before its answer, so the answer
   * becomes an SSE stream (200) carrying the notification, then the response.
   */
  #upgrade(exchange: JsonExchange): RequestStream {
    exchange.upgradable = false;
    this.#pendingJson--;
    const stream = newRequestStream(`${this.#key}.${this.#nextStream++}`, []);
    for (let i = 0; i < exchange.order.length; i++) {
      const id = exchange.order[i] as RequestId;
      if (exchange.responses[i] !== undefined) continue;
      stream.pending.add(id);
      this.#routes.set(id, stream);
    }
    stream.connection = this.#openConnection(stream, exchange.headers);
    (this.#streams ??= new Map()).set(stream.id, stream);
    // A batch's responses that came before the notification go first (a failed write is reported on the chain).
    for (const response of exchange.responses) if (response !== undefined) this.#write(stream, response).catch(() => undefined);
    exchange.resolve(stream.connection);
    return stream;
  }

  #deliver(sink: TransportSink, post: AcceptedPost): void {
    for (const message of post.messages) {
      try {
        sink.onMessage(message, post.context);
      } catch (error) {
        this.#report(error);
      }
    }
  }

  /**
   * Writes one event on a connection, waiting while it is full (backpressure on the sender).
   * Returns false when the connection was already gone and nothing was written.
   */
  async #writeEvent(connection: SseConnection, block: string, message: JsonRpcMessage): Promise<boolean> {
    const outcome = await connection.send(block);
    if (outcome === 'abandoned') {
      const stalled = `Closed an SSE stream whose client stopped reading for ${this.#settings.stalledStreamTimeoutMs} ms`;
      if (this.#settings.eventStore === undefined) this.#lost(message, new TransportError(`${stalled}; its unread events are lost (no event store)`));
      else this.#report(new TransportError(`${stalled}; the client can resume it with Last-Event-ID`));
    }
    return outcome !== 'closed';
  }

  /**
   * A message that will never reach the client. A server-to-client request is reported to the
   * session as undeliverable (it settles the request with a local error rather than wait for
   * its timeout); anything else is reported as a transport error.
   */
  #lost(message: JsonRpcMessage, error: Error): void {
    if ('method' in message && 'id' in message && this.#sink?.onUndeliverable !== undefined) this.#sink.onUndeliverable([message.id], error);
    else this.#report(error);
  }

  #openConnection(stream: RequestStream | StandaloneStream, headers: Record<string, string>): SseConnection {
    const connection = this.#newConnection(headers, this.#settings.keepAliveIntervalMs);
    connection.onCancel = () => {
      if (stream.connection === connection) stream.connection = undefined;
      this.#settings.onActivity?.(this);
      // Stateless requests cannot be resumed: a cut stream ends the request (and the runner's handlers).
      if (this.stateless) void this.terminate('remote', { reason: 'client disconnected' });
    };
    return connection;
  }

  #newConnection(headers: Record<string, string>, keepAliveMs: number): SseConnection {
    const { clock, maxStreamBufferBytes, stalledStreamTimeoutMs } = this.#settings;
    return new SseConnection({ headers, keepAliveMs, clock, maxBufferedBytes: maxStreamBufferBytes, stalledTimeoutMs: stalledStreamTimeoutMs });
  }

  /** Priming event: an id with empty data (and `retry:`), for 2025-11-25+ clients with a store. */
  #prime(stream: RequestStream | StandaloneStream, version: string): void {
    const store = this.#settings.eventStore;
    if (store === undefined || !hasFeature(version, 'ssePriming')) return;
    const connection = stream.connection;
    const appended = appendInTurn(store, stream.id, undefined);
    const task = stream.chain.then(async () => {
      const id = await appended();
      connection?.write(encodeSseEvent({ id, data: '', retry: this.#settings.retryIntervalMs }));
    });
    connection?.holdHead(task);
    stream.chain = task.catch((error: unknown) => this.#report(error));
  }

  /** Opens the standalone GET stream. 409 when one is already open. */
  openStandalone(version: string, headers: Record<string, string>): HttpAnswer {
    if (this.#state !== 'started') return errorResponse(404, HttpErrorCode.SessionNotFound, 'Session not found', { headers });
    const standalone = this.#standalone;
    if (standalone.connection?.open === true) {
      return errorResponse(409, HttpErrorCode.Refused, 'Conflict: only one standalone SSE stream is allowed per session', { headers });
    }
    const connection = this.#openConnection(standalone, headers);
    standalone.connection = connection;
    this.#prime(standalone, version);
    standalone.chain = standalone.chain.then(() => {
      const queued = standalone.queue;
      standalone.queue = [];
      for (const entry of queued) connection.write(encodeSseEvent({ id: entry.id, data: JSON.stringify(entry.message) }));
    });
    this.#settings.onActivity?.(this);
    return connection;
  }

  /**
   * Resumes the stream that `lastEventId` belongs to on a new connection: replays the events
   * after it (only that stream's), then keeps the connection for the stream's later events,
   * or closes it when the stream has already ended.
   */
  async resume(lastEventId: string, headers: Record<string, string>): Promise<HttpAnswer> {
    const store = this.#settings.eventStore;
    if (this.#state !== 'started') return errorResponse(404, HttpErrorCode.SessionNotFound, 'Session not found', { headers });
    const streamId = store?.streamIdOf(lastEventId);
    const own = streamId?.startsWith(`${this.#key}.`) === true;
    // A stream of this session written by an instance that ran it before (cluster failover).
    const inherited = !own && this.#scope !== '' && streamId?.startsWith(this.#scope) === true;
    if (store === undefined || streamId === undefined || !(own || inherited)) {
      return errorResponse(400, ErrorCode.InvalidRequest, 'Last-Event-ID does not name an event of this session', { headers });
    }
    if (inherited && streamId.endsWith('.0') && this.#standalone.connection?.open !== true) {
      const unknown = errorResponse(400, ErrorCode.InvalidRequest, 'Unknown or expired Last-Event-ID', { headers });
      return (await continueStandalone(store, lastEventId, () => this.openStandalone(this.protocolVersion ?? '', headers))) ?? unknown;
    }
    const live: RequestStream | StandaloneStream | undefined = !own ? undefined : streamId === this.#standalone.id ? this.#standalone : this.#streams?.get(streamId);
    if (live === undefined) {
      // The stream already ended (e.g. its result was stored while the client was away), or an
      // instance that died wrote it: its requests left unanswered end with an error, stored once.
      const connection = this.#newConnection(headers, 0);
      const replay = await replayEnded(store, lastEventId, inherited, connection);
      if (replay === undefined) return errorResponse(400, ErrorCode.InvalidRequest, 'Unknown or expired Last-Event-ID', { headers });
      if (replay.truncated) this.#report(new TransportError('Resumed a stream whose older events were evicted; some were lost'));
      return connection;
    }
    let response: SseConnection | undefined;
    let truncated = false;
    const task = live.chain.then(async () => {
      const replay = await replayStream(store, lastEventId);
      if (replay === undefined) return;
      truncated = replay.truncated;
      live.connection?.close();
      const connection = this.#openConnection(live, headers);
      writeReplayed(connection, replay.events);
      if ('queue' in live) live.queue = [];
      if ('done' in live && live.done) connection.close();
      else live.connection = connection;
      response = connection;
    });
    live.chain = task.catch((error: unknown) => this.#report(error));
    await task;
    if (response === undefined) return errorResponse(400, ErrorCode.InvalidRequest, 'Unknown or expired Last-Event-ID', { headers });
    if (truncated) this.#report(new TransportError('Resumed a stream whose older events were evicted; some were lost'));
    this.#settings.onActivity?.(this);
    return response;
  }

  closeRequestStream(requestId: RequestId): boolean {
    const route = this.#routes.get(requestId);
    if (route?.kind !== 'sse') return false;
    return this.#closeForPolling(route);
  }

  closeStandaloneStream(): boolean {
    return this.#closeForPolling(this.#standalone);
  }

  #closeForPolling(stream: RequestStream | StandaloneStream): boolean {
    const connection = stream.connection;
    if (this.#settings.eventStore === undefined || connection?.open !== true) return false;
    stream.connection = undefined;
    const retry = this.#settings.retryIntervalMs;
    stream.chain = stream.chain.then(() => {
      if (retry !== undefined) connection.write(encodeSseRetry(retry));
      connection.close();
      this.#settings.onActivity?.(this);
    });
    return true;
  }

  async close(): Promise<void> {
    await this.terminate('local');
  }

  async terminate(initiator: TransportCloseInfo['initiator'] = 'local', details?: Record<string, unknown>): Promise<void> {
    if (this.#state === 'closed') return;
    const wasStarted = this.#state === 'started';
    this.#state = 'closed';
    const seen = new Set<RequestStream | JsonExchange>();
    for (const route of this.#routes.values()) {
      if (seen.has(route)) continue;
      seen.add(route);
      if (route.kind === 'json') {
        this.#pendingJson--;
        answerExchange(route, errorResponse(404, HttpErrorCode.SessionClosed, 'The session was closed before the request was answered'));
      }
    }
    this.#routes.clear();
    for (const stream of this.#streams?.values() ?? []) stream.connection?.close();
    this.#streams?.clear();
    if (this.#standaloneValue !== undefined) {
      this.#standaloneValue.connection?.close();
      this.#standaloneValue.queue = [];
    }
    if (this.#keyValue !== undefined) forgetStreams(this.#settings.eventStore, this.#keyValue, this.#nextStream);
    this.#settings.onClosed?.(this);
    if (wasStarted) {
      const info: TransportCloseInfo = { initiator };
      if (details !== undefined) info.details = details;
      this.#sink?.onClose(info);
    }
  }

  #report(error: unknown): void {
    const asError = error instanceof Error ? error : new TransportError(String(error));
    try {
      this.#sink?.onError?.(asError);
    } catch {
      // a sink that throws from onError has nowhere else to go
    }
  }
}
