/**
 * Requests served without a session. In the stateless era (MCP 2026-07-28, Basic
 * §Statelessness; Transports §Streamable HTTP) each request carries its version, the client's
 * capabilities and its identity in its own `_meta`, and a transport that carries one exchange
 * (`Transport.singleExchange`: one POST of stateless Streamable HTTP) ends with its answer.
 * Nothing of a connection is needed to serve it: no handshake, no lifecycle to drive, nothing
 * kept for a later request. {@link StatelessDispatcher} is built once per server from the
 * options its sessions share; each exchange gets one {@link StatelessExchange}, which is the
 * transport's sink and the inbound dispatcher's host.
 *
 * Nothing is decided twice: the connection machine's rule for a modern request is
 * `modernRequestRule` (the Operating(modern) row applies the same function), and everything
 * after it — method policy, custom methods, params validation, the handler in its ledger record
 * and middleware, results, errors, progress, cancellation — is the session's own
 * `InboundDispatcher`; notifications go out through `notifyPastGate`, as a session's do.
 *
 * ```
 * transport.start(exchange) → request ─ modernRequestRule ─▶ reject: its error (-32601 initialize, -32022 version)
 *                                     └─ accept ─▶ InboundDispatcher (policy → -32601, params → -32602,
 *                                                  handler + middleware → result or error)
 * the transport closes first (client gone) ─▶ the handler's signal aborts, no reply
 * ```
 */
import { ConnectionClosedError, InvalidStateError } from '../errors/errors.js';
import type { JsonObject, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, RequestId } from '../jsonrpc/messages.js';
import { PER_REQUEST_PEER, modernOutboundRefusal, modernRequestRule } from '../machines/connection-modern.js';
import { rejectInbound } from '../machines/connection-steps.js';
import type { ConnectionConfig, ConnectionEffect, ConnectionEvent, ConnectionState, ConnectionStateKind, PeerInfo } from '../machines/connection-types.js';
import { revisionFor } from '../revisions/resolve-version.js';
import type { Revision } from '../revisions/types.js';
import type { InboundContext, Transport, TransportCloseInfo, TransportSink } from '../transport/transport.js';
import { systemClock, type Clock } from './clock.js';
import { InboundDispatcher, sharedRequestHandler, type InboundHost } from './inbound.js';
import { RequestLedger } from './ledger.js';
import { SessionObserver } from './observer.js';
import type { CloseInfo, NotificationHandler, NotificationOptions, RequestHandler, RequestOptions, SessionOptions } from './options.js';
import { notifyPastGate } from './outbound-notify.js';
import { connectionConfigOf, defaultSupportedVersions, versionListsOf } from './session-versions.js';

/** The gate's answer to an accepted message: one frozen list for every exchange. */
const ACCEPTED: readonly ConnectionEffect[] = [{ type: 'accept' }];
const NONE: readonly ConnectionEffect[] = [];

/**
 * Serves the single exchanges of a server's stateless transports (see the file header). Built
 * once from the options every session of the server shares; {@link StatelessDispatcher.serves}
 * says which transports it takes, {@link StatelessDispatcher.connect} serves one.
 *
 * @example
 * ```ts
 * const dispatcher = new StatelessDispatcher({ role: 'server', capabilities: () => ({ tools: {} }), handlers });
 * if (dispatcher.serves(transport)) await dispatcher.connect(transport);
 * else await new Session(options).connect(transport);
 * ```
 */
export class StatelessDispatcher {
  readonly #options: SessionOptions;
  /** The stateless versions this side serves, newest first. */
  readonly #served: readonly string[];
  readonly clock: Clock;
  readonly observer: SessionObserver;
  /** The connection machine's config for this server (what an exchange's `connectionState` names). */
  readonly config: ConnectionConfig;

  constructor(options: SessionOptions, label = 'stateless') {
    if (options.role !== 'server') throw new InvalidStateError('Only a server serves requests without a session', 'uninitialized');
    this.#options = options;
    const versions = versionListsOf(options.supportedVersions ?? defaultSupportedVersions('server'));
    this.#served = versions.modern;
    this.config = connectionConfigOf(versions, 'server', options.strictInitialized ?? false);
    this.clock = options.clock ?? systemClock;
    this.observer = new SessionObserver(label, this.clock, options.inspect);
  }

  /** The stateless versions served, newest first. */
  get served(): readonly string[] {
    return this.#served;
  }

  /** True when `transport` carries one exchange at a stateless version this side serves. */
  serves(transport: Transport): boolean {
    const version = transport.assumedProtocolVersion;
    return transport.singleExchange === true && version !== undefined && this.#served.includes(version);
  }

  /**
   * Serves the one exchange of `transport` (which {@link serves} accepted): starts it with a
   * fresh {@link StatelessExchange} as its sink. `options` are this exchange's (their
   * `handlers` answer its requests), by default the dispatcher's.
   */
  connect(transport: Transport, options: SessionOptions = this.#options): Promise<void> {
    return transport.start(this.exchange(transport, options));
  }

  /** The exchange that will serve `transport` (the caller starts the transport with it as its sink). Throws when {@link serves} would not take it. */
  exchange(transport: Transport, options: SessionOptions = this.#options): StatelessExchange {
    const version = transport.assumedProtocolVersion;
    if (version === undefined || !this.#served.includes(version)) {
      throw new InvalidStateError(`This transport carries no stateless exchange this server serves (${String(version)})`, 'uninitialized');
    }
    return new StatelessExchange(this, options, transport, version);
  }
}

/**
 * One exchange served without a session: the transport's sink, and the host of the
 * `InboundDispatcher` that answers its request at the version the request states.
 */
export class StatelessExchange implements InboundHost, TransportSink {
  readonly role = 'server';
  readonly options: SessionOptions;
  readonly ledger: RequestLedger;
  readonly inbound: InboundDispatcher;
  readonly outbound: InboundHost['outbound'];
  readonly #dispatcher: StatelessDispatcher;
  readonly #transport: Transport;
  #version: string;
  #revision: Revision;
  #closed = false;
  #ended: CloseInfo | undefined;
  #onEnded: ((info: CloseInfo) => void) | undefined;
  #endedPromise: Promise<CloseInfo> | undefined;

  constructor(dispatcher: StatelessDispatcher, options: SessionOptions, transport: Transport, version: string) {
    this.#dispatcher = dispatcher;
    this.options = options;
    this.#transport = transport;
    this.#version = version;
    this.#revision = revisionFor(version);
    this.ledger = new RequestLedger({ memory: 0, listener: dispatcher.observer, clock: dispatcher.clock });
    this.outbound = { answers: this };
    this.inbound = new InboundDispatcher(this);
  }

  // ---------------------------------------------------------------- what the dispatch reads

  get clock(): Clock {
    return this.#dispatcher.clock;
  }

  get observer(): SessionObserver {
    return this.#dispatcher.observer;
  }

  get sessionId(): string {
    return 'stateless';
  }

  get transportSessionId(): string | undefined {
    return this.#transport.sessionId;
  }

  get strictCapabilities(): boolean {
    return this.options.strictCapabilities !== false;
  }

  /** The revision the exchange's request is served at. */
  revision(): Revision {
    return this.#revision;
  }

  /** The protocol version the exchange's request is served at (from its `_meta`). */
  protocolVersion(): string {
    return this.#version;
  }

  /** The stateless era's anonymous peer: who the client is travels with each request. */
  peer(): PeerInfo {
    return PER_REQUEST_PEER;
  }

  ownCapabilities(): JsonObject {
    return this.options.capabilities();
  }

  peerCapabilities(): JsonObject {
    return PER_REQUEST_PEER.capabilities;
  }

  /** The connection state the exchange stands for: Operating at its request's version, then Terminated. */
  connectionState(): ConnectionState {
    const config = this.#dispatcher.config;
    if (this.#ended !== undefined) return { kind: 'terminated', config, reason: this.#ended.reason };
    return { kind: 'operating', config, version: this.#version, revision: this.#revision, peer: PER_REQUEST_PEER };
  }

  /** Resolves once, when the exchange has ended (created at first read). */
  get closed(): Promise<CloseInfo> {
    const ended = this.#ended;
    if (ended !== undefined) return (this.#endedPromise ??= Promise.resolve(ended));
    return (this.#endedPromise ??= new Promise<CloseInfo>((resolve) => (this.#onEnded = resolve)));
  }

  /** `operating` while the exchange lasts, `terminated` once it has ended. */
  stateKind(): ConnectionStateKind {
    return this.#closed ? 'terminated' : 'operating';
  }

  canReply(): boolean {
    return !this.#closed;
  }

  isTerminated(): boolean {
    return this.#closed;
  }

  isHoldingBack(): boolean {
    return false;
  }

  /**
   * The gate: an inbound request passes `modernRequestRule` (and is served at the version it
   * names); anything else of an Operating modern connection is accepted while the exchange lasts.
   */
  dispatch(event: ConnectionEvent): readonly ConnectionEffect[] {
    switch (event.type) {
      case 'inboundRequest': {
        if (this.#closed) return [rejectInbound(`Cannot handle ${event.method}: the exchange has ended`)];
        const verdict = modernRequestRule(this.#dispatcher.served, this.#version, this.#revision, event.method, event.declaredVersion);
        if (verdict.kind === 'reject') return [rejectInbound(verdict.message, verdict.code, verdict.data)];
        this.#version = verdict.version;
        this.#revision = verdict.revision;
        return ACCEPTED;
      }
      case 'inboundNotification':
      case 'outboundNotification':
        return ACCEPTED;
      default:
        return NONE;
    }
  }

  /** The server's handler for `method`, shared by every exchange (none: the dispatcher answers -32601). */
  requestHandler(method: string): RequestHandler | undefined {
    return sharedRequestHandler(this.options.handlers, method);
  }

  /** The server's handler for the notification `method`, if it registered one. */
  notificationHandler(method: string): NotificationHandler | undefined {
    return this.options.handlers?.notificationHandler(method);
  }

  /** Never reached: `modernRequestRule` answers `initialize` with -32601. */
  answerInitialize(message: JsonRpcRequest): void {
    this.inbound.replyError(message.id, -32601, 'Method not found: initialize');
  }

  /** Sends `message` on the exchange's transport (the answer of its request, or a notification of it); rejects once the exchange has ended. */
  write(message: JsonRpcMessage, relatedRequestId: RequestId | undefined): Promise<void> {
    if (this.#closed) return Promise.reject(new ConnectionClosedError('The exchange has ended'));
    try {
      this.observer.messageOut(message);
      return this.#transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** A notification of the request (progress, logs, a listen stream's): the session's own checks, then the exchange's stream. */
  notify(method: string, params: JsonObject | undefined, options: NotificationOptions = {}): Promise<void> {
    if (this.#closed) return Promise.reject(new ConnectionClosedError(`Cannot send ${method}: the exchange has ended`));
    return notifyPastGate(this, method, params, options, (message: JsonRpcNotification) => this.write(message, options.relatedRequestId));
  }

  /** A server sends no requests in the stateless era (input comes back as an InputRequiredResult). */
  request(method: string, _params?: JsonObject, _options?: RequestOptions): Promise<JsonObject> {
    return Promise.reject(new InvalidStateError(modernOutboundRefusal(this.#version, method), this.stateKind()));
  }

  /** Ends the exchange (its transport closes; a handler still running is aborted, nothing more is written). */
  close(): Promise<void> {
    return this.#transport.close();
  }

  // ---------------------------------------------------------------- answers to requests never sent

  /** A response arrived: an exchange sends no requests, so it is dropped with a diagnostic. */
  onResult(): void {
    this.observer.diagnostic('dropped a response: a request served without a session sends no requests');
  }

  /** An error response arrived: dropped like {@link StatelessExchange.onResult}. */
  onErrorResponse(): void {
    this.onResult();
  }

  /** Progress of a request this side never sent: nothing listens, so it is ignored. */
  onProgress(): void {
    // nothing to do
  }

  /** A task status of a request this side never sent: ignored. */
  onTaskStatus(): void {
    // nothing to do
  }

  // ---------------------------------------------------------------- TransportSink

  onMessage(value: unknown, context?: InboundContext): void {
    this.inbound.receive(value, context);
  }

  onMalformed(text: string, reason: string): void {
    this.inbound.receiveMalformed(text, reason);
  }

  onError(error: Error): void {
    this.observer.diagnostic(`transport error: ${error.message}`, error);
  }

  /** The exchange ended: answered, or the client went away first (its handlers are aborted, nothing more is written). */
  onClose(info: TransportCloseInfo): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#ended = info.initiator === 'local' ? { reason: 'closed' } : { reason: 'peerClosed' };
    this.#onEnded?.(this.#ended);
    this.inbound.abortAll(() => new ConnectionClosedError(info.initiator === 'remote' ? 'The client went away' : 'The exchange has ended', { details: { initiator: info.initiator } }));
  }
}
