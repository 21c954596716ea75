/**
 * The MCP client: a thin role layer over the protocol package's session runner. The
 * session does the lifecycle (handshake, gating, capability checks, timeouts, progress,
 * cancellation, close); this class adds typed calls, auto-paginating lists, tool output
 * validation, handlers for the server's requests and listeners for its notifications.
 *
 * ```
 *  new Client ─▶ connect(transport) ─▶ initialize ─▶ notifications/initialized ─▶ Operating ─▶ close() ─▶ Terminated
 *                     │  calls made meanwhile wait here, and are sent once Operating │
 *                     └──── a failed handshake rejects connect() and every waiting call with its error
 * ```
 */
import {
  AlreadyConnectedError,
  InvalidStateError,
  LEGACY_PROTOCOL_VERSIONS,
  Session,
  assertCustomMethodName,
  getRevision,
  hasCapability,
  isCreateTaskResult,
  hasFeature,
  proposeVersion,
  systemClock,
  type CloseInfo,
  type ConnectionState,
  type CustomNotificationSpec,
  type CustomRequestSpec,
  type CustomSchema,
  type GetSkillResult,
  type InferCustom,
  type JsonObject,
  type ListSkillsResult,
  type NotificationHandler,
  type RequestHandler,
  type ProtocolEra,
  type Transport,
} from '@statemcp/protocol';
import { buildCapabilities } from './capabilities.js';
import { connectAndNegotiate } from './connect-handshake.js';
import { ClientCustomMethods, customSpec, type CustomCallOptions, type CustomNotificationHandler, type CustomNotifyOptions, type CustomRequestHandler } from './custom-methods.js';
import { ListChangedStream, type ChangedList } from './list-changed-stream.js';
import { watchLists, type ListRefresher } from './list-refresh.js';
import { NotificationListeners } from './listeners.js';
import { ListenStreams, type ListenHandle, type ListenOptions, type SubscriptionFilter } from './listen.js';
import { openListen, watchListenResumes, type ListenHost } from './listen-open.js';
import type {
  CallOptions,
  CallToolOptions,
  ClientOptions,
  ConnectOptions,
  ElicitationHandler,
  ElicitationSettings,
  ListOptions,
  SamplingHandler,
  SamplingSettings,
} from './options.js';
import { LIST_METHOD, collectPages, pageFetcher, paginate } from './pagination.js';
import { checkRoots, sameRoots } from './roots.js';
import { ServerRequestHandlers } from './server-requests.js';
import { ToolTask, type TaskChannel } from './tool-task.js';
import type { DetailedTask as ToolTaskState } from '@statemcp/protocol';
import { skillsCall } from './skills-calls.js';
import { ResponseCache, type ResponseCacheStats } from './response-cache.js';
import { requestOptions, sessionOptions } from './session-options.js';
import { ToolOutputValidator } from './tool-output.js';
import type {
  CallToolParams,
  CallToolResult,
  ClientCapabilities,
  CompleteRequestParams,
  CompleteResult,
  GetPromptParams,
  GetPromptResult,
  Implementation,
  ListParams,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LoggingLevel,
  LoggingMessageNotificationParams,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceParams,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  Tool,
} from './types.js';

/** The lists the client's own listen stream can carry. */
const CHANGED_LISTS: readonly ChangedList[] = ['tools', 'prompts', 'resources'];

/** How long `connect()` waits for the acknowledgement of the client's own listen stream without a timeout of its own, ms. */
const DEFAULT_LISTEN_ACK_WAIT_MS = 60_000;

/**
 * An MCP client. One client holds one connection at a time; after it has closed,
 * `connect()` may be called again and starts a fresh session at Uninitialized.
 *
 * Calls made while `connect()` is still running **wait for the handshake**: they are sent
 * once the client is Operating, and reject with the handshake's error if it fails. Calls
 * made before `connect()` or after `close()` fail at once with a typed error
 * (`InvalidStateError` / `ConnectionClosedError`).
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'my-app', version: '1.0.0' }, { defaultTimeoutMs: 30_000 });
 * await client.connect(transport);
 * for await (const tool of client.tools()) console.log(tool.name);
 * const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
 * await client.close();
 * ```
 */
export class Client {
  /** What this client reports about itself in `initialize`. */
  readonly clientInfo: Implementation;
  readonly #options: ClientOptions;
  readonly #serverRequests = new ServerRequestHandlers();
  readonly #listeners = new NotificationListeners();
  readonly #streams = new ListenStreams();
  readonly #toolOutput: ToolOutputValidator;
  readonly #custom = new ClientCustomMethods();
  readonly #refreshers: readonly ListRefresher<unknown>[];
  readonly #cache: ResponseCache | undefined;
  readonly #listChanged: ListChangedStream;
  #session: Session;
  #declared: ClientCapabilities = {};
  #handshake: Promise<void> | undefined;

  constructor(clientInfo: Implementation, options: ClientOptions = {}) {
    this.clientInfo = { ...clientInfo };
    this.#options = options;
    this.#toolOutput = new ToolOutputValidator(options.jsonSchemaValidator);
    if (options.onSampling !== undefined) this.#serverRequests.sampling = { handler: options.onSampling, settings: {} };
    if (options.onElicitation !== undefined) this.#serverRequests.elicitation = { handler: options.onElicitation, settings: {} };
    if (options.roots !== undefined) this.#serverRequests.roots = checkRoots(options.roots);
    this.#listeners.add('notifications/tools/list_changed', () => this.#toolOutput.clear());
    this.#listeners.tap = (method, params) => this.#streams.route(method, params);
    const listChanged = (this.#listChanged = new ListChangedStream(options.autoListen ?? true, () =>
      this.#session.state.kind === 'operating' && this.era === 'modern' ? this.#listenHost() : undefined,
    ));
    this.#listeners.admit = (method, params) => listChanged.admits(method, params);
    for (const list of CHANGED_LISTS) if (options.listChanged?.[list] !== undefined) listChanged.want(list);
    const cache = (this.#cache = options.cache === false ? undefined : new ResponseCache(options.clock ?? systemClock, options.cache));
    if (cache !== undefined) for (const method of ResponseCache.notifications) this.#listeners.add(method, (params) => cache.notified(method, params));
    this.#refreshers = watchLists(this.#listeners, options.clock ?? systemClock, options.listChanged, (kind, maxPages) =>
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

  /** Drops every cached result (the next calls go to the server). A new `connect()` does it too. */
  clearCache(): void {
    this.#cache?.clear();
  }

  /** Resolves once, when the current connection reaches Terminated, with how it ended. */
  get closed(): Promise<CloseInfo> {
    return this.#session.closed;
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
    if (this.#engaged()) throw new AlreadyConnectedError('This client is already connected (or connecting); close it before connecting again');
    const kind = this.#session.state.kind;
    if (kind === 'shuttingDown') throw new InvalidStateError('The previous connection is still closing; await client.closed first', kind);
    if (kind === 'terminated') this.#session = this.#createSession();
    this.#cache?.clear();
    const handshake = this.#runHandshake(this.#session, transport, options);
    this.#handshake = handshake;
    // Waiting calls observe the rejection through their own await; this keeps it from being reported as unhandled.
    handshake.catch(() => undefined);
    try {
      await handshake;
    } finally {
      this.#handshake = undefined;
    }
    // 2026-07-28: the stream that carries list changes to the listeners (list-changed-stream.ts).
    await this.#listChanged.updateWithin(this.#options.clock ?? systemClock, options.timeoutMs ?? this.#options.defaultTimeoutMs ?? DEFAULT_LISTEN_ACK_WAIT_MS);
  }

  async #runHandshake(session: Session, transport: Transport, options: ConnectOptions): Promise<void> {
    const proposed = this.#options.protocolVersion ?? proposeVersion(this.#options.supportedVersions ?? LEGACY_PROTOCOL_VERSIONS);
    this.#declared = this.#custom.declare(buildCapabilities(this.#options.capabilities, this.#serverRequests.implied()), proposed);
    await connectAndNegotiate(session, transport, this.#declared, this.clientInfo, this.#options, options);
  }

  #createSession(): Session {
    const session = new Session(sessionOptions(this.#options, () => this.#declared, this.#custom.table));
    this.#serverRequests.install(session, () => this.#declared);
    this.#custom.install(session);
    this.#listeners.install(session);
    this.#streams.install(session);
    watchListenResumes(session, () => this.#listenHost());
    void session.closed.then(() => {
      for (const refresher of this.#refreshers) refresher.stop();
    });
    return session;
  }

  /** True while a handshake is running or a connection is live (not yet shutting down). */
  #engaged(): boolean {
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
    this.#streams.endWaiting(); // listen streams waiting out a lost connection end here
    await this.#listChanged.close(); // the client's own stream ends 'closed', its request cancelled
    await this.#session.close();
  }

  /** Closes forcefully: settles everything and terminates the transport at once. */
  async terminate(): Promise<void> {
    await this.#session.terminate();
  }

  // ------------------------------------------------------------------ handlers for server requests

  /**
   * Handles `sampling/createMessage` and declares the `sampling` capability (with
   * `sampling.tools` / `sampling.context` when asked). Register before `connect()`; after it,
   * a handler can only replace one whose capability was already declared.
   *
   * @example
   * ```ts
   * client.onSampling(async (params) => ({ role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'my-model' }));
   * ```
   */
  onSampling(handler: SamplingHandler, settings: SamplingSettings = {}): void {
    this.#assertDeclarable('sampling', 'onSampling');
    this.#serverRequests.sampling = { handler, settings };
  }

  /**
   * Handles `elicitation/create` and declares the `elicitation` capability: form mode by
   * default, URL mode with `{ url: true }`. A request in an undeclared mode is answered
   * -32602 without calling the handler. After an `accept` in form mode, every field the
   * handler left out gets the requested schema's `default`. Register before `connect()`.
   *
   * @example
   * ```ts
   * client.onElicitation(async (params) => ({ action: 'accept', content: { name: 'Ada' } }), { form: true, url: true });
   * ```
   */
  onElicitation(handler: ElicitationHandler, settings: ElicitationSettings = {}): void {
    this.#assertDeclarable('elicitation', 'onElicitation');
    this.#serverRequests.elicitation = { handler, settings };
  }

  /**
   * Sets the roots answered to `roots/list` and declares `roots.listChanged`. Once connected,
   * a change sends `notifications/roots/list_changed`. Roots must be `file://` URIs. Call it
   * once before `connect()` for the capability to be declared.
   *
   * @example
   * ```ts
   * await client.setRoots([{ uri: 'file:///home/me/project', name: 'project' }]);
   * ```
   */
  async setRoots(roots: readonly Root[]): Promise<void> {
    const next = checkRoots(roots);
    this.#assertDeclarable('roots', 'setRoots');
    const previous = this.#serverRequests.roots;
    this.#serverRequests.roots = next;
    if (sameRoots(previous, next)) return;
    const version = this.#session.protocolVersion;
    const announced = version !== undefined && getRevision(version)?.notifications['notifications/roots/list_changed'] !== undefined;
    if (this.#session.state.kind === 'operating' && announced && hasCapability(this.#declared, ['roots', 'listChanged'])) {
      await this.#session.notify('notifications/roots/list_changed');
    }
  }

  /** The roots currently answered to `roots/list`. */
  get roots(): readonly Root[] | undefined {
    return this.#serverRequests.roots;
  }

  #assertDeclarable(capability: 'sampling' | 'elicitation' | 'roots', api: string): void {
    if (this.#engaged() && !hasCapability(this.#declared, [capability])) {
      throw new InvalidStateError(
        `${api}() was called after connect() without the ${capability} capability declared; register it before connecting (or declare it in options.capabilities)`,
        this.#session.state.kind,
      );
    }
  }

  // ------------------------------------------------------------------ notification listeners

  /**
   * Calls `listener` on `notifications/tools/list_changed`; returns an unsubscribe function. In
   * the 2026-07-28 era the client opens a listen stream for it (see `ClientOptions.autoListen`).
   */
  onToolsListChanged(listener: () => void): () => void {
    return this.#onListChanged('tools', listener);
  }

  /** Calls `listener` on `notifications/resources/list_changed`; returns an unsubscribe function. Modern era: see `onToolsListChanged`. */
  onResourcesListChanged(listener: () => void): () => void {
    return this.#onListChanged('resources', listener);
  }

  /** Calls `listener` on `notifications/prompts/list_changed`; returns an unsubscribe function. Modern era: see `onToolsListChanged`. */
  onPromptsListChanged(listener: () => void): () => void {
    return this.#onListChanged('prompts', listener);
  }

  #onListChanged(list: ChangedList, listener: () => void): () => void {
    const remove = this.#listeners.add(`notifications/${list}/list_changed`, () => listener());
    const release = this.#listChanged.want(list);
    void this.#listChanged.update(); // connected in the modern era: the stream widens to this list
    return () => {
      remove();
      release();
    };
  }

  /** Calls `listener` with the URI of a subscribed resource that changed; returns an unsubscribe function. */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    return this.#listeners.add('notifications/resources/updated', (params) => listener(String(params.uri)));
  }

  /** Calls `listener` with each `notifications/message` log entry; returns an unsubscribe function. */
  onLoggingMessage(listener: (message: LoggingMessageNotificationParams) => void): () => void {
    return this.#listeners.add('notifications/message', (params) => listener(params as LoggingMessageNotificationParams));
  }

  /** Calls `listener` when the server reports a URL-mode elicitation complete (2025-11-25); returns an unsubscribe function. */
  onElicitationComplete(listener: (elicitationId: string) => void): () => void {
    return this.#listeners.add('notifications/elicitation/complete', (params) => listener(String(params.elicitationId)));
  }

  /**
   * Opens a stream of change notifications, in either era, and resolves once the server has
   * acknowledged it (`stream.acknowledged` is what it honours). 2026-07-28: a
   * `subscriptions/listen` request that stays open; legacy: `resources/subscribe` for the URIs
   * and the connection's own list changes. Its notifications also reach the client-wide
   * listeners and the `listChanged` auto-refresh. `stream.close()` ends it.
   *
   * @example
   * ```ts
   * const stream = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['file:///notes.md'] });
   * for await (const { method, params } of stream) console.log(method, params.uri);
   * ```
   */
  async listen(filter: SubscriptionFilter, options: ListenOptions = {}): Promise<ListenHandle> {
    await this.#handshake;
    if (this.#session.state.kind !== 'operating') throw new InvalidStateError('listen() needs a live connection: call connect() first', this.#session.state.kind);
    return openListen(this.#listenHost(), filter, options);
  }

  #listenHost(): ListenHost {
    const host = { session: this.#session, modern: this.era === 'modern', streams: this.#streams, serverCapabilities: this.serverCapabilities };
    return { ...host, subscribe: (uri) => this.subscribeResource({ uri }), unsubscribe: (uri) => this.unsubscribeResource({ uri }) };
  }

  // ------------------------------------------------------------------ calls

  /** Sends `ping` and resolves with the round-trip time in ms (allowed during the handshake too). */
  async ping(options: CallOptions = {}): Promise<number> {
    return this.#session.ping(requestOptions(options));
  }

  /** One page of `tools/list`. The output schemas it lists are remembered for `callTool`. */
  async listTools(params: ListParams = {}, options: CallOptions = {}): Promise<ListToolsResult> {
    const result = (await this.#call('tools/list', params, options)) as ListToolsResult;
    this.#toolOutput.remember(result.tools);
    return result;
  }

  /**
   * Every tool, page after page. With `maxPages`, a listing longer than that many pages
   * throws `TooManyPagesError` once the last page allowed is used up.
   *
   * @example
   * ```ts
   * for await (const tool of client.tools()) console.log(tool.name);
   * ```
   */
  tools(params: ListParams = {}, options: ListOptions = {}): AsyncGenerator<Tool, void, undefined> {
    return paginate(pageFetcher(this, 'tools', params, options), 'tools/list', params.cursor, options.maxPages);
  }

  /**
   * Every tool in one array, fetching at most `maxPages` pages (default 100); a longer
   * listing rejects with `TooManyPagesError` instead of growing without bound.
   *
   * @example
   * ```ts
   * const tools = await client.listAllTools({}, { maxPages: 10 });
   * ```
   */
  listAllTools(params: ListParams = {}, options: ListOptions = {}): Promise<Tool[]> {
    return collectPages(pageFetcher(this, 'tools', params, options), 'tools/list', params.cursor, options.maxPages);
  }

  /**
   * Calls a tool. When a listing gave the tool an `outputSchema`, a successful result must
   * carry `structuredContent` matching it, or the call rejects with `InvalidResultError`.
   * A tool-level failure is a result with `isError: true`, not a rejection.
   */
  async callTool(params: CallToolParams, options: CallToolOptions = {}): Promise<CallToolResult> {
    const answer = await this.#call('tools/call', params, options);
    let result = answer as CallToolResult;
    if (isCreateTaskResult(answer)) {
      // The server chose to run the call as a task (tasks extension): drive it to its end.
      const { resultType: _r, ...task } = answer;
      const handle = new ToolTask(answer.taskId, this.#taskChannel(params.name), { ...task, resultType: 'complete' });
      options.onTask?.(handle);
      result = await handle.result(options.signal);
    }
    if (options.validateOutput ?? this.#options.validateToolOutput ?? true) this.#toolOutput.validate(params.name, result);
    return result;
  }

  /**
   * A handle on a task of the tasks extension by its id, e.g. one a previous client started
   * (`get`, `cancel`, `result()`, `statuses()`). The requests carry this client's capabilities,
   * which must list the extension.
   *
   * @example
   * ```ts
   * const result = await client.task(savedTaskId).result();
   * ```
   */
  task(taskId: string): ToolTask {
    return new ToolTask(taskId, this.#taskChannel());
  }

  #taskChannel(tool?: string): TaskChannel {
    return {
      request: (method, params, signal) => this.#call(method, params, signal === undefined ? {} : { signal }),
      answer: (method, params, context) => this.#serverRequests.answer(method, params, context),
      clock: this.#options.clock ?? systemClock,
      protocolVersion: this.#session.protocolVersion ?? '',
      ...(tool !== undefined ? { tool } : {}),
      report: (build) => this.#session.reportTaskTransition(build),
      watch: (taskId, onPush) => this.#streams.watchTask(taskId, (params) => onPush(params === undefined ? undefined : ({ ...params, resultType: 'complete' } as unknown as ToolTaskState))),
    };
  }

  /** One page of `resources/list`. */
  async listResources(params: ListParams = {}, options: CallOptions = {}): Promise<ListResourcesResult> {
    return (await this.#call('resources/list', params, options)) as ListResourcesResult;
  }

  /** Every resource, page after page (bounded by `maxPages` when given). */
  resources(params: ListParams = {}, options: ListOptions = {}): AsyncGenerator<Resource, void, undefined> {
    return paginate(pageFetcher(this, 'resources', params, options), 'resources/list', params.cursor, options.maxPages);
  }

  /** Every resource in one array, fetching at most `maxPages` pages (default 100); see `listAllTools`. */
  listAllResources(params: ListParams = {}, options: ListOptions = {}): Promise<Resource[]> {
    return collectPages(pageFetcher(this, 'resources', params, options), 'resources/list', params.cursor, options.maxPages);
  }

  /** One page of `resources/templates/list`. */
  async listResourceTemplates(params: ListParams = {}, options: CallOptions = {}): Promise<ListResourceTemplatesResult> {
    return (await this.#call('resources/templates/list', params, options)) as ListResourceTemplatesResult;
  }

  /** Every resource template, page after page (bounded by `maxPages` when given). */
  resourceTemplates(params: ListParams = {}, options: ListOptions = {}): AsyncGenerator<ResourceTemplate, void, undefined> {
    return paginate(pageFetcher(this, 'resourceTemplates', params, options), 'resources/templates/list', params.cursor, options.maxPages);
  }

  /** Every resource template in one array, fetching at most `maxPages` pages (default 100); see `listAllTools`. */
  listAllResourceTemplates(params: ListParams = {}, options: ListOptions = {}): Promise<ResourceTemplate[]> {
    return collectPages(pageFetcher(this, 'resourceTemplates', params, options), 'resources/templates/list', params.cursor, options.maxPages);
  }

  /** Reads a resource (`resources/read`). */
  async readResource(params: ResourceParams, options: CallOptions = {}): Promise<ReadResourceResult> {
    return (await this.#call('resources/read', params, options)) as ReadResourceResult;
  }

  /** Subscribes to updates of a resource (needs the server's `resources.subscribe`); see `onResourceUpdated`. */
  async subscribeResource(params: ResourceParams, options: CallOptions = {}): Promise<void> {
    await this.#call('resources/subscribe', params, options);
  }

  /** Ends a subscription made with `subscribeResource`. */
  async unsubscribeResource(params: ResourceParams, options: CallOptions = {}): Promise<void> {
    await this.#call('resources/unsubscribe', params, options);
  }

  /** One page of `prompts/list`. */
  async listPrompts(params: ListParams = {}, options: CallOptions = {}): Promise<ListPromptsResult> {
    return (await this.#call('prompts/list', params, options)) as ListPromptsResult;
  }

  /** Every prompt, page after page (bounded by `maxPages` when given). */
  prompts(params: ListParams = {}, options: ListOptions = {}): AsyncGenerator<Prompt, void, undefined> {
    return paginate(pageFetcher(this, 'prompts', params, options), 'prompts/list', params.cursor, options.maxPages);
  }

  /** Every prompt in one array, fetching at most `maxPages` pages (default 100); see `listAllTools`. */
  listAllPrompts(params: ListParams = {}, options: ListOptions = {}): Promise<Prompt[]> {
    return collectPages(pageFetcher(this, 'prompts', params, options), 'prompts/list', params.cursor, options.maxPages);
  }

  /** Gets a prompt with its arguments filled in (`prompts/get`). */
  async getPrompt(params: GetPromptParams, options: CallOptions = {}): Promise<GetPromptResult> {
    return (await this.#call('prompts/get', params, options)) as GetPromptResult;
  }

  /** Asks for completions of a prompt or resource-template argument (`completion/complete`). */
  async complete(params: CompleteRequestParams, options: CallOptions = {}): Promise<CompleteResult> {
    return (await this.#call('completion/complete', params, options)) as CompleteResult;
  }

  /**
   * One page of the server's skills (`skills/list`, skills extension): entries with each
   * skill's frontmatter and file manifest; no file is read. Throws `CapabilityNotSupportedError`
   * when the server did not declare `io.modelcontextprotocol/skills`. Load one with `loadSkill`
   * from `@statemcp/client/skills`.
   */
  async listSkills(params: ListParams = {}, options: CallOptions = {}): Promise<ListSkillsResult> {
    return (await skillsCall(this, 'skills/list', { ...params }, options)) as ListSkillsResult;
  }

  /** The current entry of the skill whose `SKILL.md` is at `uri` (`skills/get`); the server answers -32602 for an unknown URI. */
  async getSkill(uri: string, options: CallOptions = {}): Promise<GetSkillResult> {
    return (await skillsCall(this, 'skills/get', { uri }, options)) as GetSkillResult;
  }

  /** Sets the minimum level of the log messages the server sends (`logging/setLevel`). */
  async setLoggingLevel(level: LoggingLevel, options: CallOptions = {}): Promise<void> {
    await this.#call('logging/setLevel', { level }, options);
  }

  /**
   * Sends the custom (non-spec) request `method` (a vendor extension, `com.example/search`)
   * through the same ledger, timeouts, progress and cancellation as every call:
   * `options.params` validates the params before sending, `options.result` the result on
   * arrival (`InvalidResultError`). Refused locally with `CapabilityNotSupportedError` unless
   * the server declared the opt-in (`experimental[optIn ?? method]`; `optIn: false` skips it),
   * with `InvalidArgumentError` for a spec method or a name without a vendor prefix.
   */
  async request<P extends CustomSchema | undefined = undefined, R extends CustomSchema | undefined = undefined>(method: string, params?: JsonObject, options: CustomCallOptions<P, R> = {}): Promise<InferCustom<R>> {
    assertCustomMethodName(method);
    return (await this.#session.request(method, params, { ...requestOptions(options), custom: customSpec(options), waitForOperating: true })) as InferCustom<R>;
  }

  /** Sends the custom (non-spec) notification `method`; the same checks as {@link request}. */
  async notify<P extends CustomSchema | undefined = undefined>(method: string, params?: JsonObject, options: CustomNotifyOptions<P> = {}): Promise<void> {
    assertCustomMethodName(method);
    await this.#session.notify(method, params, { custom: customSpec(options) });
  }

  /**
   * Answers the custom request `method` from the server: params validated before `handler`
   * (-32602), its result after (-32603); the opt-in is declared in the next handshake.
   */
  method<P extends CustomSchema | undefined = undefined, R extends CustomSchema | undefined = undefined>(method: string, spec: CustomRequestSpec<P, R>, handler: CustomRequestHandler<P, R>): void {
    this.#custom.defineRequest(method, spec, handler as unknown as RequestHandler, this.#session);
  }

  /** Handles the custom notification `method` from the server (invalid params are dropped); declared like {@link Client.method}. */
  notification<P extends CustomSchema | undefined = undefined>(method: string, spec: CustomNotificationSpec<P>, handler: CustomNotificationHandler<P>): void {
    this.#custom.defineNotification(method, spec, handler as unknown as NotificationHandler, this.#session);
  }

  /**
   * Sends one call. While a handshake runs — `connect()`, or the one the session re-runs after
   * a Streamable HTTP server forgot it — the call waits in the session's ledger
   * (`waitForOperating`: visible in `pendingRequests()` and `inspect`, its timeout and signal
   * live) and goes out once the connection is Operating; a failed handshake rejects it with
   * the handshake's error. Operating, the flag changes nothing. A cacheable call (the lists,
   * `resources/read`) goes through the response cache.
   */
  async #call(method: string, params: object, options: CallOptions): Promise<JsonObject> {
    const cache = this.#cache;
    const version = this.#session.protocolVersion;
    if (cache === undefined || !ResponseCache.caches(method) || version === undefined || !hasFeature(version, 'cacheableResults')) return this.#session.request(method, params as JsonObject, { ...requestOptions(options), waitForOperating: true });
    return cache.call(method, params as JsonObject, options.cache === false, (onInputRound) =>
      this.#session.request(method, params as JsonObject, { ...requestOptions(options), waitForOperating: true, onInputRound }),
    );
  }
}
