/**
 * One client connection of a {@link Server}: its session (the lifecycle state machine),
 * what the client declared, and the state that belongs to this connection only — the log
 * level set with `logging/setLevel` and the resource subscriptions. Created by
 * `Server.connect(transport)`; a server holds many at once (Streamable HTTP makes one per
 * HTTP session).
 */
import {
  ConnectionClosedError,
  InvalidStateError,
  type CloseInfo,
  type ConnectionState,
  type CustomSchema,
  type InferCustom,
  type HandlerLookup,
  type JsonObject,
  type NotificationHandler,
  type NotificationOptions,
  type PeerInfo,
  type RequestHandler,
  type RequestOptions,
  type Session,
  type StatelessExchange,
} from '@statemcp/protocol';
import { hasFeature, assertCustomMethodName } from '@statemcp/protocol/internal';
import { createMessageParams, elicitParams, type PeerView } from './client-requests.js';
import { splitCustomOptions, type CustomNotifyOptions, type CustomRequestOptions } from './custom-methods.js';
import { passesLevel } from './logging-levels.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
  ServerCapabilities,
} from './wire-types.js';

/** Params of `notifications/message`. */
export interface LoggingMessage {
  readonly level: LoggingLevel;
  readonly data: unknown;
  readonly logger?: string;
  /** Notification `_meta` (e.g. `io.modelcontextprotocol/related-task`). */
  readonly _meta?: JsonObject;
}

/** Numbers the requests served without a session, for their `id`. */
let exchangeCounter = 0;

/** What `subscriptions` returns before the first subscribe. */
const NO_SUBSCRIPTIONS: ReadonlySet<string> = new Set();

/** What a connection needs from its server. */
export interface ConnectionHost {
  /** Capabilities to declare for a handshake starting now. */
  capabilities(): ServerCapabilities;
  readonly strictCapabilities: boolean;
  /** The server's handler of `method`, answering on `connection`; undefined without one. */
  requestHandlerFor(connection: ServerConnection, method: string): RequestHandler | undefined;
  /** The server's handler of the notification `method` on `connection`; undefined without one. */
  notificationHandlerFor(connection: ServerConnection, method: string): NotificationHandler | undefined;
}

/**
 * One client connection of a server. Per-connection state (log level, subscriptions,
 * declared capabilities) lives here; the lifecycle lives in `session`.
 */
export class ServerConnection implements HandlerLookup {
  /**
   * A request served without a session (2026-07-28 stateless HTTP, see `Server.connect`): the
   * exchange that answers it; undefined for a connection with a session.
   */
  readonly #exchange: StatelessExchange | undefined;
  #session: Session | undefined;
  #exchangeId: string | undefined;
  readonly #createSession: (connection: ServerConnection) => Session;
  readonly #host: ConnectionHost;
  #declared: ServerCapabilities | undefined;
  #logLevel: LoggingLevel | undefined;
  /** Created on the first `resources/subscribe`: an idle connection holds no empty set. */
  #subscriptions: Set<string> | undefined;
  /**
   * @internal The auth info of the latest request served here (`initialize` first): whose view
   * of the registrations this connection was last shown, for per-principal list changes.
   * Undefined before any request; `{ authInfo: undefined }` for an unauthenticated one.
   */
  viewedAs: { readonly authInfo: unknown } | undefined;

  /**
   * @internal Created by `Server.connect`: with a session, or (`exchange`) for one request
   * served without a session, whose `session` is then made only if something reads it.
   */
  constructor(host: ConnectionHost, createSession: (connection: ServerConnection) => Session, exchange?: (connection: ServerConnection) => StatelessExchange) {
    this.#host = host;
    this.#createSession = createSession;
    if (exchange === undefined) this.#session = createSession(this);
    this.#exchange = exchange?.(this);
  }

  /**
   * The session runner of this connection (state, inspection, raw requests). A request served
   * without a session gets one made at first read that is never connected: its requests and
   * notifications fail, its `inspect` stream still reports what is published on it.
   */
  get session(): Session {
    return (this.#session ??= this.#createSession(this));
  }

  /** @internal The exchange of a request served without a session, else undefined. */
  get exchange(): StatelessExchange | undefined {
    return this.#exchange;
  }

  /**
   * @internal The session's shared handlers (`SessionOptions.handlers`): the server's table,
   * looked up per request, so that no connection holds a handler map of its own.
   */
  requestHandler(method: string): RequestHandler | undefined {
    return this.#host.requestHandlerFor(this, method);
  }

  /** @internal The session's shared notification handlers (see `requestHandler`). */
  notificationHandler(method: string): NotificationHandler | undefined {
    return this.#host.notificationHandlerFor(this, method);
  }

  /** The session's id (inspection label). */
  get id(): string {
    if (this.#exchange === undefined) return this.session.id;
    return (this.#exchangeId ??= `stateless-${++exchangeCounter}`);
  }

  /** The connection's lifecycle state. */
  get state(): ConnectionState {
    return this.#exchange?.connectionState() ?? this.session.state;
  }

  /** True once the handshake is complete and until the connection starts closing. */
  get isOperating(): boolean {
    return this.state.kind === 'operating';
  }

  /** The negotiated protocol version, once known. */
  get protocolVersion(): string | undefined {
    return this.#exchange?.protocolVersion() ?? this.session.protocolVersion;
  }

  /**
   * True when the connection speaks a stateless revision (2026-07-28+): no handshake, the
   * client's identity and capabilities travel with each request, and nothing is sent outside
   * a request's own reply (no broadcast logs, no list_changed outside `subscriptions/listen`).
   */
  get stateless(): boolean {
    return hasFeature(this.protocolVersion, 'perRequestMeta');
  }

  /** The client's `clientInfo`, once the handshake has been answered. */
  get clientInfo(): Implementation | undefined {
    return this.#peer()?.info;
  }

  /** The client's declared capabilities, once the handshake has been answered. */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.#peer()?.capabilities;
  }

  /** The capabilities this connection declared (fixed when `initialize` was answered). */
  get capabilities(): ServerCapabilities {
    return this.#declared ?? this.#host.capabilities();
  }

  /** The level the client asked for with `logging/setLevel` (undefined: everything is sent). */
  get logLevel(): LoggingLevel | undefined {
    return this.#logLevel;
  }

  /** Resource URIs this client subscribed to. */
  get subscriptions(): ReadonlySet<string> {
    return this.#subscriptions ?? NO_SUBSCRIPTIONS;
  }

  /** Resolves once, when the connection has terminated. */
  get closed(): Promise<CloseInfo> {
    return this.#exchange?.closed ?? this.session.closed;
  }

  /** @internal Fixes the declared capabilities at handshake time. */
  declare(capabilities: ServerCapabilities): void {
    this.#declared = capabilities;
  }

  /** @internal `logging/setLevel`. */
  setLogLevel(level: LoggingLevel): void {
    this.#logLevel = level;
  }

  /** @internal `resources/subscribe`. */
  subscribe(uri: string): void {
    (this.#subscriptions ??= new Set()).add(uri);
  }

  /** @internal `resources/unsubscribe`. */
  unsubscribe(uri: string): void {
    this.#subscriptions?.delete(uri);
  }

  /**
   * Sends `notifications/message` when the connection declared `logging`, the level passes
   * the client's `logging/setLevel` threshold and the connection is live. Never throws:
   * resolves `false` when the message was dropped. A stateless (2026-07-28+) connection has no
   * connection-wide level: it logs only through a request's `RequestExtra.log`, which checks
   * that request's `_meta` log level (`requestLevelChecked`).
   */
  async sendLoggingMessage(message: LoggingMessage, options: NotificationOptions = {}, requestLevelChecked = false): Promise<boolean> {
    if (this.capabilities.logging === undefined) return false;
    if (this.stateless ? !requestLevelChecked : !passesLevel(message.level, this.#logLevel)) return false;
    const kind = this.state.kind;
    if (kind === 'shuttingDown' || kind === 'terminated') return false;
    const params: JsonObject = { level: message.level, data: message.data };
    if (message.logger !== undefined) params.logger = message.logger;
    if (message._meta !== undefined) params._meta = message._meta;
    try {
      await this.#notify('notifications/message', params, options);
      return true;
    } catch (error) {
      if (error instanceof InvalidStateError || error instanceof ConnectionClosedError) return false;
      throw error;
    }
  }

  /**
   * Sends `notifications/resources/updated` for `uri` when this client subscribed to it and
   * the connection is operating; resolves whether it was sent.
   */
  async notifyResourceUpdated(uri: string): Promise<boolean> {
    if (this.#subscriptions?.has(uri) !== true || !this.isOperating || this.stateless) return false;
    await this.#notify('notifications/resources/updated', { uri });
    return true;
  }

  /**
   * Asks the client to sample an LLM (`sampling/createMessage`). Refused locally with
   * `CapabilityNotSupportedError` when the client did not declare `sampling`, or when
   * `tools`/`toolChoice` are given but the revision is older than 2025-11-25 or the client
   * lacks `sampling.tools`.
   */
  async createMessage(params: CreateMessageRequestParams, options: RequestOptions = {}): Promise<CreateMessageResult> {
    const wire = createMessageParams(params, this.#peerView());
    return (await this.sendRequest('sampling/createMessage', wire, options)) as unknown as CreateMessageResult;
  }

  /**
   * Asks the client for input (`elicitation/create`, 2025-06-18+). Form mode by default;
   * URL mode needs 2025-11-25 and the client's `elicitation.url`. Refusals are typed
   * `CapabilityNotSupportedError`s raised before anything is sent.
   */
  async elicitInput(params: ElicitRequestParams, options: RequestOptions = {}): Promise<ElicitResult> {
    const wire = elicitParams(params, this.#peerView());
    return (await this.sendRequest('elicitation/create', wire, options)) as unknown as ElicitResult;
  }

  /**
   * Tells the client that the URL-mode elicitation `elicitationId` is complete
   * (`notifications/elicitation/complete`, 2025-11-25). Refused locally with
   * `CapabilityNotSupportedError` on older revisions.
   */
  async notifyElicitationComplete(elicitationId: string, options: NotificationOptions = {}): Promise<void> {
    await this.#notify('notifications/elicitation/complete', { elicitationId }, options);
  }

  /** Asks the client for its roots (`roots/list`); needs the client's `roots` capability. */
  async listRoots(options: RequestOptions = {}): Promise<ListRootsResult> {
    return (await this.sendRequest('roots/list', undefined, options)) as unknown as ListRootsResult;
  }

  /**
   * Sends the custom (non-spec) request `method` to the client: `options.params` validates
   * the params before sending, `options.result` the result on arrival (`InvalidResultError`).
   * Refused locally with `CapabilityNotSupportedError` unless the client declared the opt-in
   * (`experimental[optIn ?? method]`; `optIn: false` skips it), and with
   * `InvalidArgumentError` for a spec method or a name without a vendor prefix.
   */
  async request<P extends CustomSchema | undefined = undefined, R extends CustomSchema | undefined = undefined>(
    method: string,
    params?: JsonObject,
    options: CustomRequestOptions<P, R> = {},
  ): Promise<InferCustom<R>> {
    assertCustomMethodName(method);
    return (await this.sendRequest(method, params, splitCustomOptions(options))) as InferCustom<R>;
  }

  /** Sends the custom (non-spec) notification `method` to the client; the same checks as {@link request}. */
  async notify<P extends CustomSchema | undefined = undefined>(method: string, params?: JsonObject, options: CustomNotifyOptions<P> = {}): Promise<void> {
    assertCustomMethodName(method);
    await this.#notify(method, params, splitCustomOptions(options));
  }

  /** Pings the client; resolves with the round-trip time in ms. */
  ping(options: RequestOptions = {}): Promise<number> {
    const exchange = this.#exchange;
    return exchange === undefined ? this.session.ping(options) : exchange.request('ping').then(() => 0);
  }

  /** Graceful close (idempotent, bounded by the session's close deadline). */
  close(): Promise<void> {
    return this.#exchange?.close() ?? this.session.close();
  }

  /** Forceful close. */
  terminate(): Promise<void> {
    return this.#exchange?.close() ?? this.session.terminate();
  }

  /**
   * @internal A raw request to the client, through the session (or, for a request served
   * without one, refused as the stateless era refuses it: servers send no requests).
   */
  sendRequest(method: string, params: JsonObject | undefined, options: RequestOptions): Promise<JsonObject> {
    return this.#exchange?.request(method, params, options) ?? this.session.request(method, params, options);
  }

  #notify(method: string, params: JsonObject | undefined, options: NotificationOptions = {}): Promise<void> {
    return this.#exchange?.notify(method, params, options) ?? this.session.notify(method, params, options);
  }

  /** What the client declared: the handshake's, or (a request served without a session) the stateless era's anonymous peer. */
  #peer(): PeerInfo | undefined {
    return this.#exchange?.peer() ?? this.session.peer;
  }

  #peerView(): PeerView {
    return {
      version: this.protocolVersion ?? '',
      clientCapabilities: this.#peer()?.capabilities,
      strict: this.#host.strictCapabilities,
    };
  }
}
