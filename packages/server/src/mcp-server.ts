/**
 * `McpServer`: the registration API over the low-level {@link Server}. Register tools,
 * resources, resource templates and prompts; connect any number of transports; the
 * declared capabilities follow from what is registered (logging always, unless turned
 * off), lists are paginated with opaque cursors, and registrations made while clients are
 * connected reach them as coalesced list_changed notifications.
 *
 * @example
 * ```ts
 * const server = new McpServer({ name: 'weather', version: '1.0.0' });
 * server.registerTool('forecast', { inputSchema: { city: z.string() } }, async ({ city }) => ({
 *   content: [{ type: 'text', text: `Sunny in ${city}` }],
 * }));
 * const connection = await server.connect(transport);
 * ```
 */
import { ErrorCode, JsonRpcError, TASKS_EXTENSION_ID, isExtensionId, type HasDefinitions, type CustomNotificationSpec, type CustomRequestSpec, type CustomSchema, type JsonObject, type JsonSchemaValidator, type Middleware, type Transport } from '@statemcp/protocol';
import { completeResult, type CacheHints } from './caching.js';
import { ListChanges } from './list-changes.js';
import { NO_COMPLETIONS, completerFor, completionResult, resolvedArguments, type Completer } from './completions.js';
import type { CustomNotificationHandler, CustomRequestHandler } from './custom-methods.js';
import type { InferObject, ObjectSchemaInput } from './object-schema.js';
import { PromptRegistry, type PromptInput, type PromptArgs, type PromptArgsInput, type PromptCallback, type PromptConfig, type RegisteredPrompt } from './prompts.js';
import { requestExtra } from './request-extra.js';
import type { RequestStateOptions } from './request-state.js';
import { ResourceRegistry, type ReadResourceCallback, type ReadResourceTemplateCallback, type RegisteredResource, type RegisteredResourceTemplate, type ResourceMetadata, type ResourceTemplateMetadata } from './resources.js';
import { ScopeChallenges } from './scope-challenges.js';
import { PrincipalViews, type ListKind } from './principal-views.js';
import { resourceKey, type ServerClusterOptions } from './shared-subscriptions.js';
import { Server, type ServerOptions, type ServerRequestContext, type ServerSessionOptions } from './server.js';
import type { LoggingMessage, ServerConnection } from './server-connection.js';
import { ExtensionTasks, type ExtensionTaskOptions, type TaskNotifier } from './tasks/extension-tasks.js';
import { TaskJobs } from './tasks/task-executor.js';
import { TaskStore, type TaskStoreOptions } from './tasks/task-store.js';
import { ToolTasks } from './tasks/tool-tasks.js';
import type { ToolResultOf } from './tool-results.js';
import { ToolRegistry, type RegisteredTool, type ToolArgs, type ToolCallback, type ToolConfig, type ToolConfigWithOutput, type ToolInput } from './tools.js';
import type { NoDefinitions, WithPrompt, WithResource, WithTool } from './typed-definitions.js';
import type { DefinedTool, ToolsDefinitions } from './tool-definitions.js';
import type { UriTemplateVariables } from './uri-template-match.js';
import type { Implementation, ServerCapabilities } from './wire-types.js';

/** Capability overrides: an object is merged over the derived entry, `false` removes it. */
export type CapabilityOverrides = { readonly [K in keyof ServerCapabilities]?: ServerCapabilities[K] | false } & { readonly [key: string]: unknown };

export interface McpServerOptions extends ServerSessionOptions {
  /** Usage hints for the model, sent in the InitializeResult. */
  readonly instructions?: string;
  /** Merged over the capabilities derived from registrations (`{ logging: false }` turns logging off). */
  readonly capabilities?: CapabilityOverrides;
  /** Items per page of every list (default 100; `Infinity` disables pagination). */
  readonly pageSize?: number;
  /**
   * Caching hints (2026-07-28+) of `server/discover`, the four lists and every `resources/read`
   * whose registration sets none (default `{ ttlMs: 0, cacheScope: 'private' }`: stale at once).
   */
  readonly cache?: CacheHints;
  /** 2026-07-28+: name this server in the `_meta` of every result (default true). */
  readonly serverInfoInResults?: boolean;
  /**
   * How the `requestState` of Multi Round-Trip rounds (2026-07-28+) is sealed: HMAC key (random
   * per process by default; every instance of a cluster must share one) and lifetime.
   */
  readonly requestState?: RequestStateOptions;
  /** Lifetimes and polling interval of tasks (2025-11-25). */
  readonly tasks?: TaskStoreOptions;
  /**
   * The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28): its store, lifetimes,
   * notifier and authorization binding. Declared automatically once a tool allows task
   * execution; `false` turns it off.
   */
  readonly taskExtension?: ExtensionTaskOptions | false;
  /** Called with every new connection, before its handshake. */
  readonly onconnection?: (connection: ServerConnection) => void;
  /** Called once when a connection has terminated, right after its `closed` resolved. */
  readonly onconnectionclose?: (connection: ServerConnection) => void;
  /**
   * Run as one instance of a cluster (scale-out, with the HTTP server's `cluster` option and the
   * same `instanceId`): resource subscriptions are shared, so `notifyResourceUpdated` on any
   * instance reaches the subscribers on every instance; a task of the tasks extension created on
   * one instance is cancelled and answered (`tasks/cancel`, `tasks/update`) from any other,
   * over `cluster.bus`; a step-up seen on one instance reaches the principal's listen streams on
   * the others. Pair it with a shared task store (`taskExtension.store`). Without it, everything stays here.
   */
  readonly cluster?: ServerClusterOptions;
  /**
   * The JSON Schema engine for schemas given as plain JSON Schema (`inputSchema`,
   * `outputSchema`, `argsSchema`). Default: the built-in `defaultJsonSchemaValidator`;
   * `createAjvValidator()` from `@statemcp/protocol/ajv` for Ajv with formats.
   */
  readonly jsonSchemaValidator?: JsonSchemaValidator;
}

/**
 * The high-level MCP server: registrations shared by every connection, capabilities derived
 * from them, one `ServerConnection` per connected transport.
 */
export class McpServer<D = NoDefinitions> implements HasDefinitions<D> {
  /** The registrations made with the `with…` methods, in the type only (never set): see `typedClient` in `@statemcp/client`. */
  declare readonly '~definitions'?: D;
  /** The low-level server (raw handlers, connections). */
  readonly server: Server;
  readonly #options: McpServerOptions;
  readonly #tools: ToolRegistry;
  readonly #resources = new ResourceRegistry(() => this.#changed('resources'));
  readonly #prompts: PromptRegistry;
  readonly #tasks: ToolTasks;
  readonly #extensionTasks: ExtensionTasks | undefined;
  readonly #extensions = new Map<string, JsonObject>();
  #capabilities: ServerCapabilities | undefined; // see capabilities()
  readonly #installed = new Set<string>();
  readonly #listChanges = new ListChanges((kinds) => this.#views.announce(kinds));
  /** The lists that ever held a registration (declared from then on, see `capabilities`). */
  readonly #registered = new Set<ListKind>();
  readonly #views: PrincipalViews;
  /** Scopes of `whenMissing: 'challenge'` registrations, for `createProtectedResource({ registrations })` (see scope-challenges.ts). */
  readonly scopeChallenges: ScopeChallenges;

  constructor(serverInfo: Implementation, options: McpServerOptions = {}) {
    this.#options = options;
    this.#tools = new ToolRegistry(() => this.#changed('tools'), options.jsonSchemaValidator);
    this.#prompts = new PromptRegistry(() => this.#changed('prompts'), options.jsonSchemaValidator);
    const { pageSize: _p, tasks: taskOptions, taskExtension, capabilities: _c, onconnectionclose, jsonSchemaValidator: _v, ...rest } = options;
    const serverOptions: ServerOptions = {
      ...rest,
      capabilities: () => this.capabilities(),
      // A connection's tasks end with it.
      onconnectionclose: (connection) => {
        store.dropOwner(connection.id);
        onconnectionclose?.(connection);
      },
    };
    this.server = new Server(serverInfo, serverOptions);
    const lists = { tools: this.#tools.entries, resources: this.#resources.entries, prompts: this.#prompts.entries };
    [this.#views, this.scopeChallenges] = [new PrincipalViews(this.server, lists, options.cluster), new ScopeChallenges(lists)];
    const store = new TaskStore(options.clock, taskOptions ?? {}, (record) => this.#tasks.notifyStatus(record));
    this.#tasks = new ToolTasks(this.server, store, () => this.#pageSize());
    const cluster = options.cluster === undefined ? undefined : { bus: options.cluster.bus, ...(options.clock === undefined ? {} : { clock: options.clock }) };
    this.#extensionTasks = taskExtension === false ? undefined : new ExtensionTasks(taskExtension, cluster);
    this.#extensionTasks?.attachListen(this.server.subscriptions);
    // A list enabled explicitly answers (empty) even before anything is registered.
    const overrides = options.capabilities ?? {};
    if (typeof overrides.tools === 'object') this.#installTools();
    if (typeof overrides.resources === 'object') this.#installResources();
    if (typeof overrides.prompts === 'object') this.#installPrompts();
    if (typeof overrides.completions === 'object') this.#installCompletions();
  }

  /**
   * Adds a middleware around every request and notification of every connection (see
   * `Server.use`): with `methods`, only for those. The first registered is the outermost.
   *
   * @example
   * ```ts
   * server.use('tools/call', async (context, next) => {
   *   const started = performance.now();
   *   try {
   *     return await next();
   *   } finally {
   *     console.log(`${String(context.params.name)} took ${performance.now() - started} ms`);
   *   }
   * });
   * ```
   */
  use(middleware: Middleware): this;
  use(methods: string | readonly string[], middleware: Middleware): this;
  use(first: Middleware | string | readonly string[], second?: Middleware): this {
    if (typeof first === 'function') this.server.use(first);
    else this.server.use(first, second as Middleware);
    return this;
  }

  /** The capabilities a handshake starting now declares; kept (frozen) until a registration or an extension changes, since a 2026-07-28 connection reads them per request. */
  capabilities(): ServerCapabilities {
    return (this.#capabilities ??= Object.freeze(this.#deriveCapabilities()));
  }

  #deriveCapabilities(): ServerCapabilities {
    const derived: ServerCapabilities = { logging: {} };
    // A list stays declared once it was served, even emptied: a 2026-07-28 listen stream is told
    // of its last item's removal under the capabilities of the moment (MCP 2025-11-25, Server
    // Features › Tools › Capabilities: listChanged promises those notifications).
    if (this.#registered.has('tools')) derived.tools = { listChanged: true };
    if (this.#registered.has('resources')) derived.resources = { subscribe: true, listChanged: true };
    if (this.#registered.has('prompts')) derived.prompts = { listChanged: true };
    if (this.#prompts.entries.size > 0 || this.#resources.hasTemplates || this.#prompts.hasCompleters || this.#resources.hasCompleters) derived.completions = {};
    if (this.#tools.hasTaskTools) derived.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
    const merged: Record<string, unknown> = derived; // built fresh above: no copy
    const taskExtension = this.#tools.hasTaskTools && this.#extensionTasks !== undefined && !this.#extensions.has(TASKS_EXTENSION_ID);
    if (this.#extensions.size > 0 || taskExtension) {
      const extensions: Record<string, unknown> = Object.fromEntries(this.#extensions);
      if (taskExtension) extensions[TASKS_EXTENSION_ID] = {};
      merged.extensions = extensions;
    }
    for (const [key, value] of Object.entries(this.#options.capabilities ?? {})) {
      if (value === false) delete merged[key];
      else if (typeof value === 'object' && value !== null && typeof merged[key] === 'object') merged[key] = { ...(merged[key] as object), ...value };
      else if (value !== undefined) merged[key] = value;
    }
    return merged;
  }

  /**
   * Declares support for an extension (MCP 2026-07-28 basic/versioning) under `capabilities.extensions[id]`,
   * with its settings (`{}` for none); declaring it again replaces the settings. Like every
   * capability, it reaches connections whose handshake starts afterwards. Extensions
   * shipped before the 2026-07-28 revision (MCP Apps) use the same key at every revision.
   *
   * @example
   * ```ts
   * server.declareExtension('io.modelcontextprotocol/ui', { mimeTypes: ['text/html;profile=mcp-app'] });
   * ```
   */
  declareExtension(id: string, settings: JsonObject = {}): void {
    if (!isExtensionId(id)) throw new TypeError(`Invalid extension id ${JSON.stringify(id)}: use a prefixed _meta key such as io.example/feature`);
    this.#extensions.set(id, structuredClone(settings));
    this.#capabilities = undefined;
  }

  /**
   * An observer of task changes (tasks extension, 2026-07-28): every change of an extension
   * task's state reaches `notifier` with the task's authorization context. `notifications/tasks`
   * themselves are built in: they go to the `subscriptions/listen` streams whose `taskIds`
   * filter names the task and that the task's owner opened, whatever is set here. `undefined`
   * removes the observer.
   *
   * @example
   * ```ts
   * server.setTaskNotifier({ taskChanged: (task) => console.log(task.taskId, task.status) });
   * ```
   */
  setTaskNotifier(notifier: TaskNotifier | undefined): void {
    this.#extensionTasks?.setNotifier(notifier);
  }

  /** Runs attempts of tasks an executor queued (`taskExtension.executor`) with this server's tools, in a worker. */
  get taskJobs(): TaskJobs {
    return new TaskJobs(this.#extensionTasks, (name) => this.#tools.entries.get(name));
  }

  /** Every live connection. */
  get connections(): readonly ServerConnection[] {
    return this.server.connections;
  }

  /**
   * Registers a tool. `inputSchema` is a zod object schema, a raw zod shape or a JSON
   * Schema object (kept verbatim, arguments then unvalidated); its JSON Schema is computed
   * once, here. The handler gets the validated arguments and a {@link RequestExtra}; what
   * it throws becomes an `isError: true` result (a thrown `JsonRpcError` stays a protocol
   * error). With an `outputSchema`, the handler's result is typed from it: it returns a result
   * whose `structuredContent` has the schema's type, or that value alone (then `content` is its
   * JSON text); `structuredContent` is checked and a mismatch is -32603.
   */
  registerTool<I extends ObjectSchemaInput | undefined = undefined>(name: string, config: ToolConfig<I, undefined>, handler: ToolCallback<ToolArgs<I>>): RegisteredTool;
  registerTool<I extends ObjectSchemaInput | undefined, O extends ObjectSchemaInput>(name: string, config: ToolConfigWithOutput<I, O>, handler: ToolCallback<ToolArgs<I>, ToolResultOf<InferObject<O>>>): RegisteredTool;
  registerTool(name: string, config: ToolConfig<ObjectSchemaInput | undefined, ObjectSchemaInput | undefined>, handler: ToolCallback<never, unknown>): RegisteredTool {
    const handle = this.#tools.register(name, config, handler);
    this.#installTools();
    return handle;
  }

  /**
   * {@link McpServer.registerTool}, returning the server typed with one more tool (its arguments and
   * structured result), so that `typeof server` describes it to `typedClient` in
   * `@statemcp/client`. Chain the calls and export the result's type.
   *
   * @example
   * ```ts
   * export const server = new McpServer({ name: 'weather', version: '1.0.0' })
   *   .withTool('forecast', { inputSchema: { city: z.string() }, outputSchema: { celsius: z.number() } }, ({ city }) => ({ celsius: city.length }));
   * export type WeatherServer = typeof server;
   * ```
   */
  withTool<N extends string, I extends ObjectSchemaInput | undefined = undefined>(
    name: N,
    config: ToolConfig<I, undefined>,
    handler: ToolCallback<ToolArgs<I>>,
  ): McpServer<WithTool<D, N, ToolInput<I>, undefined>>;
  withTool<N extends string, I extends ObjectSchemaInput | undefined, O extends ObjectSchemaInput>(
    name: N,
    config: ToolConfigWithOutput<I, O>,
    handler: ToolCallback<ToolArgs<I>, ToolResultOf<InferObject<O>>>,
  ): McpServer<WithTool<D, N, ToolInput<I>, InferObject<O>>>;
  withTool(name: string, config: ToolConfig<ObjectSchemaInput | undefined, ObjectSchemaInput | undefined>, handler: ToolCallback<never, unknown>): unknown {
    this.registerTool(name, config as ToolConfig<undefined, undefined>, handler as ToolCallback<ToolArgs<undefined>>);
    return this;
  }

  /**
   * Registers every tool of `tools` under its key (tools made with `defineTool`), returning the
   * server typed with them: the form for servers with many tools, each defined in its own
   * statement (a chain of more than about 80 `withTool` calls outgrows the type checker's depth).
   */
  withTools<const T extends { readonly [name: string]: DefinedTool<unknown, unknown> }>(tools: T): McpServer<D & ToolsDefinitions<T>> {
    for (const [name, tool] of Object.entries(tools)) this.registerTool(name, tool.config as ToolConfig<undefined, undefined>, tool.handler as ToolCallback<ToolArgs<undefined>>);
    return this as never;
  }

  /** {@link McpServer.registerPrompt}, returning the server typed with one more prompt (see {@link McpServer.withTool}). */
  withPrompt<N extends string, A extends PromptArgsInput | undefined = undefined>(
    name: N,
    config: PromptConfig<A>,
    handler: PromptCallback<PromptArgs<A>>,
  ): McpServer<WithPrompt<D, N, PromptInput<A>>> {
    this.registerPrompt(name, config, handler);
    return this as never;
  }

  /** {@link McpServer.registerResource}, returning the server typed with one more resource (see {@link McpServer.withTool}). */
  withResource<N extends string, U extends string>(name: N, uri: U, metadata: ResourceMetadata, read: ReadResourceCallback): McpServer<WithResource<D, N, U, NoDefinitions>> {
    this.registerResource(name, uri, metadata, read);
    return this as never;
  }

  /** {@link McpServer.registerResourceTemplate}, returning the server typed with one more template and its variables (see {@link McpServer.withTool}). */
  withResourceTemplate<N extends string, T extends string>(
    name: N,
    uriTemplate: T,
    metadata: ResourceTemplateMetadata,
    read: ReadResourceTemplateCallback<UriTemplateVariables<T>>,
  ): McpServer<WithResource<D, N, T, UriTemplateVariables<T>>> {
    this.registerResourceTemplate(name, uriTemplate, metadata, read);
    return this as never;
  }

  /** Registers a resource at a fixed URI. */
  registerResource(name: string, uri: string, metadata: ResourceMetadata, read: ReadResourceCallback): RegisteredResource {
    const handle = this.#resources.registerStatic(name, uri, metadata, read);
    this.#installResources();
    return handle;
  }

  /**
   * Registers resources addressed by an RFC 6570 URI template (levels 1–4) such as
   * `test://template/{id}/data` or `files://{root}{/path*}{?rev}`; `read` gets the URI and
   * its variables, typed from the template text (a list per exploded variable). A template
   * that cannot be matched unambiguously is refused here with a `TypeError` saying why.
   * `metadata.complete` offers completions per variable, `metadata.list` lists concrete resources.
   */
  registerResourceTemplate<T extends string>(
    name: string,
    uriTemplate: T,
    metadata: ResourceTemplateMetadata,
    read: ReadResourceTemplateCallback<UriTemplateVariables<T>>,
  ): RegisteredResourceTemplate {
    const handle = this.#resources.registerTemplate(name, uriTemplate, metadata, read as ReadResourceTemplateCallback);
    this.#installResources();
    return handle;
  }

  /**
   * Registers a prompt. `argsSchema` takes what a tool's `inputSchema` takes (a zod object,
   * a raw zod shape, a Standard Schema with a JSON Schema converter, a JSON Schema object)
   * or a list of argument definitions; the advertised arguments come from its JSON Schema.
   */
  registerPrompt<A extends PromptArgsInput | undefined = undefined>(name: string, config: PromptConfig<A>, handler: PromptCallback<PromptArgs<A>>): RegisteredPrompt {
    const handle = this.#prompts.register(name, config, handler);
    this.#installPrompts();
    return handle;
  }

  /**
   * Answers the custom (non-spec) request `method` (a vendor extension): see `Server.method`.
   * The handler gets the validated params and the low-level request context.
   */
  method<P extends CustomSchema | undefined = undefined, R extends CustomSchema | undefined = undefined>(method: string, spec: CustomRequestSpec<P, R>, handler: CustomRequestHandler<P, R>): void {
    this.server.method(method, spec, handler);
  }

  /** Handles the custom (non-spec) notification `method`: see `Server.notification`. */
  notification<P extends CustomSchema | undefined = undefined>(method: string, spec: CustomNotificationSpec<P>, handler: CustomNotificationHandler<P>): void {
    this.server.notification(method, spec, handler);
  }

  /** Serves one client over `transport` (see `Server.connect`). */
  connect(transport: Transport): Promise<ServerConnection> {
    return this.server.connect(transport);
  }

  /** Closes every connection. */
  close(): Promise<void> {
    return this.server.close();
  }

  /**
   * Sends `notifications/resources/updated` to every connection subscribed to `uri`
   * (`resources/subscribe`) and every listen stream whose `resourceSubscriptions` name it. With
   * the `cluster` option, those of every instance: the subscribers of `uri` are read from the
   * shared store and each instance that has some gets one message (O(subscribers of `uri`)).
   */
  async notifyResourceUpdated(uri: string): Promise<void> {
    const { shared } = this.server;
    if (shared !== undefined) {
      await shared.publish(resourceKey(uri), { method: 'notifications/resources/updated', params: { uri } });
      return;
    }
    const listening = this.server.subscriptions.publish('notifications/resources/updated', { uri }, (filter) => Array.isArray(filter.resourceSubscriptions) && filter.resourceSubscriptions.includes(uri));
    await Promise.all([...this.server.connections.map((connection) => connection.notifyResourceUpdated(uri).catch(() => false)), listening]);
  }

  /** Sends a log message to every connection (each applies its own level). */
  async sendLoggingMessage(message: LoggingMessage): Promise<void> {
    await Promise.all(this.server.connections.map((connection) => connection.sendLoggingMessage(message).catch(() => false)));
  }

  #pageSize(): number {
    return this.#options.pageSize ?? 100;
  }

  /** Announces a change of `kind` to the connected clients (coalesced per tick). */
  #changed(kind: ListKind): void {
    this.#capabilities = undefined;
    this.#registered.add(kind);
    this.#listChanges.changed(kind);
  }

  #install(method: string, handler: (params: JsonObject, context: ServerRequestContext) => JsonObject | Promise<JsonObject>): void {
    if (this.#installed.has(method)) return;
    this.#installed.add(method);
    this.server.setRequestHandler(method, handler);
  }

  /** A list result with `resultType` and the server's caching hints (2026-07-28+; legacy results pass unchanged). */
  #listResult(result: JsonObject, version: string): JsonObject {
    return completeResult(result, version, this.#options.cache ?? {});
  }

  #installTools(): void {
    this.#install('tools/list', (params, context) =>
      this.#listResult(this.#tools.list(params, context.protocolVersion, this.#pageSize(), this.#views.viewerFor(context)), context.protocolVersion),
    );
    this.#install('tools/call', (params, context) => {
      // Read only for a call that asks to run as a task: a connection without a handshake
      // (2026-07-28) has no declared capabilities, and deriving them cost every modern call.
      const tasksDeclared = typeof params.task === 'object' && params.task !== null && context.connection.capabilities.tasks?.requests?.tools?.call !== undefined;
      return this.#tools.call(params, context, this.#views.viewerFor(context), tasksDeclared, this.#tasks.start, this.#extensionTasks);
    });
    if (this.#tools.hasTaskTools && !this.#installed.has('tasks/get')) {
      for (const method of ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel', 'tasks/update']) this.#installed.add(method);
      this.#tasks.install(this.#extensionTasks);
    }
    this.#installCompletions();
  }

  #installResources(): void {
    this.#install('resources/list', async (params, context) =>
      this.#listResult(await this.#resources.list(params, context.protocolVersion, this.#pageSize(), requestExtra(context), this.#views.viewerFor(context)), context.protocolVersion),
    );
    this.#install('resources/templates/list', (params, context) =>
      this.#listResult(this.#resources.listTemplates(params, context.protocolVersion, this.#pageSize(), this.#views.viewerFor(context)), context.protocolVersion),
    );
    this.#install('resources/read', (params, context) =>
      this.#resources.read(String(params.uri), context.protocolVersion, requestExtra(context), this.#options.cache, this.#views.viewerFor(context)),
    );
    this.#install('resources/subscribe', async (params, context) => {
      const { connection } = context;
      const uri = String(params.uri);
      // In a cluster the subscription is shared before it is acknowledged (a change on any instance reaches it).
      await this.server.shared?.follow(connection.id, resourceKey(uri), (note) => connection.notifyResourceUpdated(String(note.params.uri)).catch(() => false));
      connection.subscribe(uri);
      return {};
    });
    this.#install('resources/unsubscribe', async (params, context) => {
      const uri = String(params.uri);
      context.connection.unsubscribe(uri);
      await this.server.shared?.unfollow(context.connection.id, resourceKey(uri));
      return {};
    });
    this.#installCompletions();
  }

  #installPrompts(): void {
    this.#install('prompts/list', (params, context) =>
      this.#listResult(this.#prompts.list(params, context.protocolVersion, this.#pageSize(), this.#views.viewerFor(context)), context.protocolVersion),
    );
    this.#install('prompts/get', (params, context) => this.#prompts.get(params, context.protocolVersion, requestExtra(context), this.#views.viewerFor(context)));
    this.#installCompletions();
  }

  #installCompletions(): void {
    this.#install('completion/complete', async (params, context) => {
      const ref = params.ref as { type?: unknown; name?: unknown; uri?: unknown };
      const argument = params.argument as { name: string; value: string };
      let completer: Completer | undefined;
      const viewer = this.#views.viewerFor(context);
      if (ref.type === 'ref/prompt') {
        completer = completerFor(this.#prompts.require(String(ref.name), viewer).complete, argument.name);
      } else {
        const found = this.#resources.completer(String(ref.uri), argument.name, viewer);
        if (found === null) throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown resource template: ${String(ref.uri)}`);
        completer = found;
      }
      if (completer === undefined) return NO_COMPLETIONS;
      const values = await completer(argument.value, { arguments: resolvedArguments(params.context), extra: requestExtra(context) });
      return completionResult(values);
    });
  }
}
