/**
 * The session runner: drives one Transport with the connection machine and the request
 * ledger. It decides nothing about the lifecycle itself: every decision is a `transition()`
 * of the connection machine, and the runner performs the effects. By what each part touches:
 *
 * - `outbound.ts`: requests this side sends (ids, timeouts, cancellation, correlation);
 * - `inbound.ts`: everything the peer sends (gate, handlers, notifications, batches);
 * - `handshake.ts`: the two halves of `initialize`; `discovery.ts`: the modern era's `server/discover`;
 * - `keep-alive.ts`, `observer.ts`: pings, and the `inspect` stream / diagnostics channels;
 * - this file: the state, the effects, connecting and closing. `close()`: closeRequested →
 *   ShuttingDown → Terminated when the transport reports closed, or forcefully after `closeDeadlineMs`.
 */
import { AlreadyConnectedError, InvalidStateError, RequestCancelledError, SessionExpiredError, TransportError, type ConnectionClosedError } from '../errors/errors.js';
import type { JsonObject, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, RequestId } from '../jsonrpc/messages.js';
import { initialConnectionState, transition } from '../machines/connection.js';
import type { ConnectionConfig, ConnectionEffect, ConnectionEvent, ConnectionState, ConnectionStateKind, PeerInfo, Role } from '../machines/connection-types.js';
import { getRevision } from '../revisions/registry.js';
import type { TaskTransitionReport } from '../observability/events.js';
import type { Revision } from '../revisions/types.js';
import type { InboundContext, SessionExpiry, Transport, TransportCloseInfo, TransportSink } from '../transport/transport.js';
import {
  LATEST_LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  isLegacyVersion,
  isModernVersion,
  negotiateServerVersion,
  proposeVersion,
} from '../versions.js';
import { systemClock, type Clock } from './clock.js';
import { CloseTracker } from './close-tracker.js';
import { Deadlines } from './deadlines.js';
import { checkCustomParams } from './custom-methods.js';
import { negotiateEra, type NegotiateOptions, type NegotiateOutcome, type NegotiationHost } from './discovery.js';
import { answerInitialize, repeatClientHandshake, runClientHandshake, type HandshakeHost } from './handshake.js';
import { InboundDispatcher, type InboundHost } from './inbound.js';
import { startKeepAlive } from './keep-alive.js';
import { RequestLedger, type OutboundRecord, type PendingRequestView } from './ledger.js';
import { SessionObserver } from './observer.js';
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
import type { InputAnswerer } from './input-rounds.js';
import { answerInputThroughMiddleware, notifyThroughMiddleware } from './middleware-context.js';
import { OutboundRequests, abortReason, type OutboundHost } from './outbound.js';
import { notificationRefusal, requestRefusal } from './method-refusals.js';
import type { RequestIdentity } from './request-meta.js';
import { closeTransport, terminateTransport } from './transport-effects.js';

type TransitionListener = (to: ConnectionState, from: ConnectionState, event: ConnectionEvent) => void;

let sessionCounter = 0;

/** What `InboundDispatcher`, `OutboundRequests` and the handshake need from a session. */
type SessionHostObject = InboundHost & OutboundHost & HandshakeHost;
/** Set by `Session`'s static block (see there). */
let newSessionSink: (session: Session) => TransportSink;
/** Set by `Session`'s static block (see there). */
let newSessionHost: (session: Session, ledger: RequestLedger, observer: SessionObserver, supported: readonly string[]) => SessionHostObject;

/** The version lists a session derives from its supported versions; shared by every session with the same list. */
interface VersionLists {
  readonly modern: readonly string[];
  readonly legacy: readonly string[];
  /** The revisions that have a handshake: the ones `initialize` negotiates among. */
  readonly handshake: readonly string[];
  /** The version a new session's revision starts at (the newest legacy one, or the newest of all). */
  readonly initial: string;
  /** The machine's frozen config per role and `strictInitialized`, made once (`initialConnectionState` shares a frozen one). */
  readonly configs: Map<string, ConnectionConfig>;
}

// A server is dual-era by default: legacy clients get the handshake, modern requests are served statelessly.
const DUAL_ERA_VERSIONS: readonly string[] = [...LEGACY_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS];
const NO_VERSIONS: readonly string[] = [];
/** Every session answers `ping` unless it (or its shared handlers) says otherwise. */
const answerPing: RequestHandler = () => ({});
/** `#initializedSent` until a client sends it: one settled promise for every session. */
const NOTHING_SENT: Promise<void> = Promise.resolve();
/** Keyed by the supported list itself: a server passes the same list to every connection, so an idle session holds no copies. */
const versionListsCache = new WeakMap<readonly string[], VersionLists>();

/** 36⁶: the six base-36 digits of a session label's random part. */
const LABEL_SPACE = 2_176_782_336;

/**
 * Six random base-36 digits. Drawn as an integer: a fraction's `toString(36)` (the former way)
 * was half of the session constructor's own time in the handshake profile.
 */
function randomLabel(): string {
  return Math.floor(Math.random() * LABEL_SPACE)
    .toString(36)
    .padStart(6, '0');
}

function versionListsOf(supported: readonly string[]): VersionLists {
  let lists = versionListsCache.get(supported);
  if (lists === undefined) {
    lists = {
      modern: supported.filter(isModernVersion),
      legacy: supported.filter(isLegacyVersion),
      handshake: supported.filter((version) => getRevision(version)?.features.handshake ?? true),
      initial: proposeVersion(supported.some(isLegacyVersion) ? supported.filter(isLegacyVersion) : supported),
      configs: new Map(),
    };
    versionListsCache.set(supported, lists);
  }
  return lists;
}

function connectionConfigOf(versions: VersionLists, role: Role, strictInitialized: boolean): ConnectionConfig {
  const key = `${role}:${strictInitialized}`;
  let config = versions.configs.get(key);
  if (config === undefined) {
    config = Object.freeze({ role, strictInitialized, modernVersions: role === 'server' ? versions.modern : NO_VERSIONS });
    versions.configs.set(key, config);
  }
  return config;
}

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
  readonly #inbound: InboundDispatcher;
  /**
   * This session's own handlers, created on first use: most sessions answer from
   * `options.handlers` (their server's table) and `ping` alone. `undefined` marks a method
   * removed here, which hides the shared handler.
   */
  #requestHandlers: Map<string, RequestHandler | undefined> | undefined;
  #notificationHandlers: Map<string, NotificationHandler | undefined> | undefined;
  readonly #transitionListeners = new Set<TransitionListener>();
  /** What the request machinery (both directions) and the handshake need from this session. */
  readonly #host: SessionHostObject;
  #state: ConnectionState;
  #transport: Transport | undefined;
  #revision: Revision;
  #negotiated: string | undefined;
  #lastPeer: PeerInfo | undefined;
  #initializedSent: Promise<void> = NOTHING_SENT;
  /** Client: the parameters of the first handshake, sent again when the session expires. */
  #initializeParams: InitializeParams | undefined;
  /** Client, modern era: the `Implementation` stated in every request's `_meta`. */
  #clientInfo: JsonObject | undefined;
  readonly #closing: CloseTracker;

  /**
   * The host of the request machinery (`OutboundRequests`, `InboundDispatcher`) and of the
   * handshake: one object of methods per session. It was ≈40 arrow functions in three object
   * literals, ≈2.5 KB per session that an idle session (an open GET stream) kept for its life.
   * Declared in the class body so that its methods read the session's private state; a static
   * block rather than a static field, so that the class body never names `Session` (bundlers
   * would then rename the class: `Session.name` must stay `Session`).
   */
  static {
    const SessionHost = class implements InboundHost, OutboundHost, HandshakeHost {
      readonly role: Role;
      readonly clock: Clock;
      readonly options: SessionOptions;
      readonly #session: Session;

      constructor(
        session: Session,
        readonly ledger: RequestLedger,
        readonly observer: SessionObserver,
        /** The handshake negotiates among the revisions that have one. */
        readonly supported: readonly string[],
      ) {
        this.#session = session;
        this.role = session.role;
        this.clock = session.#clock;
        this.options = session.#options;
      }

      get outbound(): OutboundRequests {
        return this.#session.#outbound;
      }

      revision(): Revision {
        return this.#session.#revision;
      }

      get strictCapabilities(): boolean {
        return this.options.strictCapabilities !== false;
      }

      ownCapabilities(): JsonObject {
        return this.options.capabilities();
      }

      peerCapabilities(): JsonObject | undefined {
        return this.#session.peer?.capabilities;
      }

      protocolVersion(): string | undefined {
        return this.#session.protocolVersion;
      }

      peer(): PeerInfo | undefined {
        return this.#session.peer;
      }

      stateKind(): ConnectionStateKind {
        return this.#session.#state.kind;
      }

      canReply(): boolean {
        return this.#session.#transport !== undefined && this.#session.#state.kind !== 'terminated';
      }

      isTerminated(): boolean {
        return this.#session.#state.kind === 'terminated';
      }

      isHoldingBack(): boolean {
        return this.role === 'server' && this.#session.#state.kind === 'initializing';
      }

      isInitializing(): boolean {
        return this.#session.#state.kind === 'initializing';
      }

      gate(event: ConnectionEvent): readonly ConnectionEffect[] {
        return this.#session.#dispatch(event);
      }

      dispatch(event: ConnectionEvent): void {
        void this.#session.#dispatch(event);
      }

      bounced(method: string, kind: 'request' | 'notification'): 'hold' | 'send' | undefined {
        const type = kind === 'request' ? 'outboundRequest' : 'outboundNotification';
        const effects = this.#session.#dispatch({ type, method, waitForOperating: true });
        return effects.some(isHold) ? 'hold' : effects.some((effect) => effect.type === 'accept') ? 'send' : undefined;
      }

      write(message: JsonRpcMessage, related: RequestId | undefined): Promise<void> {
        return this.#session.#write(message, related);
      }

      requestHandler(method: string): RequestHandler | undefined {
        return this.#session.#requestHandler(method);
      }

      notificationHandler(method: string): NotificationHandler | undefined {
        const own = this.#session.#notificationHandlers;
        return own?.has(method) === true ? own.get(method) : this.options.handlers?.notificationHandler(method);
      }

      answerInitialize(message: JsonRpcRequest, context: InboundContext | undefined): void {
        void answerInitialize(this, message, context);
      }

      notify(method: string, params: JsonObject | undefined, notifyOptions?: NotificationOptions): Promise<void> {
        return this.#session.notify(method, params, notifyOptions);
      }

      sendNotification(method: string, params: JsonObject): Promise<void> {
        return this.#session.notify(method, params);
      }

      request(method: string, params: JsonObject | undefined, requestOptions: RequestOptions): Promise<JsonObject> {
        return this.#session.request(method, params, requestOptions);
      }

      closedError(message: string): ConnectionClosedError {
        return this.#session.#closing.closedError(message);
      }

      endError(): Error | undefined {
        const state = this.#session.#state;
        return state.kind === 'shuttingDown' || state.kind === 'terminated' ? state.error : undefined;
      }

      // Client, in a revision with per-request `_meta`: what every request states (digest §6.2).
      requestIdentity(): RequestIdentity | undefined {
        const session = this.#session;
        return this.role === 'client' && session.#revision.features.perRequestMeta
          ? { version: session.#revision.version, capabilities: this.options.capabilities(), clientInfo: session.#clientInfo }
          : undefined;
      }

      // A property, not a method: `OutboundRequests` passes it on as a callback.
      readonly answerInput: InputAnswerer = (method, params, context) => answerInputThroughMiddleware(this, this.#session.#requestHandler(method), method, params, context);

      get sessionId(): string {
        return this.#session.id;
      }

      get transportSessionId(): string | undefined {
        return this.#session.#transport?.sessionId;
      }

      useRevision(version: string): Revision {
        return (this.#session.#revision = revisionFor(version));
      }

      replyResult(id: JsonRpcRequest['id'], result: JsonObject): void {
        this.#session.#inbound.replyResult(id, result);
      }

      replyError(id: JsonRpcRequest['id'], code: number, message: string, data?: unknown): void {
        this.#session.#inbound.replyError(id, code, message, data);
      }
    };
    newSessionHost = (session, ledger, observer, supported) => new SessionHost(session, ledger, observer, supported);

    /** What the transport calls: methods on one object per session, not seven closures. */
    const SessionSink = class implements TransportSink {
      readonly #session: Session;

      constructor(session: Session) {
        this.#session = session;
      }

      onMessage(value: unknown, context?: InboundContext): void {
        this.#session.#inbound.receive(value, context);
      }

      onMalformed(text: string, reason: string): void {
        this.#session.#inbound.receiveMalformed(text, reason);
      }

      onError(error: Error): void {
        this.#session.#observer.diagnostic(`transport error: ${error.message}`, error);
      }

      onClose(info: TransportCloseInfo): void {
        this.#session.#onTransportClosed(info);
      }

      onUndeliverable(ids: readonly RequestId[], error: Error): void {
        this.#session.#outbound.undeliverable(ids, error);
      }

      onSessionExpired(expiry?: SessionExpiry): void {
        void this.#session.#dispatch({ type: 'sessionExpired', replacement: expiry?.replacement ?? false, answered: expiry?.answered ?? true });
      }

      onAuthorizing(active: boolean): void {
        this.#session.#outbound.pauseTimeouts(active);
      }
    };
    newSessionSink = (session) => new SessionSink(session);
  }

  constructor(options: SessionOptions) {
    this.#options = options;
    this.role = options.role;
    this.id = options.sessionId ?? `${options.role}-${++sessionCounter}-${randomLabel()}`;
    this.#clock = options.clock ?? systemClock;
    this.#supported = options.supportedVersions ?? (options.role === 'server' ? DUAL_ERA_VERSIONS : LEGACY_PROTOCOL_VERSIONS);
    const versions = versionListsOf(this.#supported);
    this.#state = initialConnectionState(connectionConfigOf(versions, options.role, options.strictInitialized ?? false));
    this.#revision = revisionFor(versions.initial);
    const observer = (this.#observer = new SessionObserver(this.id, this.#clock, options.inspect));
    const ledger = (this.#ledger = new RequestLedger({
      memory: options.settledMemory ?? 1024,
      deadlines: new Deadlines<OutboundRecord>(this.#clock),
      listener: observer,
    }));
    const host = (this.#host = newSessionHost(this, ledger, observer, versions.handshake));
    this.#outbound = new OutboundRequests(host);
    this.#inbound = new InboundDispatcher(host);
    this.#closing = new CloseTracker(options, this.#clock, observer);
    if (options.keepAlive !== undefined) {
      startKeepAlive(
        {
          clock: this.#clock,
          state: () => this.#state,
          ping: (timeoutMs) => this.#request('ping', undefined, { timeoutMs }, false), // housekeeping: never keeps the process alive
          onTransition: (listener) => void this.onTransition(listener),
          diagnostic: (message, detail) => observer.diagnostic(message, detail),
          fail: (error) => void this.#dispatch({ type: 'fatalError', error }),
        },
        options.keepAlive,
      );
    }
  }

  // ------------------------------------------------------------------ public state

  /** Resolves once, when the session reaches Terminated (the same promise on every read). */
  get closed(): Promise<CloseInfo> {
    return this.#closing.closed;
  }

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
    return this.#closing.info;
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
    this.#transitionListeners.add(listener);
    return () => this.#transitionListeners.delete(listener);
  }

  /** Answers inbound requests for `method` with `handler`; replaces an earlier handler. */
  setRequestHandler(method: string, handler: RequestHandler): void {
    (this.#requestHandlers ??= new Map()).set(method, handler);
  }

  /** Stops answering `method`: later requests get -32601. */
  removeRequestHandler(method: string): void {
    this.#requestHandlers?.delete(method);
    // A shared handler (or the built-in `ping`) would still answer: hide it.
    if (this.#requestHandler(method) !== undefined) (this.#requestHandlers ??= new Map()).set(method, undefined);
  }

  /** Handles inbound notifications `method` with `handler`; replaces an earlier handler. */
  setNotificationHandler(method: string, handler: NotificationHandler): void {
    (this.#notificationHandlers ??= new Map()).set(method, handler);
  }

  /** Stops handling the notification `method` (later ones are ignored). */
  removeNotificationHandler(method: string): void {
    this.#notificationHandlers?.delete(method);
    if (this.#options.handlers?.notificationHandler(method) !== undefined) (this.#notificationHandlers ??= new Map()).set(method, undefined);
  }

  /** This session's own handler of `method`, else the shared one, else the built-in `ping`. */
  #requestHandler(method: string): RequestHandler | undefined {
    const own = this.#requestHandlers;
    if (own?.has(method) === true) return own.get(method);
    return this.#options.handlers?.requestHandler(method) ?? (method === 'ping' ? answerPing : undefined);
  }

  /**
   * Stops delivering progress for a task whose request returned a CreateTaskResult (rule 49);
   * a terminal `notifications/tasks/status` does the same by itself.
   */
  releaseTaskProgress(taskId: string): void {
    this.#ledger.releaseTask(taskId);
  }

  /**
   * Publishes a task's move as a `task.transition` inspect event of this session (the
   * `inspect` listener and the `statemcp:task.transition` channel). `build` runs only when
   * someone listens, so an uninspected session does no work for it.
   */
  reportTaskTransition(build: () => TaskTransitionReport): void {
    this.#observer.task(build);
  }

  // ------------------------------------------------------------------ connecting

  /** Attaches the transport and starts it. A second call throws `AlreadyConnectedError`. */
  async connect(transport: Transport): Promise<void> {
    if (this.#transport !== undefined) throw new AlreadyConnectedError('This session already has a transport; create a new session to connect again');
    if (this.#state.kind === 'terminated') throw new InvalidStateError('The session has terminated; create a new one', this.#state.kind);
    this.#transport = transport;
    const sink = newSessionSink(this);
    const assumed = transport.assumedProtocolVersion;
    if (assumed !== undefined && this.role === 'server') {
      const version = negotiateServerVersion(assumed, this.#supported);
      this.#revision = revisionFor(version);
      this.#dispatch({ type: 'sessionAssumed', version, peer: { capabilities: {}, info: { name: 'unknown', version: 'unknown' } } });
    }
    const adopted = transport.adoptedSession;
    if (adopted !== undefined && assumed === undefined && this.role === 'server') {
      const version = negotiateServerVersion(adopted.protocolVersion, this.#supported);
      this.#revision = revisionFor(version);
      this.#dispatch({ type: 'sessionAdopted', version, peer: adopted.peer });
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
    this.#initializeParams = params;
    const outcome = await runClientHandshake(this.#host, params, params.protocolVersion ?? proposeVersion(this.#host.supported), options);
    if (!outcome.ok) {
      await this.closed;
      throw outcome.error;
    }
    await this.#initializedSent;
    return outcome.result;
  }

  /**
   * Client: agrees on an era with the server (digest §5.4; see `discovery.ts`). `era: 'auto'`
   * (default) discovers at the newest modern version in `supportedVersions` and falls back to
   * {@link initialize} on a legacy server; `'modern'` never falls back; `'legacy'` skips discovery.
   *
   * @example
   * ```ts
   * const agreed = await client.negotiate({ capabilities: {}, clientInfo: { name: 'c', version: '1' } });
   * console.log(agreed.era, client.protocolVersion); // 'modern' '2026-07-28' against a modern server
   * ```
   */
  async negotiate(params: InitializeParams, options: NegotiateOptions = {}): Promise<NegotiateOutcome> {
    if (this.role !== 'client') throw new InvalidStateError('Only a client negotiates an era', this.#state.kind);
    this.#clientInfo = params.clientInfo;
    return negotiateEra(new SessionNegotiation(this, this.#host, this.#supported, this.#options.discoveryTimeoutMs, this.#transport?.answersUntilClosed === true), params, options);
  }

  // ------------------------------------------------------------------ outbound

  /**
   * Sends a request and resolves with its (validated) result. Rejects with a typed error:
   * `RequestTimeoutError`, `RequestCancelledError`, `ConnectionClosedError`, `JsonRpcError`
   * (the peer's error reply), `CapabilityNotSupportedError`, `InvalidStateError`.
   */
  request(method: string, params?: JsonObject, options: RequestOptions = {}): Promise<JsonObject> {
    const schema = options.custom?.params;
    if (schema === undefined) return this.#request(method, params, options, true);
    return checkCustomParams(method, schema, params).then((checked) => this.#request(method, checked, options, true));
  }

  #request(method: string, params: JsonObject | undefined, options: RequestOptions, awaited: boolean): Promise<JsonObject> {
    const transport = this.#transport;
    if (transport === undefined) return Promise.reject(new InvalidStateError('Not connected: call connect(transport) first', this.#state.kind));
    const effects = this.#dispatch(options.waitForOperating === true ? { type: 'outboundRequest', method, waitForOperating: true } : { type: 'outboundRequest', method });
    const held = effects.some(isHold);
    const refused = held ? undefined : (this.#refusal(effects) ?? requestRefusal(this.#host, method, options, transport));
    if (refused !== undefined) return Promise.reject(refused);
    if (options.signal?.aborted === true) {
      return Promise.reject(new RequestCancelledError(`${method} was cancelled before it was sent`, { reason: abortReason(options.signal) }));
    }
    return this.#outbound.send(method, params, options, held, awaited);
  }

  /** Sends a notification. Rejects with a typed error when the state or capabilities forbid it. */
  async notify(method: string, params?: JsonObject, options: NotificationOptions = {}): Promise<void> {
    if (this.#transport === undefined) throw new InvalidStateError('Not connected: call connect(transport) first', this.#state.kind);
    const effects = this.#dispatch({ type: 'outboundNotification', method });
    const held = effects.some(isHold);
    const refused = this.#refusal(effects) ?? notificationRefusal(this.#host, method, options);
    if (refused !== undefined) throw refused;
    const schema = options.custom?.params;
    if (schema !== undefined) params = await checkCustomParams(method, schema, params);
    const message: JsonRpcNotification = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    const chain = this.#options.middleware?.for(method);
    if (chain === undefined || chain.length === 0) return this.#sendNotification(message, options.relatedRequestId, held);
    await notifyThroughMiddleware(chain, this.#host, message, this.protocolVersion, () => this.#sendNotification(message, options.relatedRequestId, held));
  }

  /**
   * Writes a notification, or holds it in the ledger when the machine said so. One the
   * transport bounced because the server forgot the session goes back through the machine:
   * held while the session is being replaced, sent again once it is, else the sender hears why.
   */
  #sendNotification(message: JsonRpcNotification, relatedRequestId: RequestId | undefined, held: boolean): Promise<void> {
    if (held) return new Promise((resolve, reject) => this.#ledger.hold({ kind: 'notification', message, relatedRequestId, resolve, reject }));
    // Only a client's transport bounces (a server's sessions are its own): no promise of ours per notification on a server.
    if (this.role === 'server') return this.#write(message, relatedRequestId);
    return this.#write(message, relatedRequestId).catch((error: unknown) => {
      const again = error instanceof SessionExpiredError ? this.#host.bounced(message.method, 'notification') : undefined;
      if (again === undefined) throw error;
      return this.#sendNotification(message, relatedRequestId, again === 'hold');
    });
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

  // ------------------------------------------------------------------ the machine and its effects

  /** Applies `event` to the connection machine, runs its effects and returns the gate's (an accepted message's step allocates none). */
  #dispatch(event: ConnectionEvent): readonly ConnectionEffect[] {
    const from = this.#state;
    const { state, effects } = transition(from, event);
    this.#state = state;
    if (state.kind !== from.kind) this.#emitTransition(from, state, event);
    let performed = false;
    for (const effect of effects) {
      if (isGateEffect(effect)) continue; // the gate's: returned to the caller
      switch (effect.type) {
        case 'releaseOutbound':
          // After notifications/initialized has gone out (its send is the one in progress, read once this step is
          // over): nothing may overtake it. With nothing held there is nothing to release (and no promise hop to wait).
          if (this.#ledger.holding) queueMicrotask(() => void this.#initializedSent.catch(() => undefined).then(() => this.#releaseHeld()));
          break;
        case 'replayDeferred':
          // After the current step: the initialize reply is handed to the transport first.
          queueMicrotask(() => this.#inbound.replayDeferred());
          break;
        case 'negotiated':
          this.#negotiated = effect.version;
          if (this.#revision.version !== effect.version) this.#revision = revisionFor(effect.version);
          if (state.kind === 'initialized') this.#lastPeer = state.peer;
          this.#transport?.setProtocolVersion?.(effect.version);
          break;
        case 'sendInitialized':
          this.#initializedSent = this.notify('notifications/initialized');
          this.#initializedSent.catch((error: unknown) => this.#observer.diagnostic('could not send notifications/initialized', error));
          break;
        case 'reinitialize':
          void repeatClientHandshake(this.#host, state, this.#initializeParams);
          break;
        case 'settleOutbound':
          this.#outbound.settleAll(effect.notify);
          break;
        case 'abortInbound':
          this.#inbound.abortAll(() => this.#closing.closedError('The connection closed'));
          break;
        case 'closeTransport':
          this.#closeTransport();
          break;
        case 'terminateTransport':
          this.#terminateTransport();
          break;
        case 'armCloseDeadline':
          this.#closing.armDeadline(() => this.#dispatch({ type: 'closeDeadlineExpired' }));
          break;
        case 'dispatch':
          this.#dispatch(effect.event);
          break;
        case 'finalize':
          this.#finalize();
          break;
      }
      performed = true;
    }
    return performed ? effects.filter(isGateEffect) : effects;
  }

  /** Runs an outbound gate event; returns the local error to throw when refused, else undefined. */
  #gate(event: Extract<ConnectionEvent, { type: 'outboundRequest' | 'outboundNotification' }>): Error | undefined {
    return this.#refusal(this.#dispatch(event));
  }

  /** The local error of a gate's `refuseOutbound` effect, if it refused. */
  #refusal(effects: readonly ConnectionEffect[]): Error | undefined {
    for (const effect of effects) {
      if (effect.type === 'refuseOutbound') {
        return effect.error === 'connectionClosed' ? this.#closing.closedError(effect.message) : new InvalidStateError(effect.message, this.#state.kind);
      }
    }
    return undefined;
  }

  /**
   * The ledger's held messages go out in the order they were held: each request passes the gate
   * and the capability checks again now that the session is Operating, each notification the gate.
   */
  #releaseHeld(): void {
    const transport = this.#transport;
    if (transport === undefined) return;
    const admit = (method: string, options: RequestOptions): Error | undefined => this.#gate({ type: 'outboundRequest', method }) ?? requestRefusal(this.#host, method, options, transport);
    for (const entry of this.#ledger.takeHeld()) {
      if (entry.kind === 'request') {
        this.#outbound.releaseHeld(entry, admit);
        continue;
      }
      const refused = this.#gate({ type: 'outboundNotification', method: entry.message.method });
      if (refused !== undefined) entry.reject(refused);
      else this.#sendNotification(entry.message, entry.relatedRequestId, false).then(entry.resolve, entry.reject);
    }
  }

  #emitTransition(from: ConnectionState, to: ConnectionState, event: ConnectionEvent): void {
    for (const listener of this.#transitionListeners) {
      try {
        listener(to, from, event);
      } catch (error) {
        this.#observer.diagnostic('transition listener threw', error);
      }
    }
    this.#observer.transition(from, to, event);
  }

  #closeTransport(): void {
    closeTransport(this.#transport, this.#outbound.cancelsInFlight(), this.#observer, (event) => void this.#dispatch(event));
  }

  #terminateTransport(): void {
    terminateTransport(this.#transport, this.#observer);
  }

  #finalize(): void {
    if (this.#closing.info !== undefined) return;
    this.#inbound.dropDeferred();
    this.#ledger.releaseAllTasks();
    this.#closing.finalize(this.#state);
  }

  #onTransportClosed(info: TransportCloseInfo): void {
    this.#dispatch(this.#closing.transportClosed(info));
  }

  /** The transport's own promise (no async frame of ours per message); every failure rejects it. */
  #write(message: JsonRpcMessage, relatedRequestId: RequestId | undefined): Promise<void> {
    const transport = this.#transport;
    if (transport === undefined) return Promise.reject(new InvalidStateError('Not connected', this.#state.kind));
    try {
      this.#observer.messageOut(message);
      return transport.send(message, relatedRequestId !== undefined ? { relatedRequestId } : undefined);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

function revisionFor(version: string): Revision {
  const revision = getRevision(version) ?? getRevision(LATEST_LEGACY_PROTOCOL_VERSION);
  if (revision === undefined) throw new Error(`No revision registered for ${version}`);
  return revision;
}

type GateEffect = Extract<ConnectionEffect, { type: 'accept' | 'rejectInbound' | 'refuseOutbound' | 'dropInbound' | 'deferInbound' | 'holdOutbound' | 'ignore' }>;

/** What `negotiateEra` needs from a session: one object per negotiation, its methods on the prototype (no closure each). */
class SessionNegotiation implements NegotiationHost {
  readonly #session: Session;
  readonly #host: SessionHostObject;
  readonly closed: Promise<unknown>;

  constructor(
    session: Session,
    host: SessionHostObject,
    readonly supported: readonly string[],
    readonly discoveryTimeoutMs: number | undefined,
    readonly discoveryAwaitsAnswer: boolean,
  ) {
    this.#session = session;
    this.#host = host;
    this.closed = session.closed;
  }

  useRevision(version: string): Revision {
    return this.#host.useRevision(version);
  }

  dispatch(event: ConnectionEvent): void {
    this.#host.dispatch(event);
  }

  request(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject> {
    return this.#host.request(method, params, options);
  }

  initialize(params: InitializeParams, options: RequestOptions): Promise<InitializeResultShape> {
    return this.#session.initialize(params, options);
  }

  now(): number {
    return this.#host.clock.now();
  }

  get timeoutsRestartedAt(): number {
    return this.#host.outbound.timeoutsRestartedAt;
  }
}

/** The effects a gate returns to its caller (the others the session performs itself). */
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
