/**
 * The connection side of the `Client`: the state it holds across connections, connecting
 * (discovery or the handshake) and closing. The client's handlers for what the server sends
 * are in `client-handlers.ts`, its typed calls in `client.ts`.
 *
 * ```
 *  new Client ─▶ connect(transport)
 *    ├─ era 'auto' | 'modern' ─▶ server/discover ─▶ a modern answer ──────────────────────────────────▶ Operating
 *    │                              └─ 'auto' only: a legacy answer, or none in time ─┐
 *    └─ era 'legacy' ─────────────────────────────────────────────────────────────────┴─▶ initialize ─▶ notifications/initialized ─▶ Operating
 *  Operating ─▶ close() ─▶ Terminated
 *
 *  Calls made while connecting wait and are sent once Operating; a failed discovery or handshake
 *  rejects connect() and every waiting call with its error.
 * ```
 */
import {
  AlreadyConnectedError,
  InvalidStateError,
  LEGACY_PROTOCOL_VERSIONS,
  MiddlewareStack,
  Session,
  systemClock,
  type CloseInfo,
  type ConnectionState,
  type JsonObject,
  type Middleware,
  type ProtocolEra,
  type Transport,
} from '@statemcp/protocol';
import { getRevision, hasFeature, proposeVersion } from '@statemcp/protocol/internal';
import { buildCapabilities } from './capabilities.js';
import { connectAndNegotiate } from './connect-handshake.js';
import { ClientHandlerTable, StaleResults } from './client-handler-table.js';
import { ClientCustomMethods } from './custom-methods.js';
import { ListChangedStream, type ChangedList } from './list-changed-stream.js';
import { watchLists, type ListRefresher } from './list-refresh.js';
import { NotificationListeners } from './listeners.js';
import { ListenStreams } from './listen.js';
import { watchListenResumes, type ListenHost } from './listen-open.js';
import type { CallOptions, ClientOptions, ConnectOptions } from './options.js';
import { LIST_METHOD, collectPages, pageFetcher } from './pagination.js';
import { checkRoots } from './roots.js';
import { ServerRequestHandlers } from './server-requests.js';
import { ResponseCache, type ResponseCacheStats } from './response-cache.js';
import { WAIT_FOR_OPERATING, requestOptions, sessionOptions } from './session-options.js';
import { ToolOutputValidator } from './tool-output.js';
import type {
  ClientCapabilities,
  Implementation,
  ListParams,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ResourceParams,
  ServerCapabilities,
} from './types.js';

/** The lists the client's own listen stream can carry. */
const CHANGED_LISTS: readonly ChangedList[] = ['tools', 'prompts', 'resources'];

/** How long `connect()` waits for the acknowledgement of the client's own listen stream without a timeout of its own, ms. */
const DEFAULT_LISTEN_ACK_WAIT_MS = 60_000;

/** The connection side of a `Client` (see the module comment); the client extends it. */
export abstract class ClientConnection {
  /** What this client reports about itself in `initialize`. */
  readonly clientInfo: Implementation;
  /** @internal */
  protected readonly options: ClientOptions;
  /** @internal */
  protected readonly serverRequests: ServerRequestHandlers;
  /** @internal */
  protected readonly listeners: NotificationListeners;
  /** @internal */
  protected readonly streams = new ListenStreams();
  /** @internal */
  protected readonly toolOutput: ToolOutputValidator;
  /** @internal */
  protected readonly custom = new ClientCustomMethods();
  readonly #refreshers: readonly ListRefresher<unknown>[];
  readonly #cache: ResponseCache | undefined;
  /** @internal */
  protected readonly listChanged: ListChangedStream;
  /** What each session answers and hears, shared by this client's sessions. */
  readonly #handlers: ClientHandlerTable;
  /** This client's middleware, shared by each connection's session. */
  readonly #middleware = new MiddlewareStack();
  /** The capabilities sent in `initialize`, read by the sessions and the server-request rules; a request's own when `options.requestCapabilities` gives some. */
  readonly #declaredNow = (): ClientCapabilities => this.options.requestCapabilities?.() ?? this.#declared;
  #session: Session;
  #declared: ClientCapabilities = {};
  #handshake: Promise<void> | undefined;

  constructor(clientInfo: Implementation, options: ClientOptions = {}) {
    this.clientInfo = { ...clientInfo };
    this.options = options;
    this.toolOutput = new ToolOutputValidator(options.jsonSchemaValidator);
    this.serverRequests = new ServerRequestHandlers(this.#declaredNow);
    if (options.onSampling !== undefined) this.serverRequests.sampling = { handler: options.onSampling, settings: {} };
    if (options.onElicitation !== undefined) this.serverRequests.elicitation = { handler: options.onElicitation, settings: {} };
    if (options.roots !== undefined) this.serverRequests.roots = checkRoots(options.roots);
    const listChanged = (this.listChanged = new ListChangedStream(options.autoListen ?? true, () =>
      this.#session.state.kind === 'operating' && this.era === 'modern' ? this.listenHost() : undefined,
    ));
    for (const list of CHANGED_LISTS) if (options.listChanged?.[list] !== undefined) listChanged.want(list);
    const cache = (this.#cache = options.cache === false ? undefined : new ResponseCache(options.clock ?? systemClock, options.cache));
    // What a change makes stale, dropped before any other listener hears of it.
    this.listeners = new NotificationListeners(new StaleResults(this.toolOutput, cache));
    this.#handlers = new ClientHandlerTable(this.serverRequests, this.listeners, this.streams, listChanged);
    this.#refreshers = watchLists(this.listeners, options.clock ?? systemClock, options.listChanged, (kind, maxPages) =>
      collectPages(pageFetcher(this, kind, {}, {}), LIST_METHOD[kind], undefined, maxPages),
    );
    this.#session = this.#createSession();
  }

  // ------------------------------------------------------------------ state

  /** The connection state (a discriminated union: `uninitialized` … `operating` … `terminated`). */
  get state(): ConnectionState {
    return this.#session.state;
  }

  /** The session runner of the current connection: raw requests, pending requests, transitions. */
  get session(): Session {
    return this.#session;
  }

  /** The negotiated protocol version, once the handshake (or modern-era discovery) has agreed on one. */
  get protocolVersion(): string | undefined {
    return this.#session.protocolVersion;
  }

  /** The era of the agreed version: `legacy` (a handshake) or `modern` (2026-07-28, discovery), once known. */
  get era(): ProtocolEra | undefined {
    const version = this.#session.protocolVersion;
    return version === undefined ? undefined : getRevision(version)?.era;
  }

  /** What the server declared in `initialize` (or `server/discover`), once known. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#session.peer?.capabilities;
  }

  /** The server's name, version and other details from `initialize`, once known. */
  get serverInfo(): Implementation | undefined {
    return this.#session.peer?.info;
  }

  /** The server's usage hints for the model (`InitializeResult.instructions`), if it gave any. */
  get instructions(): string | undefined {
    return this.#session.peer?.instructions;
  }

  /** The capabilities declared in the current (or last) `initialize`. */
  get capabilities(): ClientCapabilities {
    return structuredClone(this.#declared);
  }

  /**
   * The response cache's counters (hits, misses, stores, invalidations, evictions) and what it
   * holds now; undefined when `options.cache` is `false`.
   */
  get cacheStats(): ResponseCacheStats | undefined {
    return this.#cache?.stats;
  }

  /**
   * Adds a middleware around every request and notification of this client, both ways:
   * outbound (every call, `initialize` and `server/discover` included; `next()` writes the
   * request, inside its ledger record, so its timeout and signal already run) and inbound (the
   * server's requests — sampling, elicitation, roots, each Multi Round-Trip input request — and
   * notifications). With `methods` it runs only for those. The first registered is the
   * outermost. A result a middleware returns without `next()` answers the call unsent.
   *
   * @example
   * ```ts
   * client.use('tools/call', async (context, next) => {
   *   console.log('calling', context.params.name);
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

  /** Drops every cached result (the next calls go to the server). A new `connect()` does it too. */
  clearCache(): void {
    this.#cache?.clear();
  }

  /** Resolves once, when the current connection reaches Terminated, with how it ended. */
  get closed(): Promise<CloseInfo> {
    return this.#session.closed;
  }

  /** @internal The capabilities declared in the current (or last) connection, not copied. */
  protected get declared(): ClientCapabilities {
    return this.#declared;
  }

  /** @internal The handshake `connect()` is running, if any (calls and `listen()` wait for it). */
  protected get handshake(): Promise<void> | undefined {
    return this.#handshake;
  }

  // ------------------------------------------------------------------ connecting

  /**
   * Attaches `transport` and agrees on an era through the connection machine: with `era`
   * `auto` (default) it discovers with `server/discover` and, on a legacy server, runs the
   * handshake — proposes the newest supported revision (or `options.protocolVersion`), accepts
   * any revision it supports, sends `notifications/initialized`. Resolves in Operating — in the
   * 2026-07-28 era once the client's own listen stream for list-change listeners, if it opens
   * one, was acknowledged (`ClientOptions.autoListen`). A server answer
   * this client cannot speak closes the connection and rejects with
   * `UnsupportedProtocolVersionError`. Throws `AlreadyConnectedError` while another
   * connection is live or being set up.
   *
   * @example
   * ```ts
   * await client.connect(transport, { timeoutMs: 10_000 });
   * console.log(client.protocolVersion, client.serverInfo?.name);
   * ```
   */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<void> {
    if (this.engaged()) throw new AlreadyConnectedError('This client is already connected (or connecting); close it before connecting again');
    const kind = this.#session.state.kind;
    if (kind === 'shuttingDown') throw new InvalidStateError('The previous connection is still closing; await client.closed first', kind);
    if (kind === 'terminated') this.#session = this.#createSession();
    this.#cache?.clear();
    const clock = this.options.clock ?? systemClock;
    const started = clock.now();
    const handshake = this.#runHandshake(this.#session, transport, options);
    this.#handshake = handshake;
    // Waiting calls observe the rejection through their own await; this keeps it from being reported as unhandled.
    handshake.catch(ignore);
    try {
      await handshake;
    } finally {
      this.#handshake = undefined;
    }
    // 2026-07-28: the stream that carries list changes to the listeners (list-changed-stream.ts),
    // waited for within what is left of the connect timeout (it bounds the whole connect).
    if (this.listChanged.idle) return;
    const wait = options.timeoutMs === undefined ? (this.options.defaultTimeoutMs ?? DEFAULT_LISTEN_ACK_WAIT_MS) : Math.max(0, options.timeoutMs - (clock.now() - started));
    await this.listChanged.updateWithin(clock, wait);
  }

  async #runHandshake(session: Session, transport: Transport, options: ConnectOptions): Promise<void> {
    const proposed = this.options.protocolVersion ?? proposeVersion(this.options.supportedVersions ?? LEGACY_PROTOCOL_VERSIONS);
    this.#declared = this.custom.declare(buildCapabilities(this.options.capabilities, this.serverRequests.implied()), proposed);
    await connectAndNegotiate(session, transport, this.#declared, this.clientInfo, this.options, options);
  }

  #createSession(): Session {
    const session = new Session(sessionOptions(this.options, this.#declaredNow, this.custom.table, this.#handlers, this.#middleware));
    this.custom.install(session);
    this.streams.install(session);
    watchListenResumes(session, this.streams, () => this.listenHost());
    if (this.#refreshers.length > 0) {
      void session.closed.then(() => {
        for (const refresher of this.#refreshers) refresher.stop();
      });
    }
    return session;
  }

  /** @internal True while a handshake is running or a connection is live (not yet shutting down). */
  protected engaged(): boolean {
    const kind = this.#session.state.kind;
    return this.#handshake !== undefined || (this.#session.transport !== undefined && kind !== 'shuttingDown' && kind !== 'terminated');
  }

  // ------------------------------------------------------------------ closing

  /**
   * Closes gracefully through the state machine: pending calls get `notifications/cancelled`
   * and reject with `ConnectionClosedError`, the transport closes, and the promise resolves
   * once the connection is Terminated — within `closeDeadlineMs` even if the transport never
   * reports closing. Idempotent. Closing during `connect()` makes `connect()` reject.
   */
  async close(): Promise<void> {
    this.streams.endWaiting(); // listen streams waiting out a lost connection end here
    if (this.listChanged.open) await this.listChanged.close(); // the client's own stream ends 'closed', its request cancelled
    await this.#session.close();
  }

  /** Closes forcefully: settles everything and terminates the transport at once. */
  async terminate(): Promise<void> {
    await this.#session.terminate();
  }

  /** @internal What opening a listen stream needs from this client's current connection. */
  protected listenHost(): ListenHost {
    const host = { session: this.#session, modern: this.era === 'modern', streams: this.streams, serverCapabilities: this.serverCapabilities };
    return { ...host, subscribe: (uri) => this.subscribeResource({ uri }), unsubscribe: (uri) => this.unsubscribeResource({ uri }) };
  }

  /**
   * Sends one call. While a handshake runs — `connect()`, or the one the session re-runs after
   * a Streamable HTTP server forgot it — the call waits in the session's ledger
   * (`waitForOperating`: visible in `pendingRequests()` and `inspect`, its timeout and signal
   * live) and goes out once the connection is Operating; a failed handshake rejects it with
   * the handshake's error. Operating, the flag changes nothing. A cacheable call (the lists,
   * `resources/read`) goes through the response cache.
   *
   * @internal
   */
  protected call(method: string, params: object, options: CallOptions, headers?: Readonly<Record<string, string>>): Promise<JsonObject> {
    const cache = this.#cache;
    const version = this.#session.protocolVersion;
    if (cache === undefined || !ResponseCache.caches(method) || version === undefined || !hasFeature(version, 'cacheableResults')) {
      return this.#session.request(method, params as JsonObject, requestOptions(options, headers === undefined ? WAIT_FOR_OPERATING : { waitForOperating: true, headers }));
    }
    return cache.call(method, params as JsonObject, options.cache === false, (onInputRound) =>
      this.#session.request(method, params as JsonObject, requestOptions(options, { waitForOperating: true, onInputRound })),
    );
  }

  /** One page of `tools/list` (the auto-refresh fetches through it). */
  abstract listTools(params?: ListParams, options?: CallOptions): Promise<ListToolsResult>;
  /** One page of `resources/list`. */
  abstract listResources(params?: ListParams, options?: CallOptions): Promise<ListResourcesResult>;
  /** One page of `resources/templates/list`. */
  abstract listResourceTemplates(params?: ListParams, options?: CallOptions): Promise<ListResourceTemplatesResult>;
  /** One page of `prompts/list`. */
  abstract listPrompts(params?: ListParams, options?: CallOptions): Promise<ListPromptsResult>;
  /** Subscribes to updates of a resource (legacy listen streams subscribe through it). */
  abstract subscribeResource(params: ResourceParams, options?: CallOptions): Promise<void>;
  /** Ends a subscription made with `subscribeResource`. */
  abstract unsubscribeResource(params: ResourceParams, options?: CallOptions): Promise<void>;
}

/** Marks a rejection as handled where it is observed elsewhere. */
function ignore(): undefined {
  return undefined;
}
