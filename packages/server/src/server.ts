/**
 * The low-level MCP server: a thin role layer over the protocol package's session runner.
 * One `Server` serves many connections; each `connect(transport)` creates a server-role
 * `Session` (which owns the lifecycle: handshake gating, method and capability checks,
 * params validation, ids, timeouts, progress, cancellation, close) and installs the
 * handlers registered here. Handlers get params already validated once by the runner
 * against the negotiated revision, plus the connection they serve.
 *
 * Use `McpServer` for the registration API (tools, resources, prompts); use `Server`
 * directly to answer methods by hand.
 *
 * @example
 * ```ts
 * const server = new Server({ name: 'raw', version: '1.0.0' }, { capabilities: { tools: {} } });
 * server.setRequestHandler('tools/list', () => ({ tools: [] }));
 * const connection = await server.connect(transport);
 * ```
 */
import {
  AlreadyConnectedError,
  ErrorCode,
  JsonRpcError,
  DUAL_ERA_PROTOCOL_VERSIONS,
  SERVER_INFO_META_KEY,
  MiddlewareStack,
  Session,
  StatelessDispatcher,
  type InboundContext,
  type Middleware,
  type InitializeParams,
  type CustomNotificationSpec,
  type CustomRequestSpec,
  type CustomSchema,
  type InitializeResultShape,
  type JsonObject,
  type NotificationContext,
  type NotificationHandler,
  type RequestContext,
  type RequestHandler,
  type SessionOptions,
  type StatelessExchange,
  type Transport,
  CustomMethodTable,
  declareCustomOptIns,
} from '@statemcp/protocol';
import { INPUT_REQUIRED_METHODS, hasFeature, servedStatelessVersions } from '@statemcp/protocol/internal';
import type { CustomNotificationHandler, CustomRequestHandler } from './custom-methods.js';
import { completeResult, resolveCacheHints, type CacheHints } from './caching.js';
import { DeclaredCapabilities } from './declared-capabilities.js';
import { runInputRound } from './input-round.js';
import { serverInfoMeta, withResultMeta } from './result-meta.js';
import { isLoggingLevel } from './logging-levels.js';
import { RequestStateSealer, type RequestStateOptions } from './request-state.js';
import { capabilitiesFor, implementationFor } from './revision-features.js';
import { ServerConnection } from './server-connection.js';
import { SharedSubscriptions, type ServerClusterOptions } from './shared-subscriptions.js';
import { ListenSubscriptions } from './subscriptions.js';
import type { Implementation, ServerCapabilities } from './wire-types.js';

/** Session options a server passes through to every connection's session. */
export type ServerSessionOptions = Partial<
  Pick<
    SessionOptions,
    | 'supportedVersions'
    | 'clock'
    | 'defaultTimeoutMs'
    | 'maxTotalTimeoutMs'
    | 'resetTimeoutOnProgress'
    | 'strictCapabilities'
    | 'strictInitialized'
    | 'closeDeadlineMs'
    | 'settledMemory'
    | 'inspect'
    | 'keepAlive'
    | 'traceContext'
  >
>;

export interface ServerOptions extends ServerSessionOptions {
  /** Usage hints for the model, sent in the InitializeResult (and the 2026-07-28 `server/discover` result). */
  readonly instructions?: string;
  /** Caching hints of the `server/discover` result (2026-07-28+; default `{ ttlMs: 0, cacheScope: 'private' }`). */
  readonly cache?: CacheHints;
  /**
   * 2026-07-28+: name this server in the `_meta` of every result
   * (`io.modelcontextprotocol/serverInfo`, default true; MCP 2026-07-28 basic/index §_meta).
   */
  readonly serverInfoInResults?: boolean;
  /**
   * Declared capabilities (default `{ logging: {} }`). A function is evaluated at each
   * connection's handshake; the result is fixed for that connection. Fields a negotiated
   * revision lacks (`completions` before 2025-03-26, `tasks` before 2025-11-25) are dropped.
   */
  readonly capabilities?: ServerCapabilities | (() => ServerCapabilities);
  /** Called with every new connection, before its handshake. */
  readonly onconnection?: (connection: ServerConnection) => void;
  /**
   * Called once when a connection has terminated, right after its `closed` resolved (before
   * callbacks awaiting `closed` run); costs no promise reaction per connection.
   */
  readonly onconnectionclose?: (connection: ServerConnection) => void;
  /**
   * How the `requestState` of Multi Round-Trip rounds (2026-07-28+) is sealed: the HMAC key
   * (random per process by default — a cluster whose instances may each receive a retry must
   * share one) and its lifetime.
   */
  readonly requestState?: RequestStateOptions;
  /**
   * Run as one instance of a cluster (scale-out): resource subscriptions (`resources/subscribe`
   * and the `resourceSubscriptions` of listen streams) go to `cluster.subscriptions`, and a
   * resource change published on any instance reaches the subscribers on every instance over
   * `cluster.bus`. Without it, subscriptions stay in this process (the single-instance cost).
   */
  readonly cluster?: ServerClusterOptions;
}

/** What a server request handler gets besides its params. */
export interface ServerRequestContext extends RequestContext {
  /** The connection the request arrived on. */
  readonly connection: ServerConnection;
}

/** A low-level request handler: raw params in, result out (throw a `JsonRpcError` for an error response). */
export type ServerRequestHandler = (params: JsonObject, context: ServerRequestContext) => JsonObject | Promise<JsonObject>;

export interface ServerNotificationContext extends NotificationContext {
  readonly connection: ServerConnection;
}

/** A low-level notification handler. */
export type ServerNotificationHandler = (params: JsonObject, context: ServerNotificationContext) => void | Promise<void>;

/**
 * One connection's session options: its connection (the session's shared handlers) and
 * transport, over the options every connection of a server shares (their prototype).
 */
interface ConnectionSessionOptions extends SessionOptions {
  readonly handlers: ServerConnection;
  readonly transport: Transport;
}

/**
 * The low-level MCP server: one request handler per method, shared by every connection;
 * each `connect(transport)` runs its own server-role `Session`.
 */
export class Server {
  /** This server's `serverInfo` (shaped per revision in each handshake). */
  readonly info: Implementation;
  /** A modern result's `_meta` naming this server, per revision (see `#serverInfoMeta`). */
  readonly #serverInfo = new Map<string, JsonObject>();
  readonly #options: ServerOptions;
  readonly #requestHandlers = new Map<string, ServerRequestHandler>();
  readonly #notificationHandlers = new Map<string, ServerNotificationHandler>();
  readonly #connections = new Set<ServerConnection>();
  readonly #transports = new WeakSet<Transport>();
  readonly #custom = new CustomMethodTable();
  readonly #middleware = new MiddlewareStack();
  readonly #sealer: RequestStateSealer;
  /**
   * What every connection's session options share: the pass-through options and the
   * connection callbacks as methods, so an idle connection keeps no closures of its own.
   */
  readonly #sessionOptions: SessionOptions;
  /** Serves 2026-07-28 requests that need no session (see `connect`); made at the first one. */
  #stateless: StatelessDispatcher | undefined;
  /** The capabilities the latest handshake declared, shared by the connections that declared the same. */
  readonly #declared = new DeclaredCapabilities();
  /**
   * The live `subscriptions/listen` streams (2026-07-28+): publish change notifications to
   * them, end them, or teach them a filter key of an extension.
   */
  readonly subscriptions: ListenSubscriptions;
  /** @internal The cross-instance subscriptions of a cluster member (`cluster` option); undefined alone. */
  readonly shared: SharedSubscriptions | undefined;

  constructor(info: Implementation, options: ServerOptions = {}) {
    this.info = info;
    this.#options = options;
    this.shared = options.cluster === undefined ? undefined : new SharedSubscriptions(options.cluster);
    this.subscriptions = new ListenSubscriptions();
    this.subscriptions.share(this.shared);
    this.#sealer = new RequestStateSealer(options.requestState);
    const { instructions: _i, capabilities: _c, cache: _cache, serverInfoInResults: _s, requestState: _r, cluster: _cluster, onconnection: _o, onconnectionclose: _oc, ...passThrough } = options;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the shared methods' `this` is the connection's options
    const server = this;
    this.#sessionOptions = {
      ...passThrough,
      role: 'server',
      customMethods: this.#custom,
      middleware: this.#middleware,
      capabilities(this: ConnectionSessionOptions) {
        return this.handlers.capabilities;
      },
      onInitialize(this: ConnectionSessionOptions, params, version, context) {
        return server.#initializeResult(this.handlers, params, version, context);
      },
      onclose(this: ConnectionSessionOptions) {
        server.#connectionClosed(this.handlers, this.transport);
      },
    };
    this.setRequestHandler('server/discover', (_params, context) => this.#discover(context.protocolVersion));
    this.setRequestHandler('subscriptions/listen', (params, context) => this.subscriptions.listen(params, context));
    this.setRequestHandler('logging/setLevel', (params, context) => {
      if (!isLoggingLevel(params.level)) throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid log level');
      context.connection.setLogLevel(params.level);
      return {};
    });
  }

  /** Whether declared capabilities are enforced both ways (the sessions' `strictCapabilities`, default true). */
  get strictCapabilities(): boolean {
    return this.#options.strictCapabilities ?? true;
  }

  /** The capabilities a handshake starting now would declare. */
  capabilities(): ServerCapabilities {
    const declared = this.#options.capabilities;
    if (declared === undefined) return { logging: {} };
    return typeof declared === 'function' ? declared() : declared;
  }

  /** Every live connection (terminated ones are removed). */
  get connections(): readonly ServerConnection[] {
    return [...this.#connections];
  }

  /**
   * Adds a middleware around every request and notification of every connection, present and
   * future, both ways: inbound (what clients send, on its way to its handler) and outbound
   * (what this server sends: sampling, elicitation, notifications) — spec and custom methods,
   * each Multi Round-Trip round, task methods, in both eras and on every transport. With
   * `methods` it runs only for those. The first registered is the outermost (see `Middleware`).
   * An inbound request runs its chain inside its ledger record: its signal aborts on
   * cancellation or close, and `inspect` shows the time as the request's. `initialize` itself
   * (the handshake) is answered before any middleware.
   *
   * @example
   * ```ts
   * server.use('tools/call', async (context, next) => {
   *   if (context.authInfo === undefined) throw new JsonRpcError(-32001, 'Sign in first');
   *   return next();
   * });
   * ```
   */
  use(middleware: Middleware): this;
  use(methods: string | readonly string[], middleware: Middleware): this;
  use(first: Middleware | string | readonly string[], second?: Middleware): this {
    if (typeof first === 'function') this.#middleware.use(first);
    else this.#middleware.use(first, second as Middleware);
    return this;
  }

  /** Answers `method` on every connection, present and future. Replaces an earlier handler. */
  setRequestHandler(method: string, handler: ServerRequestHandler): void {
    this.#requestHandlers.set(method, handler);
  }

  /** Stops answering `method` on every connection (later requests get -32601), custom methods included. */
  removeRequestHandler(method: string): void {
    this.#custom.remove(method);
    this.#requestHandlers.delete(method);
    for (const connection of this.#connections) connection.session.removeRequestHandler(method);
  }

  /** Handles the notification `method` on every connection, present and future. */
  setNotificationHandler(method: string, handler: ServerNotificationHandler): void {
    this.#notificationHandlers.set(method, handler);
  }

  /** Stops handling the notification `method` on every connection. */
  removeNotificationHandler(method: string): void {
    this.#custom.remove(method);
    this.#notificationHandlers.delete(method);
    for (const connection of this.#connections) connection.session.removeNotificationHandler(method);
  }

  /**
   * Answers the custom (non-spec) request `method` on every connection: params are validated
   * before `handler` (-32602), its result after (-32603), and the server declares the opt-in
   * (`experimental[optIn ?? method]`, or `extensions[…]` from 2026-07-28) in each handshake
   * starting afterwards. Throws `InvalidArgumentError` for a spec method or a name without a
   * vendor prefix (`com.example/search`). `removeRequestHandler(method)` removes it.
   *
   * @example
   * ```ts
   * server.method('com.example/search', { params: z.object({ query: z.string() }), result: z.object({ hits: z.array(z.string()) }) },
   *   ({ query }) => ({ hits: [query] }));
   * ```
   */
  method<P extends CustomSchema | undefined = undefined, R extends CustomSchema | undefined = undefined>(method: string, spec: CustomRequestSpec<P, R>, handler: CustomRequestHandler<P, R>): void {
    this.#custom.defineRequest(method, spec);
    this.setRequestHandler(method, handler as unknown as ServerRequestHandler);
  }

  /**
   * Handles the custom (non-spec) notification `method` on every connection: invalid params
   * are dropped with a diagnostic; the opt-in is declared as for {@link Server.method}.
   * `removeNotificationHandler(method)` removes it.
   */
  notification<P extends CustomSchema | undefined = undefined>(method: string, spec: CustomNotificationSpec<P>, handler: CustomNotificationHandler<P>): void {
    this.#custom.defineNotification(method, spec);
    this.setNotificationHandler(method, handler as unknown as ServerNotificationHandler);
  }

  /**
   * Serves one client over `transport` and resolves with the new connection once the
   * transport has started (the handshake follows when the client sends `initialize`).
   * A transport already serving a live connection is refused with `AlreadyConnectedError`.
   *
   * A transport that carries one exchange at a stateless version (`Transport.singleExchange`:
   * a 2026-07-28 POST of stateless Streamable HTTP) is served without a session: its request
   * goes through the same method policy, validation, middleware and handlers from a
   * `StatelessDispatcher` built once per server, and its connection is not listed in
   * `connections` nor reported to `onconnection` / `onconnectionclose` (it is one request,
   * not a connection). Every other transport gets a session.
   */
  async connect(transport: Transport): Promise<ServerConnection> {
    if (this.#transports.has(transport)) {
      throw new AlreadyConnectedError('This transport is already connected to a server; create a new transport for each connection');
    }
    const shared = this.#sessionOptions;
    const stateless = transport.singleExchange === true ? (this.#stateless ??= new StatelessDispatcher(shared)) : undefined;
    if (stateless?.serves(transport) === true) return this.#serveExchange(stateless, transport);
    this.#transports.add(transport);
    const connection = new ServerConnection(this, (self) => {
      const options = Object.create(shared) as { -readonly [K in keyof ConnectionSessionOptions]: ConnectionSessionOptions[K] };
      options.handlers = self;
      options.transport = transport;
      return new Session(options);
    });
    const { session } = connection;
    this.#connections.add(connection);
    this.#options.onconnection?.(connection);
    try {
      await session.connect(transport);
    } catch (error) {
      this.#connections.delete(connection);
      this.#transports.delete(transport);
      throw error;
    }
    return connection;
  }

  /** One request served without a session: a connection of its own answers its handlers' `context.connection`. */
  async #serveExchange(stateless: StatelessDispatcher, transport: Transport): Promise<ServerConnection> {
    const shared = this.#sessionOptions;
    const optionsFor = (self: ServerConnection): ConnectionSessionOptions => {
      const options = Object.create(shared) as { -readonly [K in keyof ConnectionSessionOptions]: ConnectionSessionOptions[K] };
      options.handlers = self;
      options.transport = transport;
      return options;
    };
    const connection = new ServerConnection(this, (self) => new Session(optionsFor(self)), (self) => stateless.exchange(transport, optionsFor(self)));
    await transport.start(connection.exchange as StatelessExchange);
    return connection;
  }

  /**
   * Closes every connection gracefully; resolves when all have terminated. Listen streams are
   * ended first, each with its `SubscriptionsListenResult`.
   */
  async close(): Promise<void> {
    await this.subscriptions.end();
    await Promise.all([...this.#connections].map((connection) => connection.close()));
    await this.shared?.close();
  }

  /** A connection's session terminated (its `onclose`). */
  #connectionClosed(connection: ServerConnection, transport: Transport): void {
    this.#connections.delete(connection);
    this.#transports.delete(transport);
    // Its resource subscriptions end with it, on every instance.
    this.shared?.drop(connection.id).catch(() => undefined);
    this.#options.onconnectionclose?.(connection);
  }

  #initializeResult(connection: ServerConnection, _params: InitializeParams, version: string, context: InboundContext | undefined): InitializeResultShape {
    // The session's principal, known from its first request: its list changes are filtered by its view.
    connection.viewedAs = { authInfo: context?.authInfo };
    const capabilities = this.#declared.share(declareCustomOptIns(this.capabilities(), this.#custom.optIns(), version));
    connection.declare(capabilities);
    const result: InitializeResultShape = {
      protocolVersion: version,
      capabilities: capabilitiesFor(capabilities, version),
      serverInfo: this.#serverInfoFor(version) as InitializeResultShape['serverInfo'], // shaped once per version, frozen
    };
    if (this.#options.instructions !== undefined) result.instructions = this.#options.instructions;
    return result;
  }

  /**
   * `server/discover` (MCP 2026-07-28): the stateless versions this server serves
   * (`servedStatelessVersions`: newest first, the list a -32022 names), its capabilities for the request's version,
   * its instructions, caching hints; `serverInfo` goes in `_meta` like on every result.
   */
  #discover(version: string): JsonObject {
    const result: JsonObject = {
      supportedVersions: [...servedStatelessVersions(this.#options.supportedVersions ?? DUAL_ERA_PROTOCOL_VERSIONS)],
      // Custom methods' opt-ins are declared here as in the handshake (under `extensions` from 2026-07-28).
      capabilities: capabilitiesFor(declareCustomOptIns(this.capabilities(), this.#custom.optIns(), version), version),
    };
    if (this.#options.instructions !== undefined) result.instructions = this.#options.instructions;
    return completeResult(result, version, resolveCacheHints(this.#options.cache));
  }

  /**
   * @internal The handler of `method` on `connection` (its session's shared handlers, see
   * `SessionOptions.handlers`): looked up per request, so that no connection holds a handler
   * map and a closure per method for its whole life.
   */
  requestHandlerFor(connection: ServerConnection, method: string): RequestHandler | undefined {
    const handler = this.#requestHandlers.get(method);
    if (handler === undefined) return undefined;
    return (params, context) => {
      const serverContext = withConnection(context, connection);
      const version = context.protocolVersion;
      const meta = this.#options.serverInfoInResults === false || !hasFeature(version, 'perRequestMeta') ? undefined : this.#serverInfoMeta(version);
      if (INPUT_REQUIRED_METHODS.has(method) && hasFeature(version, 'multiRoundTrip')) return runInputRound(method, params, serverContext, this.#sealer, handler, meta);
      const result = handler(params, serverContext);
      if (meta === undefined) return result;
      return result instanceof Promise ? result.then((value: JsonObject) => withResultMeta(value, meta)) : withResultMeta(result, meta);
    };
  }

  /** `serverInfo` shaped for `version` (see {@link #serverInfoMeta}). */
  #serverInfoFor(version: string): JsonObject {
    return this.#serverInfoMeta(version)[SERVER_INFO_META_KEY] as JsonObject;
  }

  /** A modern result's `_meta` naming this server, `serverInfo` shaped for `version`: built once per version (see `result-meta.ts`). */
  #serverInfoMeta(version: string): JsonObject {
    let meta = this.#serverInfo.get(version);
    if (meta === undefined) {
      meta = serverInfoMeta(implementationFor(this.info, version));
      this.#serverInfo.set(version, meta);
    }
    return meta;
  }

  /** @internal The notification handler of `method` on `connection` (see `requestHandlerFor`). */
  notificationHandlerFor(connection: ServerConnection, method: string): NotificationHandler | undefined {
    const handler = this.#notificationHandlers.get(method);
    return handler === undefined ? undefined : (params, context) => handler(params, withConnection(context, connection));
  }
}

/**
 * Adds the connection to a session's handler context in place. No copy: a spread would read
 * every getter of the context (its AbortSignal among them, which Node builds lazily and which
 * costs more than the rest of the request's bookkeeping).
 */
function withConnection<C extends object>(context: C, connection: ServerConnection): C & { readonly connection: ServerConnection } {
  (context as C & { connection?: ServerConnection }).connection = connection;
  return context as C & { readonly connection: ServerConnection };
}

