/**
 * The session runner: drives one Transport with the connection machine and the request
 * ledger. It owns ids, O(1) correlation, timeouts (reset on progress under a hard maximum),
 * cancellation both ways, ping, the handshake, and a close that always finishes. It decides
 * nothing about the lifecycle itself: every decision is a `transition()` of the connection
 * machine, and the runner only performs the effects.
 *
 * ```
 *  close() ─▶ closeRequested ─▶ ShuttingDown ─┬─ transport reports closed ─▶ Terminated
 *                                               └─ closeDeadlineMs passes ───▶ Terminated (transport terminated)
 * ```
 */
import {
  AlreadyConnectedError,
  CapabilityNotSupportedError,
  ConnectionClosedError,
  InvalidArgumentError,
  InvalidResultError,
  InvalidStateError,
  JsonRpcError,
  NoReturnChannelError,
  RequestCancelledError,
  RequestTimeoutError,
  TransportError,
  UnsupportedProtocolVersionError,
  toWireError,
} from '../errors/errors.js';
import {
  ErrorCode,
  classifyMessage,
  errorResponse,
  isJsonObject,
  isRequestId,
  type JsonObject,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResultResponse,
  type RequestId,
} from '../jsonrpc/messages.js';
import { initialConnectionState, transition } from '../machines/connection.js';
import type { ConnectionEffect, ConnectionEvent, ConnectionState, PeerInfo, Role } from '../machines/connection-types.js';
import type { RequestEventType, RequestStateKind } from '../machines/request.js';
import type { InspectEvent } from '../observability/events.js';
import { hasDiagnosticSubscribers, publishDiagnostic } from '../observability/diagnostics.js';
import { capabilityFor, capabilityName, hasCapability } from '../capabilities/table.js';
import { getRevision, hasFeature } from '../revisions/registry.js';
import type { Revision } from '../revisions/types.js';
import type { InboundContext, Transport, TransportCloseInfo, TransportSink } from '../transport/transport.js';
import { LATEST_LEGACY_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSIONS, acceptServerVersion, negotiateServerVersion, proposeVersion } from '../versions.js';
import { systemClock, type Clock } from './clock.js';
import { RequestLedger, type InboundRecord, type LedgerRecord, type OutboundRecord, type PendingRequestView, type ProgressUpdate } from './ledger.js';
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
import { formatIssues } from './validation.js';
import { HandlerContext, type HandlerContextHost } from './handler-context.js';

const DEFAULT_TIMEOUT_MS = 60_000;
const TERMINAL_TASK_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);
const DEFAULT_CLOSE_DEADLINE_MS = 10_000;

type TransitionListener = (to: ConnectionState, from: ConnectionState, event: ConnectionEvent) => void;

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
  readonly #ledger: RequestLedger;
  readonly #requestHandlers = new Map<string, RequestHandler>();
  readonly #notificationHandlers = new Map<string, NotificationHandler>();
  readonly #transitionListeners = new Set<TransitionListener>();
  #state: ConnectionState;
  #transport: Transport | undefined;
  #revision: Revision;
  #nextId = 0;
  #closeDeadline: ReturnType<Clock['setTimeout']> | undefined;
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
    this.#revision = this.#revisionFor(proposeVersion(this.#supported));
    this.#ledger = new RequestLedger({
      memory: options.settledMemory ?? 1024,
      clearTimer: (handle) => this.#clock.clearTimeout(handle),
      listener: (record, from, event) => this.#onRequestTransition(record, from, event),
    });
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.setRequestHandler('ping', () => ({}));
    if (options.keepAlive !== undefined) this.#setUpKeepAlive(options.keepAlive);
  }

  #setUpKeepAlive(keepAlive: NonNullable<SessionOptions['keepAlive']>): void {
    let timer: ReturnType<Clock['setTimeout']> | undefined;
    let failures = 0;
    const schedule = () => {
      timer = this.#clock.setTimeout(() => {
        timer = undefined;
        // A keep-alive ping is housekeeping: neither its interval nor its timeout keeps the process alive.
        this.#request('ping', undefined, { timeoutMs: keepAlive.timeoutMs ?? keepAlive.intervalMs }, false).then(
          () => {
            failures = 0;
            if (this.#state.kind === 'operating') schedule();
          },
          (error: unknown) => {
            if (this.#state.kind !== 'operating') return;
            failures++;
            this.#diagnostic(`keep-alive ping failed (${failures})`, error);
            if (failures >= (keepAlive.maxFailures ?? 1)) {
              this.#dispatch({ type: 'fatalError', error: new ConnectionClosedError('The peer stopped answering pings', { cause: error }) });
            } else {
              schedule();
            }
          },
        );
      }, keepAlive.intervalMs);
    };
    this.onTransition((to) => {
      if (to.kind === 'operating' && timer === undefined) schedule();
      if ((to.kind === 'shuttingDown' || to.kind === 'terminated') && timer !== undefined) {
        this.#clock.clearTimeout(timer);
        timer = undefined;
      }
    });
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
  #negotiated: string | undefined;

  /** What the peer declared in the handshake, once known. */
  get peer(): PeerInfo | undefined {
    return this.#state.kind === 'initialized' || this.#state.kind === 'operating' ? this.#state.peer : this.#lastPeer;
  }
  #lastPeer: PeerInfo | undefined;

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
    this.#transitionListeners.add(listener);
    return () => this.#transitionListeners.delete(listener);
  }

  setRequestHandler(method: string, handler: RequestHandler): void {
    this.#requestHandlers.set(method, handler);
  }

  removeRequestHandler(method: string): void {
    this.#requestHandlers.delete(method);
  }

  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.#notificationHandlers.set(method, handler);
  }

  removeNotificationHandler(method: string): void {
    this.#notificationHandlers.delete(method);
  }

  // ------------------------------------------------------------------ connecting

  /** Attaches the transport and starts it. A second call throws `AlreadyConnectedError`. */
  async connect(transport: Transport): Promise<void> {
    if (this.#transport !== undefined) throw new AlreadyConnectedError('This session already has a transport; create a new session to connect again');
    if (this.#state.kind === 'terminated') throw new InvalidStateError('The session has terminated; create a new one', this.#state.kind);
    this.#transport = transport;
    const sink: TransportSink = {
      onMessage: (value, context) => this.#receive(value, context),
      onMalformed: (text, reason) => this.#receiveMalformed(text, reason),
      onError: (error) => this.#diagnostic(`transport error: ${error.message}`, error),
      onClose: (info) => this.#onTransportClosed(info),
      onUndeliverable: (ids, error) => this.#onUndeliverable(ids, error),
    };
    const assumed = transport.assumedProtocolVersion;
    if (assumed !== undefined && this.role === 'server') {
      const version = negotiateServerVersion(assumed, this.#supported);
      this.#revision = this.#revisionFor(version);
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
    const proposed = params.protocolVersion ?? proposeVersion(this.#supported);
    this.#revision = this.#revisionFor(proposed);
    let result: JsonObject;
    try {
      result = await this.request('initialize', { ...params, protocolVersion: proposed }, options);
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      this.#dispatch({ type: 'initializeFailed', reason: 'initializeFailed', error: failure });
      await this.closed;
      throw failure;
    }
    const answered = typeof result.protocolVersion === 'string' ? result.protocolVersion : '';
    let version: string;
    try {
      version = acceptServerVersion(answered, this.#supported);
    } catch (error) {
      const failure = error instanceof UnsupportedProtocolVersionError ? error : new UnsupportedProtocolVersionError(answered, this.#supported);
      this.#dispatch({ type: 'initializeFailed', reason: 'versionMismatch', error: failure });
      await this.closed;
      throw failure;
    }
    this.#revision = this.#revisionFor(version);
    const parsed = this.#revision.schemas.InitializeResult.safeParse(result);
    if (!parsed.success) {
      const failure = new InvalidResultError(`Invalid InitializeResult: ${formatIssues(parsed.error)}`);
      this.#dispatch({ type: 'initializeFailed', reason: 'initializeFailed', error: failure });
      await this.closed;
      throw failure;
    }
    const shaped = parsed.data as InitializeResultShape;
    const peer: PeerInfo =
      typeof shaped.instructions === 'string'
        ? { capabilities: shaped.capabilities, info: shaped.serverInfo, instructions: shaped.instructions }
        : { capabilities: shaped.capabilities, info: shaped.serverInfo };
    this.#dispatch({ type: 'initializeSucceeded', version, peer });
    await this.#initializedSent;
    return shaped;
  }
  #initializedSent: Promise<void> = Promise.resolve();

  // ------------------------------------------------------------------ outbound

  /**
   * Sends a request and resolves with its (validated) result. Rejects with a typed error:
   * `RequestTimeoutError`, `RequestCancelledError`, `ConnectionClosedError`, `JsonRpcError`
   * (the peer's error reply), `CapabilityNotSupportedError`, `InvalidStateError`.
   */
  request(method: string, params?: JsonObject, options: RequestOptions = {}): Promise<JsonObject> {
    return this.#request(method, params, options, true);
  }

  /** `keepAlive`: whether this request's timers keep the process alive (false only for keep-alive pings). */
  #request(method: string, params: JsonObject | undefined, options: RequestOptions, keepAlive: boolean): Promise<JsonObject> {
    const transport = this.#transport;
    if (transport === undefined) return Promise.reject(new InvalidStateError('Not connected: call connect(transport) first', this.#state.kind));
    const gate = this.#gate({ type: 'outboundRequest', method });
    if (gate !== undefined) return Promise.reject(gate);
    const refusal = this.#checkOutboundRequest(method, options, transport);
    if (refusal !== undefined) return Promise.reject(refusal);
    if (options.signal?.aborted === true) {
      return Promise.reject(new RequestCancelledError(`${method} was cancelled before it was sent`, { reason: abortReason(options.signal) }));
    }

    const id = ++this.#nextId;
    const progressToken = options.onProgress !== undefined ? id : undefined;
    let outParams: JsonObject | undefined = params;
    if (progressToken !== undefined) {
      const meta = isJsonObject(params?._meta) ? params._meta : {};
      outParams = { ...params, _meta: { ...meta, progressToken } };
    }
    const parent = options.relatedRequestId !== undefined ? this.#ledger.inbound(options.relatedRequestId) : undefined;
    return new Promise<JsonObject>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? this.#options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
      // A nested request marks its parent handler as waiting for input until it settles.
      const release =
        parent === undefined
          ? undefined
          : () => {
              parent.waitingOn--;
              if (parent.waitingOn === 0) this.#ledger.move(parent, 'inputReceived');
            };
      const record: OutboundRecord = {
        direction: 'outbound',
        id,
        method,
        startedAt: this.#clock.now(),
        state: 'created',
        resolve: release === undefined ? resolve : (result) => (release(), resolve(result)),
        reject: release === undefined ? reject : (error) => (release(), reject(error)),
        progressToken,
        onProgress: options.onProgress,
        timeoutMs,
        maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? this.#options.maxTotalTimeoutMs,
        resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? this.#options.resetTimeoutOnProgress ?? true,
        taskAugmented: isJsonObject(params?.task),
        keepAlive,
        timer: undefined,
        maxTimer: undefined,
        detach: undefined,
      };
      this.#ledger.addOutbound(record);
      this.#onRequestTransition(record, 'created', 'dispatch', true);
      if (parent !== undefined) {
        parent.waitingOn++;
        this.#ledger.move(parent, 'awaitInput');
      }
      this.#armTimeout(record);
      if (record.maxTotalTimeoutMs !== undefined) {
        const max = record.maxTotalTimeoutMs;
        record.maxTimer = this.#clock.setTimeout(() => this.#expire(record, max, true), max, { keepAlive });
      }
      const signal = options.signal;
      if (signal !== undefined) {
        const onAbort = () => this.#cancelOutbound(record, abortReason(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        record.detach = () => signal.removeEventListener('abort', onAbort);
      }
      const message: JsonRpcRequest = { jsonrpc: '2.0', id, method };
      if (outParams !== undefined) message.params = outParams;
      this.#ledger.move(record, 'dispatch');
      this.#write(message, options.relatedRequestId).catch((error: unknown) => {
        this.#ledger.settle(record, {
          event: 'fail',
          error: new TransportError(`Failed to send ${method}: ${error instanceof Error ? error.message : String(error)}`, { cause: error }),
        });
      });
    });
  }

  /** Sends a notification. Rejects with a typed error when the state or capabilities forbid it. */
  async notify(method: string, params?: JsonObject, options: NotificationOptions = {}): Promise<void> {
    if (this.#transport === undefined) throw new InvalidStateError('Not connected: call connect(transport) first', this.#state.kind);
    const gate = this.#gate({ type: 'outboundNotification', method });
    if (gate !== undefined) throw gate;
    if (method !== 'notifications/cancelled' && method !== 'notifications/initialized') {
      if (this.#revision.notifications[method] === undefined && !method.startsWith('notifications/experimental')) {
        throw new CapabilityNotSupportedError(method, `protocol revision ${this.#revision.version}`, 'local', {
          message: `${method} does not exist in protocol revision ${this.#revision.version}`,
        });
      }
      const requirement = capabilityFor(method, this.#revision.version, this.#peerRole());
      if (this.#strict() && requirement !== undefined && requirement.holder === this.role && !hasCapability(this.#options.capabilities(), requirement.path)) {
        throw new CapabilityNotSupportedError(method, capabilityName(requirement.path), 'local');
      }
    }
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

  // ------------------------------------------------------------------ the machine

  #dispatch(event: ConnectionEvent): ConnectionEffect[] {
    const from = this.#state;
    const { state, effects } = transition(from, event);
    this.#state = state;
    if (state.kind !== from.kind) this.#emitTransition(from, state, event);
    const gateEffects: ConnectionEffect[] = [];
    for (const effect of effects) {
      switch (effect.type) {
        case 'accept':
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
          break;
        case 'settleOutbound':
          this.#settleAllOutbound(effect.notify);
          break;
        case 'abortInbound':
          this.#abortAllInbound();
          break;
        case 'closeTransport':
          this.#closeTransport();
          break;
        case 'terminateTransport':
          this.#terminateTransport();
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

  /** Runs a gate event; returns the local error to throw when refused, else undefined. */
  #gate(event: Extract<ConnectionEvent, { type: 'outboundRequest' | 'outboundNotification' }>): Error | undefined {
    for (const effect of this.#dispatch(event)) {
      if (effect.type === 'refuseOutbound') {
        return effect.error === 'connectionClosed' ? this.#closedError(effect.message) : new InvalidStateError(effect.message, this.#state.kind);
      }
    }
    return undefined;
  }

  #emitTransition(from: ConnectionState, to: ConnectionState, event: ConnectionEvent): void {
    for (const listener of this.#transitionListeners) {
      try {
        listener(to, from, event);
      } catch (error) {
        this.#diagnostic('transition listener threw', error);
      }
    }
    this.#inspect('session.transition', () => ({ type: 'session.transition', sessionId: this.id, at: this.#clock.now(), from: from.kind, to: to.kind, event: event.type }));
  }

  #onRequestTransition(record: LedgerRecord, from: RequestStateKind, event: RequestEventType, created = false): void {
    this.#inspect('request.transition', () => ({
      type: 'request.transition',
      sessionId: this.id,
      at: this.#clock.now(),
      requestId: record.id,
      direction: record.direction,
      method: record.method,
      from: created ? 'created' : from,
      to: created ? 'created' : record.state,
      event,
      elapsedMs: this.#clock.now() - record.startedAt,
    }));
  }

  #inspect(type: InspectEvent['type'], build: () => InspectEvent): void {
    const listener = this.#options.inspect;
    if (listener === undefined && !hasDiagnosticSubscribers(type)) return;
    const event = build();
    publishDiagnostic(event);
    if (listener !== undefined) {
      try {
        listener(event);
      } catch {
        // an inspector must never break the session
      }
    }
  }

  #diagnostic(message: string, detail?: unknown): void {
    this.#inspect('diagnostic', () => ({ type: 'diagnostic', sessionId: this.id, at: this.#clock.now(), message, detail }));
  }

  // ------------------------------------------------------------------ effects

  #settleAllOutbound(notify: boolean): void {
    for (const record of this.#ledger.pendingOutbound()) {
      if (notify && this.#cancellable(record)) this.#sendCancel(record.id, 'The connection is closing');
      this.#ledger.settle(record, { event: 'abort', error: this.#closedError(`${record.method} did not complete: the connection closed`) });
    }
  }

  #abortAllInbound(): void {
    for (const record of this.#ledger.pendingInbound()) {
      this.#ledger.move(record, 'abort');
      record.controller.abort(this.#closedError('The connection closed'));
    }
  }

  /** Cancel notifications on their way out; the transport closes only once they are sent. */
  readonly #cancelsInFlight = new Set<Promise<void>>();

  #closeTransport(): void {
    const transport = this.#transport;
    if (transport === undefined) {
      this.#dispatch({ type: 'transportClosed', initiator: 'local' });
      return;
    }
    // Let the cancellations reach the wire first (an HTTP transport aborts POSTs in flight
    // when it closes); the close deadline still bounds the whole shutdown.
    Promise.allSettled([...this.#cancelsInFlight])
      .then(() => transport.close())
      .then(
      () => this.#dispatch({ type: 'transportClosed', initiator: 'local' }),
      (error: unknown) => {
        this.#diagnostic('transport close failed', error);
        this.#dispatch({ type: 'transportClosed', initiator: 'error', error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
  }

  #terminateTransport(): void {
    const transport = this.#transport;
    if (transport === undefined) return;
    const end = transport.terminate?.() ?? transport.close();
    end.catch((error: unknown) => this.#diagnostic('transport terminate failed', error));
  }

  #finalize(): void {
    if (this.#closeInfo !== undefined) return;
    this.#taskProgress.clear();
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
      this.#diagnostic('onclose threw', err);
    }
  }

  #onTransportClosed(info: TransportCloseInfo): void {
    this.#closeCause = { info };
    this.#dispatch(info.error !== undefined ? { type: 'transportClosed', initiator: info.initiator, error: info.error } : { type: 'transportClosed', initiator: info.initiator });
  }

  #closedError(message: string): ConnectionClosedError {
    const info = this.#closeCause.info;
    const details = info?.details;
    const cause = info?.error;
    return new ConnectionClosedError(message, {
      ...(details !== undefined ? { details } : {}),
      ...(cause !== undefined ? { cause } : {}),
    });
  }

  // ------------------------------------------------------------------ outbound helpers

  #checkOutboundRequest(method: string, options: RequestOptions, transport: Transport): Error | undefined {
    if (method === 'initialize' || method === 'ping') return undefined;
    const spec = this.#revision.requests[method];
    if (spec === undefined) {
      return new CapabilityNotSupportedError(method, `protocol revision ${this.#revision.version}`, 'peer', {
        message: `${method} does not exist in the negotiated protocol revision ${this.#revision.version}`,
      });
    }
    if (spec.direction !== 'both' && spec.direction !== (this.role === 'client' ? 'clientToServer' : 'serverToClient')) {
      return new InvalidStateError(`A ${this.role} cannot send ${method}`, this.#state.kind);
    }
    if (this.role === 'server' && transport.canSendRequests === false) {
      return new NoReturnChannelError(`Cannot send ${method}: this transport has no channel for server-to-client requests`);
    }
    if (options.skipCapabilityCheck === true || !this.#strict()) return undefined;
    const requirement = capabilityFor(method, this.#revision.version, this.#peerRole());
    if (requirement !== undefined && requirement.holder !== this.role) {
      const peerCaps = this.peer?.capabilities;
      if (!hasCapability(peerCaps, requirement.path)) return new CapabilityNotSupportedError(method, capabilityName(requirement.path), 'peer');
    }
    return undefined;
  }

  #armTimeout(record: OutboundRecord): void {
    if (record.timer !== undefined) this.#clock.clearTimeout(record.timer);
    record.timer = this.#clock.setTimeout(() => this.#expire(record, record.timeoutMs, false), record.timeoutMs, { keepAlive: record.keepAlive });
  }

  #expire(record: OutboundRecord, ms: number, maximum: boolean): void {
    if (this.#ledger.outbound(record.id) !== record) return;
    if (this.#cancellable(record)) this.#sendCancel(record.id, maximum ? `Timed out after the ${ms} ms maximum` : `Timed out after ${ms} ms`);
    this.#ledger.settle(record, { event: 'expire', error: new RequestTimeoutError(record.id, ms, { maximum }) });
  }

  /**
   * The transport cannot deliver these requests, or their responses can no longer arrive:
   * each still pending settles with a local `TransportError` (category `interrupted`) whose
   * cause is the transport's error. Ids already settled or unknown are ignored.
   */
  #onUndeliverable(ids: readonly RequestId[], error: Error): void {
    for (const id of ids) {
      const record = this.#ledger.outbound(id);
      if (record === undefined) continue;
      this.#ledger.settle(record, {
        event: 'abort',
        error: new TransportError(`${record.method} could not be delivered or answered: ${error.message}`, { cause: error }),
      });
    }
  }

  #cancelOutbound(record: OutboundRecord, reason: string): void {
    if (this.#ledger.outbound(record.id) !== record) return;
    if (this.#cancellable(record)) this.#sendCancel(record.id, reason);
    this.#ledger.settle(record, { event: 'cancel', error: new RequestCancelledError(`${record.method} was cancelled: ${reason}`, { reason }) });
  }

  /** `initialize` is never cancelled (rule 25); task-augmented requests use `tasks/cancel` (rule 43). */
  #cancellable(record: OutboundRecord): boolean {
    return record.method !== 'initialize' && !record.taskAugmented;
  }

  #sendCancel(requestId: RequestId, reason: string): void {
    const sending = this.notify('notifications/cancelled', { requestId, reason })
      .catch((error: unknown) => {
        this.#diagnostic('could not send notifications/cancelled', error);
      })
      .finally(() => this.#cancelsInFlight.delete(sending));
    this.#cancelsInFlight.add(sending);
  }

  async #write(message: JsonRpcMessage, relatedRequestId: RequestId | undefined): Promise<void> {
    const transport = this.#transport;
    if (transport === undefined) throw new InvalidStateError('Not connected', this.#state.kind);
    this.#inspect('message.out', () => ({ type: 'message.out', sessionId: this.id, at: this.#clock.now(), message }));
    await transport.send(message, relatedRequestId !== undefined ? { relatedRequestId } : undefined);
  }

  #strict(): boolean {
    return this.#options.strictCapabilities ?? true;
  }

  #peerRole(): Role {
    return this.role === 'client' ? 'server' : 'client';
  }

  #revisionFor(version: string): Revision {
    return getRevision(version) ?? getRevision(LATEST_LEGACY_PROTOCOL_VERSION) ?? fail(`No revision registered for ${version}`);
  }

  // ------------------------------------------------------------------ inbound

  #receiveMalformed(text: string, reason: string): void {
    this.#inspect('message.in', () => ({ type: 'message.in', sessionId: this.id, at: this.#clock.now(), message: text }));
    this.#reply(errorResponse(undefined, { code: ErrorCode.ParseError, message: `Parse error: ${reason}` }), undefined);
  }

  #receive(value: unknown, context: InboundContext | undefined): void {
    try {
      this.#inspect('message.in', () => ({ type: 'message.in', sessionId: this.id, at: this.#clock.now(), message: value }));
      const classified = classifyMessage(value);
      switch (classified.kind) {
        case 'request':
          this.#onRequest(classified.message, context);
          return;
        case 'notification':
          this.#onNotification(classified.message, context);
          return;
        case 'result':
          this.#onResult(classified.message);
          return;
        case 'error':
          this.#onErrorResponse(classified.message);
          return;
        case 'batch':
          this.#onBatch(classified.items, context);
          return;
        case 'invalid':
          if (classified.reply) {
            this.#reply(errorResponse(classified.id, { code: classified.code, message: `Invalid request: ${classified.reason}` }), undefined);
          } else {
            this.#diagnostic(`dropped an invalid message: ${classified.reason}`, value);
          }
          return;
      }
    } catch (error) {
      // Nothing a peer sends may throw out of the runner.
      this.#diagnostic('unexpected error while handling an inbound message', error);
    }
  }

  #onBatch(items: unknown[], context: InboundContext | undefined): void {
    const version = this.protocolVersion;
    if (version === undefined || !this.#revision.features.batching || items.length === 0) {
      const why = items.length === 0 ? 'an empty batch' : `JSON-RPC batches are not supported in protocol revision ${version ?? '(before initialization)'}`;
      this.#reply(errorResponse(undefined, { code: ErrorCode.InvalidRequest, message: `Invalid request: ${why}` }), undefined);
      return;
    }
    for (const item of items) {
      if (isJsonObject(item) && item.method === 'initialize') {
        this.#reply(errorResponse(isRequestId(item.id) ? item.id : undefined, { code: ErrorCode.InvalidRequest, message: 'initialize must not be part of a batch' }), undefined);
        continue;
      }
      if (Array.isArray(item)) {
        this.#reply(errorResponse(undefined, { code: ErrorCode.InvalidRequest, message: 'Invalid request: nested batch' }), undefined);
        continue;
      }
      this.#receive(item, context);
    }
  }

  #reply(message: JsonRpcResultResponse | JsonRpcErrorResponse, relatedRequestId: RequestId | undefined): void {
    if (this.#transport === undefined || this.#state.kind === 'terminated') return;
    this.#write(message, relatedRequestId).catch((error: unknown) => this.#diagnostic('could not send a response', error));
  }

  #replyError(id: RequestId, code: number, message: string, data?: unknown): void {
    this.#reply(errorResponse(id, data === undefined ? { code, message } : { code, message, data }), id);
  }

  #onRequest(message: JsonRpcRequest, context: InboundContext | undefined): void {
    const { id, method } = message;
    if (this.#ledger.hasInbound(id)) {
      this.#replyError(id, ErrorCode.InvalidRequest, `Request id ${String(id)} is already in use`);
      return;
    }
    for (const effect of this.#dispatch({ type: 'inboundRequest', method })) {
      if (effect.type === 'rejectInbound') {
        this.#replyError(id, effect.code, effect.message);
        return;
      }
      if (effect.type === 'dropInbound') {
        this.#diagnostic(`dropped request ${method}: ${effect.reason}`);
        return;
      }
    }
    if (method === 'initialize' && this.role === 'server') {
      void this.#answerInitialize(message, context);
      return;
    }
    const params = message.params ?? {};
    const spec = this.#revision.requests[method];
    const inbound = this.role === 'server' ? 'clientToServer' : 'serverToClient';
    if (spec === undefined || (spec.direction !== 'both' && spec.direction !== inbound)) {
      this.#replyError(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
      return;
    }
    const requirement = capabilityFor(method, this.#revision.version, this.role);
    if (this.#strict() && requirement !== undefined && requirement.holder === this.role && !hasCapability(this.#options.capabilities(), requirement.path)) {
      this.#replyError(id, ErrorCode.MethodNotFound, `Method not found: ${method} (the ${capabilityName(requirement.path)} capability was not declared)`);
      return;
    }
    const handler = this.#requestHandlers.get(method);
    if (handler === undefined) {
      this.#replyError(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
      return;
    }
    const parsed = spec.params.safeParse(params);
    if (!parsed.success) {
      this.#replyError(id, ErrorCode.InvalidParams, `Invalid params for ${method}: ${formatIssues(parsed.error)}`);
      return;
    }
    this.#runHandler(message, parsed.data as JsonObject, handler, context);
  }

  #runHandler(message: JsonRpcRequest, params: JsonObject, handler: RequestHandler, context: InboundContext | undefined): void {
    const { id, method } = message;
    const meta = isJsonObject(params._meta) ? params._meta : undefined;
    const token = meta?.progressToken;
    const record: InboundRecord = {
      direction: 'inbound',
      id,
      method,
      startedAt: this.#clock.now(),
      state: 'created',
      controller: new AbortController(),
      progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined,
      lastProgress: undefined,
      waitingOn: 0,
    };
    this.#ledger.addInbound(record);
    this.#onRequestTransition(record, 'created', 'dispatch', true);
    this.#ledger.move(record, 'dispatch');
    const ctx = new HandlerContext(this.#contextHost, record, context, meta, this.protocolVersion ?? this.#revision.version);
    this.#ledger.move(record, 'process');
    let outcome: Promise<JsonObject>;
    try {
      outcome = Promise.resolve(handler(params, ctx));
    } catch (error) {
      outcome = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    outcome.then(
      (result) => {
        if (!this.#ledger.move(record, 'complete')) return; // cancelled or aborted: no reply
        if (!isJsonObject(result)) {
          this.#replyError(id, ErrorCode.InternalError, `Handler for ${method} returned a non-object result`);
          return;
        }
        this.#reply({ jsonrpc: '2.0', id, result }, id);
      },
      (error: unknown) => {
        if (!this.#ledger.move(record, 'fail')) return;
        const wire = toWireError(error);
        this.#replyError(id, wire.code, wire.message, wire.data);
      },
    );
  }

  /** Shared by every handler context of this session (see `HandlerContext`). */
  readonly #contextHost: HandlerContextHost = {
    isLive: (record) => this.#ledger.inbound(record.id) === record,
    isTerminated: () => this.#state.kind === 'terminated',
    emitProgress: (record, progress, total, message) => this.#emitProgress(record, progress, total, message),
    notify: (method, params, relatedRequestId) => this.notify(method, params, { relatedRequestId }),
    request: (method, params, options) => this.request(method, params, options),
  };

  /** Sends one progress notification for an inbound request: only with a token, strictly increasing. */
  async #emitProgress(record: InboundRecord, progress: number, total: number | undefined, message: string | undefined): Promise<void> {
    if (record.progressToken === undefined) return;
    if (!Number.isFinite(progress) || (record.lastProgress !== undefined && progress <= record.lastProgress)) {
      throw new InvalidArgumentError(`Progress must increase with every notification (last ${String(record.lastProgress)}, got ${progress})`);
    }
    record.lastProgress = progress;
    const params: JsonObject = { progressToken: record.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined && hasFeature(this.protocolVersion, 'progressMessage')) params.message = message;
    const live = this.#ledger.inbound(record.id) === record;
    await this.notify('notifications/progress', params, live ? { relatedRequestId: record.id } : {});
  }

  async #answerInitialize(message: JsonRpcRequest, context: InboundContext | undefined): Promise<void> {
    const { id } = message;
    const params = message.params ?? {};
    const version = negotiateServerVersion(params.protocolVersion, this.#supported);
    this.#revision = this.#revisionFor(version);
    const parsed = this.#revision.schemas.InitializeRequestParams.safeParse(params);
    if (!parsed.success) {
      this.#replyError(id, ErrorCode.InvalidParams, `Invalid params for initialize: ${formatIssues(parsed.error)}`);
      this.#dispatch({ type: 'initializeFailed', reason: 'initializeFailed', error: new Error('invalid initialize params') });
      return;
    }
    const onInitialize = this.#options.onInitialize;
    let result: InitializeResultShape;
    try {
      if (onInitialize === undefined) throw new Error('This server session has no onInitialize option');
      result = await onInitialize(parsed.data as InitializeParams, version, context);
    } catch (error) {
      const wire = toWireError(error);
      this.#replyError(id, wire.code, wire.message, wire.data);
      this.#dispatch({ type: 'initializeFailed', reason: 'initializeFailed', error: error instanceof Error ? error : new Error(String(error)) });
      return;
    }
    if (this.#state.kind !== 'initializing') return; // closed meanwhile
    const clientParams = parsed.data as InitializeParams;
    const peer: PeerInfo = { capabilities: clientParams.capabilities, info: clientParams.clientInfo };
    // The result counts as sent once handed to the transport: dispatch first so an
    // `initialized` that races back finds the server in Initialized.
    this.#dispatch({ type: 'initializeSucceeded', version, peer });
    this.#reply({ jsonrpc: '2.0', id, result: { ...result, protocolVersion: version } }, id);
  }

  #onNotification(message: JsonRpcNotification, context: InboundContext | undefined): void {
    const { method } = message;
    for (const effect of this.#dispatch({ type: 'inboundNotification', method })) {
      if (effect.type === 'dropInbound') {
        this.#diagnostic(`dropped notification ${method}: ${effect.reason}`);
        return;
      }
    }
    const params = message.params ?? {};
    const spec = this.#revision.notifications[method];
    if (spec !== undefined) {
      const parsed = spec.params.safeParse(params);
      if (!parsed.success) {
        this.#diagnostic(`dropped ${method} with invalid params: ${formatIssues(parsed.error)}`);
        return;
      }
    }
    if (method === 'notifications/cancelled') this.#onPeerCancel(params);
    else if (method === 'notifications/progress') this.#onProgress(params);
    else if (method === 'notifications/tasks/status' && typeof params.taskId === 'string' && TERMINAL_TASK_STATUSES.has(String(params.status))) {
      this.releaseTaskProgress(params.taskId);
    }
    const handler = this.#notificationHandlers.get(method);
    if (handler === undefined) return;
    try {
      const done = handler(params, { method, authInfo: context?.authInfo, transportContext: context });
      if (done instanceof Promise) done.catch((error: unknown) => this.#diagnostic(`notification handler for ${method} failed`, error));
    } catch (error) {
      this.#diagnostic(`notification handler for ${method} threw`, error);
    }
  }

  #onPeerCancel(params: JsonObject): void {
    const requestId = params.requestId;
    if (!isRequestId(requestId)) return;
    const record = this.#ledger.inbound(requestId);
    if (record === undefined || record.method === 'initialize') return; // unknown, finished, or uncancellable: ignore
    const reason = typeof params.reason === 'string' ? params.reason : 'cancelled by the peer';
    if (this.#ledger.move(record, 'cancel')) {
      record.controller.abort(new RequestCancelledError(`${record.method} was cancelled by the peer: ${reason}`, { reason }));
    }
  }

  #onProgress(params: JsonObject): void {
    const token = params.progressToken;
    if (typeof token !== 'string' && typeof token !== 'number') return;
    const record = this.#ledger.byProgressToken(token);
    if (record === undefined) {
      const retained = this.#taskProgress.get(token);
      if (retained !== undefined && typeof params.progress === 'number') this.#deliverProgress(retained.onProgress, params);
      return; // otherwise unknown or settled: dropped silently
    }
    const progress = params.progress;
    if (typeof progress !== 'number') return;
    this.#ledger.move(record, 'progress');
    if (record.resetTimeoutOnProgress) this.#armTimeout(record);
    if (record.onProgress !== undefined) this.#deliverProgress(record.onProgress, params);
  }

  #deliverProgress(onProgress: (update: ProgressUpdate) => void, params: JsonObject): void {
    const update: ProgressUpdate = {
      progress: params.progress as number,
      ...(typeof params.total === 'number' ? { total: params.total } : {}),
      ...(typeof params.message === 'string' ? { message: params.message } : {}),
    };
    try {
      onProgress(update);
    } catch (error) {
      this.#diagnostic('onProgress threw', error);
    }
  }

  /**
   * Task-augmented requests (2025-11-25) keep their progress token after the
   * CreateTaskResult until the task is terminal (rule 49): a `notifications/tasks/status`
   * with a terminal status, or a call to {@link releaseTaskProgress}, ends it.
   */
  readonly #taskProgress = new Map<string | number, { taskId: string; onProgress: (update: ProgressUpdate) => void }>();

  /** Stops delivering progress for a task whose request returned a CreateTaskResult. */
  releaseTaskProgress(taskId: string): void {
    for (const [token, entry] of this.#taskProgress) if (entry.taskId === taskId) this.#taskProgress.delete(token);
  }

  #retainTaskProgress(record: OutboundRecord, result: JsonObject): void {
    if (!record.taskAugmented || record.progressToken === undefined || record.onProgress === undefined) return;
    const task = result.task;
    if (!isJsonObject(task) || typeof task.taskId !== 'string') return;
    if (TERMINAL_TASK_STATUSES.has(String(task.status))) return;
    this.#taskProgress.set(record.progressToken, { taskId: task.taskId, onProgress: record.onProgress });
  }

  #onResult(message: JsonRpcResultResponse): void {
    const record = this.#ledger.outbound(message.id);
    if (record === undefined) {
      if (!this.#ledger.wasRecentlySettled(message.id)) this.#diagnostic(`dropped a response for unknown request id ${String(message.id)}`);
      return;
    }
    if (record.method === 'initialize') {
      this.#ledger.settle(record, { event: 'complete', result: message.result });
      return;
    }
    const spec = this.#revision.requests[record.method];
    if (spec === undefined) {
      this.#ledger.settle(record, { event: 'complete', result: message.result });
      return;
    }
    const parsed = spec.result.safeParse(message.result);
    if (!parsed.success) {
      this.#ledger.settle(record, { event: 'fail', error: new InvalidResultError(`Invalid result for ${record.method}: ${formatIssues(parsed.error)}`) });
      return;
    }
    this.#retainTaskProgress(record, parsed.data as JsonObject);
    this.#ledger.settle(record, { event: 'complete', result: parsed.data as JsonObject });
  }

  #onErrorResponse(message: JsonRpcErrorResponse): void {
    const id = message.id;
    if (id === null) {
      this.#diagnostic(`the peer reported an error without a request id: ${message.error.message}`, message.error);
      return;
    }
    const record = this.#ledger.outbound(id);
    if (record === undefined) {
      if (!this.#ledger.wasRecentlySettled(id)) this.#diagnostic(`dropped an error response for unknown request id ${String(id)}`);
      return;
    }
    this.#ledger.settle(record, { event: 'fail', error: JsonRpcError.fromObject(message.error) });
  }
}

function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message;
  if (typeof reason === 'string') return reason;
  return 'aborted by the caller';
}

function fail(message: string): never {
  throw new Error(message);
}
