/**
 * The session: one MCP connection, either role, as its users see it. The connection itself
 * (its state, the connection machine and its effects, the transport) is `SessionCore`
 * (session-core.ts); the parts around it, by what each touches:
 *
 * - `outbound.ts`: requests this side sends (ids, the ledger record, writing, cancellation),
 *   with `outbound-timeouts.ts`, `outbound-answers.ts` (results, errors, progress) and
 *   `outbound-rounds.ts` (Multi Round-Trip Requests);
 * - `inbound.ts`: everything the peer sends (gate, handlers, notifications, batches);
 * - `handshake.ts`: the two halves of `initialize`; `discovery.ts`: the modern era's `server/discover`;
 * - `method-policy.ts`, `method-refusals.ts`: which methods may go which way, in which revision;
 * - `keep-alive.ts`, `observer.ts`: pings, and the `inspect` stream / diagnostics channels.
 */
import { InvalidStateError } from '../errors/errors.js';
import type { JsonObject } from '../jsonrpc/messages.js';
import type { ConnectionState, PeerInfo, Role } from '../machines/connection-types.js';
import type { TaskTransitionReport } from '../observability/events.js';
import type { Transport } from '../transport/transport.js';
import { negotiateEra, type NegotiateOptions, type NegotiateOutcome } from './discovery.js';
import type { PendingRequestView } from './ledger.js';
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
import { SessionCore, type TransitionListener } from './session-core.js';

let sessionCounter = 0;

/** 36⁶: the six base-36 digits of a session label's random part. */
const LABEL_SPACE = 2_176_782_336;

/** Six random base-36 digits (drawn as an integer). */
function randomLabel(): string {
  return Math.floor(Math.random() * LABEL_SPACE)
    .toString(36)
    .padStart(6, '0');
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
  readonly #core: SessionCore;

  constructor(options: SessionOptions) {
    this.role = options.role;
    this.id = options.sessionId ?? `${options.role}-${++sessionCounter}-${randomLabel()}`;
    this.#core = new SessionCore(this.id, options);
  }

  // ------------------------------------------------------------------ public state

  /** Resolves once, when the session reaches Terminated (the same promise on every read). */
  get closed(): Promise<CloseInfo> {
    return this.#core.closing.closed;
  }

  /** The current connection state (a discriminated union; see `ConnectionState`). */
  get state(): ConnectionState {
    return this.#core.state;
  }

  /** The negotiated protocol version, once known. */
  get protocolVersion(): string | undefined {
    return this.#core.protocolVersion();
  }

  /** What the peer declared in the handshake, once known. */
  get peer(): PeerInfo | undefined {
    return this.#core.peer();
  }

  /** How the session ended, once Terminated. */
  get closeInfo(): CloseInfo | undefined {
    return this.#core.closing.info;
  }

  /** The transport, once connected. */
  get transport(): Transport | undefined {
    return this.#core.transport;
  }

  /** Every in-flight request in both directions. */
  pendingRequests(): PendingRequestView[] {
    return this.#core.ledger.view();
  }

  /** Subscribes to connection transitions; returns an unsubscribe function. */
  onTransition(listener: TransitionListener): () => void {
    const listeners = this.#core.transitionListeners;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** Answers inbound requests for `method` with `handler`; replaces an earlier handler. */
  setRequestHandler(method: string, handler: RequestHandler): void {
    (this.#core.requestHandlers ??= new Map()).set(method, handler);
  }

  /** Stops answering `method`: later requests get -32601. */
  removeRequestHandler(method: string): void {
    const core = this.#core;
    core.requestHandlers?.delete(method);
    // A shared handler (or the built-in `ping`) would still answer: hide it.
    if (core.requestHandler(method) !== undefined) (core.requestHandlers ??= new Map()).set(method, undefined);
  }

  /** Handles inbound notifications `method` with `handler`; replaces an earlier handler. */
  setNotificationHandler(method: string, handler: NotificationHandler): void {
    (this.#core.notificationHandlers ??= new Map()).set(method, handler);
  }

  /** Stops handling the notification `method` (later ones are ignored). */
  removeNotificationHandler(method: string): void {
    const core = this.#core;
    core.notificationHandlers?.delete(method);
    if (core.options.handlers?.notificationHandler(method) !== undefined) (core.notificationHandlers ??= new Map()).set(method, undefined);
  }

  /**
   * Stops delivering progress for a task whose request returned a CreateTaskResult (MCP
   * 2025-11-25, Tasks); a terminal `notifications/tasks/status` does the same by itself.
   */
  releaseTaskProgress(taskId: string): void {
    this.#core.ledger.releaseTask(taskId);
  }

  /**
   * Publishes a task's move as a `task.transition` inspect event of this session (the
   * `inspect` listener and the `statemcp:task.transition` channel). `build` runs only when
   * someone listens, so an uninspected session does no work for it.
   */
  reportTaskTransition(build: () => TaskTransitionReport): void {
    this.#core.observer.task(build);
  }

  // ------------------------------------------------------------------ connecting

  /** Reports something worth a warning about this session: a `diagnostic` event on `inspect` and the diagnostics channel. */
  diagnostic(message: string, detail?: unknown): void {
    this.#core.observer.diagnostic(message, detail);
  }

  /** Attaches the transport and starts it. A second call throws `AlreadyConnectedError`. */
  connect(transport: Transport): Promise<void> {
    return this.#core.connect(transport);
  }

  /**
   * Client: runs the handshake. Proposes the latest supported version (or
   * `params.protocolVersion`), accepts any supported answer, sends `notifications/initialized`
   * and resolves in Operating. An unsupported answer closes the session and rejects with
   * `UnsupportedProtocolVersionError`; any other failure closes it and rejects too. On
   * failure the promise rejects only once the session has reached Terminated.
   */
  async initialize(params: InitializeParams, options: RequestOptions = {}): Promise<InitializeResultShape> {
    if (this.role !== 'client') throw new InvalidStateError('Only a client sends initialize', this.#core.state.kind);
    return this.#core.initialize(params, options);
  }

  /**
   * Client: agrees on an era with the server (the 2026-07-28 `server/discover`; see `discovery.ts`). `era: 'auto'`
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
    if (this.role !== 'client') throw new InvalidStateError('Only a client negotiates an era', this.#core.state.kind);
    this.#core.clientInfo = params.clientInfo;
    return negotiateEra(this.#core, params, options);
  }

  // ------------------------------------------------------------------ outbound

  /**
   * Sends a request and resolves with its (validated) result. Rejects with a typed error:
   * `RequestTimeoutError`, `RequestCancelledError`, `ConnectionClosedError`, `JsonRpcError`
   * (the peer's error reply), `CapabilityNotSupportedError`, `InvalidStateError`.
   */
  request(method: string, params?: JsonObject, options: RequestOptions = {}): Promise<JsonObject> {
    return this.#core.request(method, params, options);
  }

  /** Sends a notification. Rejects with a typed error when the state or capabilities forbid it. */
  notify(method: string, params?: JsonObject, options: NotificationOptions = {}): Promise<void> {
    return this.#core.notify(method, params, options);
  }

  /** Sends `ping` and resolves with the round-trip time in ms. */
  async ping(options: RequestOptions = {}): Promise<number> {
    const clock = this.#core.clock;
    const started = clock.now();
    await this.request('ping', undefined, options);
    return clock.now() - started;
  }

  // ------------------------------------------------------------------ closing

  /**
   * Graceful close: pending outbound requests get `notifications/cancelled` (never
   * `initialize`) and reject with `ConnectionClosedError`, handlers are aborted, the transport
   * closes. Idempotent; always resolves within `closeDeadlineMs`; `onclose` fires once.
   */
  async close(): Promise<void> {
    const core = this.#core;
    if (core.transport === undefined && core.state.kind === 'uninitialized') {
      core.dispatch({ type: 'terminateRequested' });
      return;
    }
    core.dispatch({ type: 'closeRequested' });
    await this.closed;
  }

  /** Forceful close: settles everything and terminates the transport at once. */
  async terminate(): Promise<void> {
    this.#core.dispatch({ type: 'terminateRequested' });
    await this.closed;
  }
}
