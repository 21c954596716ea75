/**
 * The session runner: drives one Transport with the connection machine and the request
 * ledger. It decides nothing about the lifecycle itself: every decision is a `transition()`
 * of the connection machine, and the runner performs the effects. By job: `intake.ts`
 * (inbound frames, in order), `handshake.ts`, `outbound.ts` (our requests), `inbound.ts` (the
 * peer's requests, one settle path), `notifications.ts`, `keep-alive.ts`, `shutdown.ts`,
 * `observer.ts` (inspection); this file holds the public `Session`, the machine and its effects.
 *
 * ```
 *  close() ─▶ closeRequested ─▶ ShuttingDown ─┬─ transport reports closed ─▶ Terminated
 *                                               └─ closeDeadlineMs passes ───▶ Terminated (transport terminated)
 * ```
 */
import { AlreadyConnectedError, InvalidStateError, RequestCancelledError, TransportError, type ConnectionClosedError } from '../errors/errors.js';
import type { JsonObject, JsonRpcErrorResponse, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResultResponse, RequestId } from '../jsonrpc/messages.js';
import { initialConnectionState, transition } from '../machines/connection.js';
import type { ConnectionEffect, ConnectionEvent, ConnectionState, PeerInfo, Role } from '../machines/connection-types.js';
import type { Revision } from '../revisions/types.js';
import type { InboundContext, Transport, TransportCloseInfo, TransportSink } from '../transport/transport.js';
import { LEGACY_PROTOCOL_VERSIONS, negotiateServerVersion, proposeVersion } from '../versions.js';
import { systemClock, type Clock, type TimerHandle } from './clock.js';
import { answerInitialize, rerunClientHandshake, revisionFor, runClientHandshake, type HandshakeHost } from './handshake.js';
import { InboundRequests } from './inbound.js';
import { FrameIntake } from './intake.js';
import { startKeepAlive } from './keep-alive.js';
import { RequestLedger, type PendingRequestView } from './ledger.js';
import { SessionObserver, type TransitionListener } from './observer.js';
import { InboundNotifications } from './notifications.js';
import { OutboundRequests, abortReason } from './outbound.js';
import { closeTransport, connectionClosedError, terminateTransport } from './shutdown.js';
import type {
  CloseInfo,
  InitializeParams,
  InitializeResultShape,
  NotificationHandler,
  NotificationOptions,
  RequestHandler,
  RequestOptions,
  SessionOptions,
} from './options.js';

const DEFAULT_CLOSE_DEADLINE_MS = 10_000;

let sessionCounter = 0;

/**
 * One MCP connection, either role.
 *
 * @example
 * ```ts
 * const [a, b] = InMemoryTransport.createPair();
 * const server = new Session({ role: 'server', capabilities: () => ({}), onInitialize: (p, version) => ({
 *   protocolVersion: version, capabilities: {}, serverInfo: { name: 's', version: '1' } }) });
 * const client = new Session({ role: 'client', capabilities: () => ({}) });
 * await server.connect(b);
 * await client.connect(a);
 * await client.initialize({ capabilities: {}, clientInfo: { name: 'c', version: '1' } });
 * await client.request('ping');
 * await client.close();
 * ```
 */
export class Session {
  readonly id: string;
  readonly role: Role;
  readonly #options: SessionOptions;
  readonly #clock: Clock;
  readonly #supported: readonly string[];
  readonly #observer: SessionObserver;
  readonly #ledger: RequestLedger;
  readonly #outbound: OutboundRequests;
  readonly #inbound: InboundRequests;
  readonly #intake: FrameIntake;
  readonly #notifications: InboundNotifications;
  readonly #handshakeHost: HandshakeHost;
  #state: ConnectionState;
  #transport: Transport | undefined;
  #revision: Revision;
  #negotiated: string | undefined;
  #lastPeer: PeerInfo | undefined;
  #initializedSent: Promise<void> = Promise.resolve();
  /** The initialize params last sent (client), re-sent when the session expires. */
  #initializeParams: JsonObject | undefined;
  #closeDeadline: TimerHandle | undefined;
  #closeCause: { info?: TransportCloseInfo } = {};
  #closeInfo: CloseInfo | undefined;
  #resolveClosed!: (info: CloseInfo) => void;
  /** Resolves once, when the session reaches Terminated. */
  readonly closed: Promise<CloseInfo>;

  constructor(options: SessionOptions) {
    this.#options = options;
    this.role = options.role;
    this.id = options.sessionId ?? `${options.role}-${++sessionCounter}-${Math.random().toString(36).slice(2, 8)}`;
    this.#clock = options.clock ?? systemClock;
    this.#supported = options.supportedVersions ?? LEGACY_PROTOCOL_VERSIONS;
    this.#state = initialConnectionState({ role: options.role, strictInitialized: options.strictInitialized ?? false });
    this.#revision = revisionFor(proposeVersion(this.#supported));
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
    const observer = new SessionObserver(this.id, this.#clock, options.inspect);
    this.#observer = observer;
    this.#ledger = new RequestLedger({
      memory: options.settledMemory ?? 1024,
      clearTimer: (handle) => this.#clock.clearTimeout(handle),
      listener: (record, from, event) => observer.requestTransition(record, from, event),
    });
    // What every part of the runner reads from the session (each takes the members it needs).
    const shared = {
      role: this.role,
      clock: this.#clock,
      ledger: this.#ledger,
      observer,
      options,
      revision: () => this.#revision,
      protocolVersion: () => this.protocolVersion,
      strict: () => options.strictCapabilities ?? true,
      reply: (message: JsonRpcResultResponse | JsonRpcErrorResponse, relatedRequestId: RequestId | undefined) => this.#reply(message, relatedRequestId),
      request: (method: string, params: JsonObject | undefined, requestOptions: RequestOptions) => this.request(method, params, requestOptions),
    };
    this.#outbound = new OutboundRequests({
      ...shared,
      peer: () => this.peer,
      stateKind: () => this.#state.kind,
      write: (message, relatedRequestId) => this.#write(message, relatedRequestId),
      notify: (method, params) => this.notify(method, params),
      closedError: (message) => this.#closedError(message),
      endError: () => (this.#state.kind === 'shuttingDown' || this.#state.kind === 'terminated' ? this.#state.error : undefined),
    });
    this.#inbound = new InboundRequests({
      ...shared,
      isTerminated: () => this.#state.kind === 'terminated',
      notify: (method, params, relatedRequestId) => this.notify(method, params, relatedRequestId === undefined ? {} : { relatedRequestId }),
    });
    this.#notifications = new InboundNotifications({
      ...shared,
      onPeerCancel: (params) => this.#inbound.onPeerCancel(params),
      onProgress: (params) => this.#outbound.onProgress(params),
      onTaskTerminal: (taskId) => this.#ledger.releaseTaskProgress(taskId),
    });
    this.#handshakeHost = {
      ...shared,
      supported: this.#supported,
      closed: this.closed,
      state: () => this.#state,
      dispatch: (event) => void this.#dispatch(event),
      useRevision: (version) => (this.#revision = revisionFor(version)),
      replyError: (id, code, message, data) => this.#inbound.replyError(id, code, message, data),
      initializedSent: () => this.#initializedSent,
      remember: (params) => (this.#initializeParams = params),
      sendInitialize: (params) => this.#outbound.send('initialize', params, {}, true),
    };
    this.#intake = new FrameIntake({
      ...shared,
      onRequest: (message, context) => this.#onRequest(message, context),
      onNotification: (message, context) => this.#onNotification(message, context),
      onResult: (message) => this.#outbound.onResult(message),
      onErrorResponse: (message) => this.#outbound.onErrorResponse(message),
    });
    this.setRequestHandler('ping', () => ({}));
    if (options.keepAlive === undefined) return;
    startKeepAlive(
      {
        ...shared,
        state: () => this.#state,
        onTransition: (listener) => this.onTransition(listener),
        // A keep-alive ping is housekeeping: its timers never keep the process alive.
        ping: (timeoutMs) => this.#request('ping', undefined, { timeoutMs }, false),
        fail: (error) => this.#dispatch({ type: 'fatalError', error }),
      },
      options.keepAlive,
    );
  }

  // ------------------------------------------------------------------ public state

  /** The current connection state (a discriminated union; see `ConnectionState`). */
  get state(): ConnectionState {
    return this.#state;
  }

  /** The negotiated protocol version, once known. */
  get protocolVersion(): string | undefined {
    return this.#state.kind === 'initialized' || this.#state.kind === 'operating' ? this.#state.version : this.#negotiated;
  }

  /** What the peer declared in the handshake, once known. */
  get peer(): PeerInfo | undefined {
    return this.#state.kind === 'initialized' || this.#state.kind === 'operating' ? this.#state.peer : this.#lastPeer;
  }

  /** How the session ended, once Terminated. */
  get closeInfo(): CloseInfo | undefined {
    return this.#closeInfo;
  }

  /** The transport, once connected. */
  get transport(): Transport | undefined {
    return this.#transport;
  }

  /** Every in-flight request in both directions. */
  pendingRequests(): PendingRequestView[] {
    return this.#ledger.view();
  }

  /** Subscribes to connection transitions; returns an unsubscribe function. */
  onTransition(listener: TransitionListener): () => void {
    return this.#observer.onTransition(listener);
  }

  setRequestHandler(method: string, handler: RequestHandler): void {
    this.#inbound.setHandler(method, handler);
  }

  removeRequestHandler(method: string): void {
    this.#inbound.removeHandler(method);
  }

  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.#notifications.setHandler(method, handler);
  }

  removeNotificationHandler(method: string): void {
    this.#notifications.removeHandler(method);
  }

  /** Stops delivering progress for a task whose request returned a CreateTaskResult (rule 49). */
  releaseTaskProgress(taskId: string): void {
    this.#ledger.releaseTaskProgress(taskId);
  }

  // ------------------------------------------------------------------ connecting

  /** Attaches the transport and starts it. A second call throws `AlreadyConnectedError`. */
  async connect(transport: Transport): Promise<void> {
    if (this.#transport !== undefined) throw new AlreadyConnectedError('This session already has a transport; create a new session to connect again');
    if (this.#state.kind === 'terminated') throw new InvalidStateError('The session has terminated; create a new one', this.#state.kind);
    this.#transport = transport;
    const sink: TransportSink = {
      onMessage: (value, context) => this.#intake.receive(value, context),
      onMalformed: (text, reason) => this.#intake.malformed(text, reason),
      onError: (error) => this.#observer.diagnostic(`transport error: ${error.message}`, error),
      onClose: (info) => this.#onTransportClosed(info),
      onUndeliverable: (ids, error) => this.#outbound.undeliverable(ids, error),
      onSessionExpired: () => void this.#dispatch({ type: 'sessionExpired' }),
    };
    const assumed = transport.assumedProtocolVersion;
    if (assumed !== undefined && this.role === 'server') {
      const version = negotiateServerVersion(assumed, this.#supported);
      this.#revision = revisionFor(version);
      this.#dispatch({ type: 'sessionAssumed', version, peer: { capabilities: {}, info: { name: 'unknown', version: 'unknown' } } });
    }
    try {
      await transport.start(sink);
    } catch (error) {
      this.#transport = undefined;
      throw new TransportError(`Transport failed to start: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  /**
   * Client: runs the handshake. Proposes the latest supported version (or
   * `params.protocolVersion`), accepts any supported answer, sends `notifications/initialized`
   * and resolves in Operating. An unsupported answer closes the session and rejects with
   * `UnsupportedProtocolVersionError`; any other failure closes it and rejects too. On
   * failure the promise rejects only once the session has reached Terminated.
   */
  async initialize(params: InitializeParams, options: RequestOptions = {}): Promise<InitializeResultShape> {
    if (this.role !== 'client') throw new InvalidStateError('Only a client sends initialize', this.#state.kind);
    return runClientHandshake(this.#handshakeHost, params, options);
  }

  // ------------------------------------------------------------------ outbound

  /**
   * Sends a request and resolves with its (validated) result. Rejects with a typed error:
   * `RequestTimeoutError`, `RequestCancelledError`, `ConnectionClosedError`, `JsonRpcError`
   * (the peer's error reply), `CapabilityNotSupportedError`, `InvalidStateError`,
   * `TransportError` (the transport could not deliver it).
   */
  request(method: string, params?: JsonObject, options: RequestOptions = {}): Promise<JsonObject> {
    return this.#request(method, params, options, true);
  }

  #request(method: string, params: JsonObject | undefined, options: RequestOptions, keepAlive: boolean): Promise<JsonObject> {
    const transport = this.#transport;
    if (transport === undefined) return Promise.reject(new InvalidStateError('Not connected: call connect(transport) first', this.#state.kind));
    const gate = this.#gate({ type: 'outboundRequest', method });
    if (gate instanceof Error) return Promise.reject(gate);
    // A client request made during the handshake waits in the ledger; its checks run when it goes out.
    const queued = gate === 'queue';
    const refusal = queued ? undefined : this.#outbound.refusal(method, options, transport);
    if (refusal !== undefined) return Promise.reject(refusal);
    if (options.signal?.aborted === true) {
      return Promise.reject(new RequestCancelledError(`${method} was cancelled before it was sent`, { reason: abortReason(options.signal) }));
    }
    return this.#outbound.send(method, params, options, keepAlive, queued);
  }

  /** Sends a notification. Rejects with a typed error when the state or capabilities forbid it. */
  async notify(method: string, params?: JsonObject, options: NotificationOptions = {}): Promise<void> {
    if (this.#transport === undefined) throw new InvalidStateError('Not connected: call connect(transport) first', this.#state.kind);
    const gate = this.#gate({ type: 'outboundNotification', method });
    if (gate instanceof Error) throw gate;
    const refusal = this.#outbound.notificationRefusal(method);
    if (refusal !== undefined) throw refusal;
    const message: JsonRpcNotification = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    await this.#write(message, options.relatedRequestId);
  }

  /** Sends `ping` and resolves with the round-trip time in ms. */
  async ping(options: RequestOptions = {}): Promise<number> {
    const started = this.#clock.now();
    await this.request('ping', undefined, options);
    return this.#clock.now() - started;
  }

  // ------------------------------------------------------------------ closing

  /**
   * Graceful close: pending outbound requests get `notifications/cancelled` (never
   * `initialize`) and reject with `ConnectionClosedError`, handlers are aborted, the transport
   * closes. Idempotent; always resolves within `closeDeadlineMs`; `onclose` fires once.
   */
  async close(): Promise<void> {
    if (this.#transport === undefined && this.#state.kind === 'uninitialized') {
      this.#dispatch({ type: 'terminateRequested' });
      return;
    }
    this.#dispatch({ type: 'closeRequested' });
    await this.closed;
  }

  /** Forceful close: settles everything and terminates the transport at once. */
  async terminate(): Promise<void> {
    this.#dispatch({ type: 'terminateRequested' });
    await this.closed;
  }

  // ------------------------------------------------------------------ inbound

  /** A request from the peer: the machine gates it; `initialize` holds the intake until answered. */
  #onRequest(message: JsonRpcRequest, context: InboundContext | undefined): Promise<void> | undefined {
    const { id, method } = message;
    if (this.#ledger.hasInbound(id)) {
      this.#inbound.replyError(id, -32600, `Request id ${String(id)} is already in use`);
      return undefined;
    }
    for (const effect of this.#dispatch({ type: 'inboundRequest', method })) {
      if (effect.type === 'rejectInbound') {
        this.#inbound.replyError(id, effect.code, effect.message);
        return undefined;
      }
      if (effect.type === 'dropInbound') {
        this.#observer.diagnostic(`dropped request ${method}: ${effect.reason}`);
        return undefined;
      }
    }
    if (method === 'initialize' && this.role === 'server') return answerInitialize(this.#handshakeHost, message, context);
    this.#inbound.handle(message, context);
    return undefined;
  }

  #onNotification(message: JsonRpcNotification, context: InboundContext | undefined): void {
    const { method } = message;
    for (const effect of this.#dispatch({ type: 'inboundNotification', method })) {
      if (effect.type === 'dropInbound') {
        this.#observer.diagnostic(`dropped notification ${method}: ${effect.reason}`);
        return;
      }
    }
    this.#notifications.handle(message, context);
  }

  // ------------------------------------------------------------------ the machine and its effects

  #dispatch(event: ConnectionEvent): ConnectionEffect[] {
    const from = this.#state;
    const { state, effects } = transition(from, event);
    this.#state = state;
    if (state.kind !== from.kind) this.#observer.connectionTransition(from, state, event);
    const gateEffects: ConnectionEffect[] = [];
    for (const effect of effects) {
      switch (effect.type) {
        case 'accept':
        case 'queueOutbound':
        case 'rejectInbound':
        case 'refuseOutbound':
        case 'dropInbound':
        case 'ignore':
          gateEffects.push(effect);
          break;
        case 'negotiated':
          this.#negotiated = effect.version;
          if (state.kind === 'initialized') this.#lastPeer = state.peer;
          this.#transport?.setProtocolVersion?.(effect.version);
          break;
        case 'sendInitialized':
          this.#initializedSent = this.notify('notifications/initialized');
          this.#initializedSent.catch((error: unknown) => this.#observer.diagnostic('could not send notifications/initialized', error));
          break;
        case 'dispatchQueued': {
          // Runs right after `notifications/initialized` has been handed to the transport.
          const transport = this.#transport;
          if (transport !== undefined) queueMicrotask(() => this.#outbound.dispatchQueued(transport));
          break;
        }
        case 'reinitialize':
          void rerunClientHandshake(this.#handshakeHost, this.#initializeParams);
          break;
        case 'settleOutbound':
          this.#outbound.settleAll(effect.notify);
          break;
        case 'abortInbound':
          this.#inbound.abortAll(() => this.#closedError('The connection closed'));
          break;
        case 'closeTransport':
          closeTransport(this.#transport, () => this.#outbound.cancelsSent(), (next) => void this.#dispatch(next), this.#observer);
          break;
        case 'terminateTransport':
          terminateTransport(this.#transport, this.#observer);
          break;
        case 'armCloseDeadline': {
          const ms = this.#options.closeDeadlineMs ?? DEFAULT_CLOSE_DEADLINE_MS;
          // A close somebody awaits keeps the process alive until it finishes or the deadline passes.
          this.#closeDeadline = this.#clock.setTimeout(() => this.#dispatch({ type: 'closeDeadlineExpired' }), ms, { keepAlive: true });
          break;
        }
        case 'dispatch':
          this.#dispatch(effect.event);
          break;
        case 'finalize':
          this.#finalize();
          break;
      }
    }
    return gateEffects;
  }

  /** Runs a gate event: the local error to throw when refused, `queue` when the request must wait, else undefined. */
  #gate(event: Extract<ConnectionEvent, { type: 'outboundRequest' | 'outboundNotification' }>): Error | 'queue' | undefined {
    for (const effect of this.#dispatch(event)) {
      if (effect.type === 'refuseOutbound') {
        return effect.error === 'connectionClosed' ? this.#closedError(effect.message) : new InvalidStateError(effect.message, this.#state.kind);
      }
      if (effect.type === 'queueOutbound') return 'queue';
    }
    return undefined;
  }

  #finalize(): void {
    if (this.#closeInfo !== undefined) return;
    this.#ledger.clearTaskProgress();
    if (this.#closeDeadline !== undefined) this.#clock.clearTimeout(this.#closeDeadline);
    this.#closeDeadline = undefined;
    const state = this.#state;
    const reason = state.kind === 'terminated' ? state.reason : 'closed';
    const error = state.kind === 'terminated' ? state.error : undefined;
    const details = this.#closeCause.info?.details;
    const info: CloseInfo = { reason, ...(error !== undefined ? { error } : {}), ...(details !== undefined ? { details } : {}) };
    this.#closeInfo = info;
    this.#resolveClosed(info);
    try {
      this.#options.onclose?.(info);
    } catch (err) {
      this.#observer.diagnostic('onclose threw', err);
    }
  }

  #onTransportClosed(info: TransportCloseInfo): void {
    this.#closeCause = { info };
    this.#dispatch(info.error !== undefined ? { type: 'transportClosed', initiator: info.initiator, error: info.error } : { type: 'transportClosed', initiator: info.initiator });
  }

  #closedError(message: string): ConnectionClosedError {
    return connectionClosedError(message, this.#closeCause.info);
  }

  // ------------------------------------------------------------------ writing

  #reply(message: JsonRpcResultResponse | JsonRpcErrorResponse, relatedRequestId: RequestId | undefined): void {
    if (this.#transport === undefined || this.#state.kind === 'terminated') return;
    this.#write(message, relatedRequestId).catch((error: unknown) => this.#observer.diagnostic('could not send a response', error));
  }

  async #write(message: JsonRpcMessage, relatedRequestId: RequestId | undefined): Promise<void> {
    const transport = this.#transport;
    if (transport === undefined) throw new InvalidStateError('Not connected', this.#state.kind);
    this.#observer.messageOut(message);
    await transport.send(message, relatedRequestId !== undefined ? { relatedRequestId } : undefined);
  }
}
