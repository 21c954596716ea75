/**
 * One session's connection: the state every part of the session shares, and the one place
 * that drives the connection machine. `Session` (session.ts) is the public surface over it;
 * the request machinery (`outbound.ts`, `inbound.ts`), the handshake (`handshake.ts`) and
 * discovery (`discovery.ts`) read the connection here and report to the machine through
 * {@link SessionCore.dispatch}. It decides nothing about the lifecycle itself: every decision
 * is a `transition()` of the connection machine, and the core performs the effects. It is
 * also the transport's sink. `close()`: closeRequested → ShuttingDown → Terminated when the
 * transport reports closed, or forcefully after `closeDeadlineMs`.
 */
import { AlreadyConnectedError, InvalidStateError, RequestCancelledError, TransportError, type ConnectionClosedError } from '../errors/errors.js';
import type { JsonObject, JsonRpcMessage, JsonRpcRequest, RequestId } from '../jsonrpc/messages.js';
import { initialConnectionState, transition } from '../machines/connection.js';
import { outboundRequestEvent } from '../machines/connection-steps.js';
import type { ConnectionEffect, ConnectionEvent, ConnectionState, ConnectionStateKind, PeerInfo, Role } from '../machines/connection-types.js';
import { revisionFor } from '../revisions/resolve-version.js';
import type { Revision } from '../revisions/types.js';
import type { InboundContext, SessionExpiry, Transport, TransportCloseInfo, TransportSink } from '../transport/transport.js';
import { negotiateServerVersion, proposeVersion } from '../versions.js';
import { systemClock, type Clock } from './clock.js';
import { CloseTracker } from './close-tracker.js';
import { checkCustomParams } from './custom-methods.js';
import type { NegotiationHost } from './discovery.js';
import { answerInitialize, repeatClientHandshake, runClientHandshake, type HandshakeHost } from './handshake.js';
import { InboundDispatcher, sharedRequestHandler, type InboundHost } from './inbound.js';
import { startKeepAlive } from './keep-alive.js';
import { RequestLedger } from './ledger.js';
import { requestRefusal } from './method-refusals.js';
import { answerInputThroughMiddleware } from './middleware-context.js';
import { SessionObserver } from './observer.js';
import type { InitializeParams, InitializeResultShape, NotificationHandler, NotificationOptions, RequestContext, RequestHandler, RequestOptions, SessionOptions } from './options.js';
import { notifyPastGate } from './outbound-notify.js';
import { OutboundRequests, abortReason, sendNotification, type OutboundHost } from './outbound.js';
import { requestIdentity, type RequestIdentity } from './request-meta.js';
import { connectionConfigOf, defaultSupportedVersions, versionListsOf } from './session-versions.js';
import { closeTransport, terminateTransport } from './transport-effects.js';

export type TransitionListener = (to: ConnectionState, from: ConnectionState, event: ConnectionEvent) => void;

/** `initializedSent` until a client sends it: one settled promise for every session. */
const NOTHING_SENT: Promise<void> = Promise.resolve();

/** The connection of one session, either role; see the file header. */
export class SessionCore implements InboundHost, OutboundHost, HandshakeHost, NegotiationHost, TransportSink {
  readonly role: Role;
  readonly clock: Clock;
  readonly options: SessionOptions;
  /** Every version this side speaks, both eras (discovery proposes among them). */
  readonly supported: readonly string[];
  /** The versions that have a handshake: `initialize` negotiates among them. */
  readonly handshakeVersions: readonly string[];
  readonly observer: SessionObserver;
  readonly ledger: RequestLedger;
  readonly closing: CloseTracker;
  readonly outbound: OutboundRequests;
  readonly inbound: InboundDispatcher;
  readonly transitionListeners = new Set<TransitionListener>();
  state: ConnectionState;
  transport: Transport | undefined;
  /**
   * The revision in force while the machine's state has none: the one being proposed (the
   * client's handshake, discovery) or answered (the server's handshake), then the last one the
   * state had once the connection ends. While a version is in force it is the state's own.
   */
  #revision: Revision;
  #negotiated: string | undefined;
  #lastPeer: PeerInfo | undefined;
  #initializedSent: Promise<void> = NOTHING_SENT;
  /** Client: the parameters of the first handshake, sent again when the session expires. */
  #initializeParams: InitializeParams | undefined;
  /** Client, modern era: the `Implementation` stated in every request's `_meta`. */
  clientInfo: JsonObject | undefined;
  /** Client, modern era: the identity of the last request, reused while nothing in it changes. */
  #identity: RequestIdentity | undefined;
  /**
   * This session's own handlers, created on first use: most sessions answer from
   * `options.handlers` (their server's table) and `ping` alone. `undefined` marks a method
   * removed here, which hides the shared handler.
   */
  requestHandlers: Map<string, RequestHandler | undefined> | undefined;
  notificationHandlers: Map<string, NotificationHandler | undefined> | undefined;

  constructor(
    readonly sessionId: string,
    options: SessionOptions,
  ) {
    this.options = options;
    this.role = options.role;
    const clock = (this.clock = options.clock ?? systemClock);
    this.supported = options.supportedVersions ?? defaultSupportedVersions(options.role);
    const versions = versionListsOf(this.supported);
    this.handshakeVersions = versions.handshake;
    this.state = initialConnectionState(connectionConfigOf(versions, options.role, options.strictInitialized ?? false));
    this.#revision = revisionFor(versions.initial);
    const observer = (this.observer = new SessionObserver(sessionId, clock, options.inspect));
    this.ledger = new RequestLedger({ memory: options.settledMemory ?? 1024, clock, listener: observer });
    this.outbound = new OutboundRequests(this);
    this.inbound = new InboundDispatcher(this);
    this.closing = new CloseTracker(options, clock, observer);
    if (options.keepAlive !== undefined) {
      startKeepAlive(
        {
          clock,
          state: () => this.state,
          ping: (timeoutMs) => this.send('ping', undefined, { timeoutMs }, false), // housekeeping: never keeps the process alive
          onTransition: (listener) => void this.transitionListeners.add(listener),
          diagnostic: (message, detail) => observer.diagnostic(message, detail),
          fail: (error) => void this.dispatch({ type: 'fatalError', error }),
        },
        options.keepAlive,
      );
    }
  }

  // ------------------------------------------------------------------ what the parts read

  /** The revision in force: the machine state's (see `ConnectionState`), else the one proposed or last in force. */
  revision(): Revision {
    const state = this.state;
    return state.kind === 'initialized' || state.kind === 'operating' ? state.revision : this.#revision;
  }

  /** Makes `version`'s revision the one proposed or answered, before the machine's state holds a version. */
  useRevision(version: string): Revision {
    return (this.#revision = revisionFor(version));
  }

  /** The negotiated protocol version, once known. */
  protocolVersion(): string | undefined {
    return this.state.kind === 'initialized' || this.state.kind === 'operating' ? this.state.version : this.#negotiated;
  }

  /** What the peer declared, once known. */
  peer(): PeerInfo | undefined {
    return this.state.kind === 'initialized' || this.state.kind === 'operating' ? this.state.peer : this.#lastPeer;
  }

  get strictCapabilities(): boolean {
    return this.options.strictCapabilities !== false;
  }

  ownCapabilities(): JsonObject {
    return this.options.capabilities();
  }

  peerCapabilities(): JsonObject | undefined {
    return this.peer()?.capabilities;
  }

  stateKind(): ConnectionStateKind {
    return this.state.kind;
  }

  /** True while a reply can still be written (connected and not terminated). */
  canReply(): boolean {
    return this.transport !== undefined && this.state.kind !== 'terminated';
  }

  isTerminated(): boolean {
    return this.state.kind === 'terminated';
  }

  isInitializing(): boolean {
    return this.state.kind === 'initializing';
  }

  /** True while the machine holds inbound messages back (a server answering initialize). */
  isHoldingBack(): boolean {
    return this.role === 'server' && this.state.kind === 'initializing';
  }

  /** Why the connection is ending, when it ends with an error (a failed handshake, a fatal error). */
  endError(): Error | undefined {
    const state = this.state;
    return state.kind === 'shuttingDown' || state.kind === 'terminated' ? state.error : undefined;
  }

  closedError(message: string): ConnectionClosedError {
    return this.closing.closedError(message);
  }

  get transportSessionId(): string | undefined {
    return this.transport?.sessionId;
  }

  /** Client, in a revision with per-request `_meta`: what every request states (MCP 2026-07-28, Basic §Metadata). */
  requestIdentity(): RequestIdentity | undefined {
    if (this.role !== 'client') return undefined;
    const revision = this.revision();
    if (!revision.features.perRequestMeta) return undefined;
    return (this.#identity = requestIdentity(this.#identity, revision.version, this.options.capabilities(), this.clientInfo));
  }

  /** This session's own handler of `method`, else the shared one, else the built-in `ping`. */
  requestHandler(method: string): RequestHandler | undefined {
    const own = this.requestHandlers;
    if (own?.has(method) === true) return own.get(method);
    return sharedRequestHandler(this.options.handlers, method);
  }

  notificationHandler(method: string): NotificationHandler | undefined {
    const own = this.notificationHandlers;
    return own?.has(method) === true ? own.get(method) : this.options.handlers?.notificationHandler(method);
  }

  /** Answers an input request of a Multi Round-Trip Request through this side's handler for `method` (a method: a session holds no closure for it). */
  answerInput(method: string, params: JsonObject, context: RequestContext): Promise<JsonObject> {
    return answerInputThroughMiddleware(this, this.requestHandler(method), method, params, context);
  }

  answerInitialize(message: JsonRpcRequest, context: InboundContext | undefined): void {
    void answerInitialize(this, message, context);
  }

  // ------------------------------------------------------------------ what negotiation reads (discovery.ts)

  get closed(): Promise<unknown> {
    return this.closing.closed;
  }

  get discoveryTimeoutMs(): number | undefined {
    return this.options.discoveryTimeoutMs;
  }

  get discoveryAwaitsAnswer(): boolean {
    return this.transport?.answersUntilClosed === true;
  }

  get timeoutsRestartedAt(): number {
    return this.outbound.timeouts.restartedAt;
  }

  now(): number {
    return this.clock.now();
  }

  // ------------------------------------------------------------------ connecting

  /** Attaches the transport and starts it; a server adopts the version the transport assumed or carried over. */
  async connect(transport: Transport): Promise<void> {
    if (this.transport !== undefined) throw new AlreadyConnectedError('This session already has a transport; create a new session to connect again');
    if (this.state.kind === 'terminated') throw new InvalidStateError('The session has terminated; create a new one', this.state.kind);
    this.transport = transport;
    const assumed = transport.assumedProtocolVersion;
    if (assumed !== undefined && this.role === 'server') {
      const version = negotiateServerVersion(assumed, this.supported);
      this.dispatch({ type: 'sessionAssumed', version, peer: { capabilities: {}, info: { name: 'unknown', version: 'unknown' } } });
    }
    const adopted = transport.adoptedSession;
    if (adopted !== undefined && assumed === undefined && this.role === 'server') {
      const version = negotiateServerVersion(adopted.protocolVersion, this.supported);
      this.dispatch({ type: 'sessionAdopted', version, peer: adopted.peer });
    }
    try {
      await transport.start(this);
    } catch (error) {
      this.transport = undefined;
      throw new TransportError(`Transport failed to start: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  /** Client: the handshake (see `Session.initialize`). */
  async initialize(params: InitializeParams, options: RequestOptions): Promise<InitializeResultShape> {
    this.#initializeParams = params;
    const outcome = await runClientHandshake(this, params, params.protocolVersion ?? proposeVersion(this.handshakeVersions), options);
    if (!outcome.ok) {
      await this.closing.closed;
      throw outcome.error;
    }
    await this.#initializedSent;
    return outcome.result;
  }

  // ------------------------------------------------------------------ outbound

  /** A request with its custom params checked first (see `Session.request`). */
  request(method: string, params?: JsonObject, options: RequestOptions = {}): Promise<JsonObject> {
    const schema = options.custom?.params;
    if (schema === undefined) return this.send(method, params, options, true);
    return checkCustomParams(method, schema, params).then((checked) => this.send(method, checked, options, true));
  }

  /** Passes the gate and the method policy, then hands the request to `OutboundRequests`. `awaited`: false for housekeeping. */
  send(method: string, params: JsonObject | undefined, options: RequestOptions, awaited: boolean): Promise<JsonObject> {
    const transport = this.transport;
    if (transport === undefined) return Promise.reject(new InvalidStateError('Not connected: call connect(transport) first', this.state.kind));
    const effects = this.dispatch(outboundRequestEvent(method, options.waitForOperating === true));
    const held = effects.some(isHold);
    const refused = held ? undefined : (this.#refusal(effects) ?? requestRefusal(this, method, options, transport));
    if (refused !== undefined) return Promise.reject(refused);
    if (options.signal?.aborted === true) {
      return Promise.reject(new RequestCancelledError(`${method} was cancelled before it was sent`, { reason: abortReason(options.signal) }));
    }
    return this.outbound.send(method, params, options, held, awaited);
  }

  /** Sends a notification (see `Session.notify`); the machine may hold it in the ledger until Operating. */
  async notify(method: string, params?: JsonObject, options: NotificationOptions = {}): Promise<void> {
    if (this.transport === undefined) throw new InvalidStateError('Not connected: call connect(transport) first', this.state.kind);
    const effects = this.dispatch({ type: 'outboundNotification', method });
    const held = effects.some(isHold);
    const refused = this.#refusal(effects);
    if (refused !== undefined) throw refused;
    return notifyPastGate(this, method, params, options, (message) => sendNotification(this, message, options.relatedRequestId, held));
  }

  /** Asks the transport to cancel request `id` by its own means (`Transport.cancelRequest`): true when it did. */
  cancelAtTransport(id: RequestId): boolean {
    return this.transport?.cancelRequest?.(id) === true;
  }

  /** Asks the machine again about a message the transport bounced (the server forgot the session): held, sent again, or neither. */
  bounced(method: string, kind: 'request' | 'notification'): 'hold' | 'send' | undefined {
    const effects = this.dispatch({ type: kind === 'request' ? 'outboundRequest' : 'outboundNotification', method, waitForOperating: true });
    return effects.some(isHold) ? 'hold' : effects.some((effect) => effect.type === 'accept') ? 'send' : undefined;
  }

  /** The transport's own promise (no async frame of ours per message); every failure rejects it. */
  write(message: JsonRpcMessage, relatedRequestId: RequestId | undefined, headers?: Readonly<Record<string, string>>): Promise<void> {
    const transport = this.transport;
    if (transport === undefined) return Promise.reject(new InvalidStateError('Not connected', this.state.kind));
    try {
      this.observer.messageOut(message);
      if (headers !== undefined) return transport.send(message, relatedRequestId !== undefined ? { relatedRequestId, headers } : { headers });
      return transport.send(message, relatedRequestId !== undefined ? { relatedRequestId } : undefined);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  // ------------------------------------------------------------------ the machine and its effects

  /** Applies `event` to the connection machine, runs its effects and returns the gate's (an accepted message's step allocates none). */
  dispatch(event: ConnectionEvent): readonly ConnectionEffect[] {
    const from = this.state;
    const { state, effects } = transition(from, event);
    this.state = state;
    if (state.kind !== from.kind) {
      // Leaving the states that hold a version: the revision that was in force stays the one read.
      if ((from.kind === 'initialized' || from.kind === 'operating') && state.kind !== 'initialized' && state.kind !== 'operating') this.#revision = from.revision;
      this.#emitTransition(from, state, event);
    }
    let performed = false;
    for (const effect of effects) {
      if (isGateEffect(effect)) continue; // the gate's: returned to the caller
      switch (effect.type) {
        case 'releaseOutbound':
          // After notifications/initialized has gone out (its send is the one in progress, read once this step is
          // over): nothing may overtake it. With nothing held there is nothing to release (and no promise hop to wait).
          if (this.ledger.holding) queueMicrotask(() => void this.#initializedSent.catch(() => undefined).then(() => this.#releaseHeld()));
          break;
        case 'replayDeferred':
          // After the current step: the initialize reply is handed to the transport first.
          queueMicrotask(() => this.inbound.replayDeferred());
          break;
        case 'negotiated':
          this.#negotiated = effect.version;
          if (state.kind === 'initialized') this.#lastPeer = state.peer;
          this.transport?.setProtocolVersion?.(effect.version);
          break;
        case 'sendInitialized':
          this.#initializedSent = this.notify('notifications/initialized');
          this.#initializedSent.catch((error: unknown) => this.observer.diagnostic('could not send notifications/initialized', error));
          break;
        case 'reinitialize':
          void repeatClientHandshake(this, state, this.#initializeParams);
          break;
        case 'settleOutbound':
          this.outbound.settleAll(effect.notify);
          break;
        case 'abortInbound':
          this.inbound.abortAll(() => this.closing.closedError('The connection closed'));
          break;
        case 'closeTransport':
          closeTransport(this.transport, this.outbound.cancelsInFlight(), this.observer, (next) => void this.dispatch(next));
          break;
        case 'terminateTransport':
          terminateTransport(this.transport, this.observer);
          break;
        case 'armCloseDeadline':
          this.closing.armDeadline(() => this.dispatch({ type: 'closeDeadlineExpired' }));
          break;
        case 'dispatch':
          this.dispatch(effect.event);
          break;
        case 'finalize':
          this.#finalize();
          break;
      }
      performed = true;
    }
    return performed ? effects.filter(isGateEffect) : effects;
  }

  /** The local error of a gate's `refuseOutbound` effect, if it refused. */
  #refusal(effects: readonly ConnectionEffect[]): Error | undefined {
    for (const effect of effects) {
      if (effect.type === 'refuseOutbound') {
        return effect.error === 'connectionClosed' ? this.closing.closedError(effect.message) : new InvalidStateError(effect.message, this.state.kind);
      }
    }
    return undefined;
  }

  /**
   * The ledger's held messages go out in the order they were held: each request passes the gate
   * and the capability checks again now that the session is Operating, each notification the gate.
   */
  #releaseHeld(): void {
    const transport = this.transport;
    if (transport === undefined) return;
    const admit = (method: string, options: RequestOptions): Error | undefined =>
      this.#refusal(this.dispatch({ type: 'outboundRequest', method })) ?? requestRefusal(this, method, options, transport);
    for (const entry of this.ledger.takeHeld()) {
      if (entry.kind === 'request') {
        this.outbound.releaseHeld(entry, admit);
        continue;
      }
      const refused = this.#refusal(this.dispatch({ type: 'outboundNotification', method: entry.message.method }));
      if (refused !== undefined) entry.reject(refused);
      else sendNotification(this, entry.message, entry.relatedRequestId, false).then(entry.resolve, entry.reject);
    }
  }

  #emitTransition(from: ConnectionState, to: ConnectionState, event: ConnectionEvent): void {
    for (const listener of this.transitionListeners) {
      try {
        listener(to, from, event);
      } catch (error) {
        this.observer.diagnostic('transition listener threw', error);
      }
    }
    this.observer.transition(from, to, event);
  }

  #finalize(): void {
    if (this.closing.info !== undefined) return;
    this.inbound.dropDeferred();
    this.ledger.releaseAllTasks();
    this.closing.finalize(this.state);
  }

  // ------------------------------------------------------------------ TransportSink: what the transport calls

  onMessage(value: unknown, context?: InboundContext): void {
    this.inbound.receive(value, context);
  }

  onMalformed(text: string, reason: string): void {
    this.inbound.receiveMalformed(text, reason);
  }

  onError(error: Error): void {
    this.observer.diagnostic(`transport error: ${error.message}`, error);
  }

  onClose(info: TransportCloseInfo): void {
    this.dispatch(this.closing.transportClosed(info));
  }

  onUndeliverable(ids: readonly RequestId[], error: Error): void {
    this.outbound.undeliverable(ids, error);
  }

  onSessionExpired(expiry?: SessionExpiry): void {
    void this.dispatch({ type: 'sessionExpired', replacement: expiry?.replacement ?? false, answered: expiry?.answered ?? true });
  }

  onAuthorizing(active: boolean): void {
    this.outbound.timeouts.pause(active);
  }
}

type GateEffect = Extract<ConnectionEffect, { type: 'accept' | 'rejectInbound' | 'refuseOutbound' | 'dropInbound' | 'deferInbound' | 'holdOutbound' | 'ignore' }>;

/** The effects a gate returns to its caller (the others the core performs itself). */
function isGateEffect(effect: ConnectionEffect): effect is GateEffect {
  switch (effect.type) {
    case 'accept':
    case 'rejectInbound':
    case 'refuseOutbound':
    case 'dropInbound':
    case 'deferInbound':
    case 'holdOutbound':
    case 'ignore':
      return true;
    default:
      return false;
  }
}

function isHold(effect: ConnectionEffect): boolean {
  return effect.type === 'holdOutbound';
}
