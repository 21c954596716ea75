/**
 * The MCP client: a thin role layer over the protocol package's session runner. The
 * session does the lifecycle (handshake, gating, capability checks, timeouts, progress,
 * cancellation, close); the client adds typed calls (here), auto-paginating lists, tool output
 * validation, handlers for the server's requests and listeners for its notifications
 * (`client-handlers.ts`), and its connection's state (`client-connection.ts`).
 */
import {
  systemClock,
  type CustomNotificationSpec,
  type CustomRequestSpec,
  type CustomSchema,
  type GetSkillResult,
  type InferCustom,
  type JsonObject,
  type ListSkillsResult,
  type NotificationHandler,
  type RequestHandler,
} from '@statemcp/protocol';
import { assertCustomMethodName, customSpecOf, hasFeature, isCreateTaskResult } from '@statemcp/protocol/internal';
import { type CustomCallOptions, type CustomNotificationHandler, type CustomNotifyOptions, type CustomRequestHandler } from './custom-methods.js';
import type { CallOptions, CallToolOptions, ListOptions, TypedCallToolOptions } from './options.js';
import { checkStructured, type TypedCallToolResult } from './typed-results.js';
import { collectPages, pageFetcher, paginate } from './pagination.js';
import { ToolTask, type TaskChannel } from './tool-task.js';
import type { DetailedTask as ToolTaskState } from '@statemcp/protocol';
import { skillsCall } from './skills-calls.js';
import { ToolParamHeaders } from './tool-param-headers.js';
import { requestOptions } from './session-options.js';
import type {
  CallToolParams,
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptParams,
  GetPromptResult,
  ListParams,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceParams,
  ResourceTemplate,
  Tool,
} from './types.js';
import { ClientHandlers } from './client-handlers.js';

/** `callTool`'s options when none are given: read only, shared by every such call. */
const NO_CALL_OPTIONS: CallToolOptions = Object.freeze({});

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
export class Client extends ClientHandlers {
  /** The tools' `x-mcp-header` annotations, on a transport that mirrors them into headers (`tool-param-headers.ts`). */
  readonly #paramHeaders = new ToolParamHeaders();

  // ------------------------------------------------------------------ calls

  /** Sends `ping` and resolves with the round-trip time in ms (allowed during the handshake too). */
  async ping(options: CallOptions = {}): Promise<number> {
    return this.session.ping(requestOptions(options));
  }

  /** One page of `tools/list`. The output schemas it lists are remembered for `callTool`. */
  async listTools(params: ListParams = {}, options: CallOptions = {}): Promise<ListToolsResult> {
    const result = (await this.call('tools/list', params, options)) as ListToolsResult;
    const tools = this.#mirrorsToolArguments() ? this.#paramHeaders.screen(result.tools, (tool, why) => this.session.diagnostic(`Left out tool ${JSON.stringify(tool)} from tools/list: ${why}`)) : result.tools;
    this.toolOutput.remember(tools);
    return tools === result.tools ? result : { ...result, tools: [...tools] };
  }

  /** The transport carries annotated tool arguments as `Mcp-Param-*` headers in the version in force (MCP 2026-07-28 Transports §Streamable HTTP). */
  #mirrorsToolArguments(): boolean {
    const version = this.session.protocolVersion;
    return this.session.transport?.mirrorsToolArguments === true && version !== undefined && hasFeature(version, 'routingHeaders');
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
   * carry `structuredContent` matching it, or the call rejects with `ToolOutputError` (an
   * `InvalidResultError`). A tool-level failure is a result with `isError: true`, not a rejection.
   *
   * With `options.outputSchema` (a zod schema or any Standard Schema) the result is typed: the
   * tools are listed first when this one was not (so the server's declared schema is checked
   * too), then `structuredContent` is checked with the schema given and replaced by its output.
   *
   * @example
   * ```ts
   * const result = await client.callTool({ name: 'forecast', arguments: { city: 'Lyon' } }, { outputSchema: z.object({ celsius: z.number() }) });
   * if (!result.isError) console.log(result.structuredContent.celsius);
   * ```
   */
  async callTool<Out>(params: CallToolParams, options: TypedCallToolOptions<Out>): Promise<TypedCallToolResult<Out>>;
  async callTool(params: CallToolParams, options?: CallToolOptions): Promise<CallToolResult>;
  async callTool(params: CallToolParams, options: CallToolOptions & { readonly outputSchema?: CustomSchema } = NO_CALL_OPTIONS): Promise<CallToolResult | TypedCallToolResult<unknown>> {
    const validate = options.validateOutput ?? this.options.validateToolOutput ?? true;
    const { outputSchema } = options;
    if (validate && (outputSchema !== undefined || options.ensureOutputSchema === true) && this.toolOutput.needsListing(params.name)) {
      await this.listAllTools({}, options);
      this.toolOutput.markComplete();
    }
    const answer = await this.call('tools/call', params, options, this.#mirrorsToolArguments() ? this.#paramHeaders.headersFor(params.name, params.arguments) : undefined);
    let result = answer as CallToolResult;
    if (isCreateTaskResult(answer)) {
      // The server chose to run the call as a task (tasks extension): drive it to its end.
      const { resultType: _r, ...task } = answer;
      const handle = new ToolTask(answer.taskId, this.#taskChannel(params.name), { ...task, resultType: 'complete' });
      options.onTask?.(handle);
      result = await handle.result(options.signal);
    }
    if (validate) this.toolOutput.validate(params.name, result);
    return outputSchema === undefined ? result : checkStructured(params.name, result, outputSchema);
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
      request: (method, params, signal) => this.call(method, params, signal === undefined ? {} : { signal }),
      // Through the session's middleware, like the input requests of a Multi Round-Trip round.
      answer: (method, params, context) => this.session.answerInput(method, params, context),
      clock: this.options.clock ?? systemClock,
      protocolVersion: this.session.protocolVersion ?? '',
      ...(tool !== undefined ? { tool } : {}),
      report: (build) => this.session.reportTaskTransition(build),
      watch: (taskId, onPush) => this.streams.watchTask(taskId, (params) => onPush(params === undefined ? undefined : ({ ...params, resultType: 'complete' } as unknown as ToolTaskState))),
    };
  }

  /** One page of `resources/list`. */
  async listResources(params: ListParams = {}, options: CallOptions = {}): Promise<ListResourcesResult> {
    return (await this.call('resources/list', params, options)) as ListResourcesResult;
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
    return (await this.call('resources/templates/list', params, options)) as ListResourceTemplatesResult;
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
    return (await this.call('resources/read', params, options)) as ReadResourceResult;
  }

  /** Subscribes to updates of a resource (needs the server's `resources.subscribe`); see `onResourceUpdated`. */
  async subscribeResource(params: ResourceParams, options: CallOptions = {}): Promise<void> {
    await this.call('resources/subscribe', params, options);
  }

  /** Ends a subscription made with `subscribeResource`. */
  async unsubscribeResource(params: ResourceParams, options: CallOptions = {}): Promise<void> {
    await this.call('resources/unsubscribe', params, options);
  }

  /** One page of `prompts/list`. */
  async listPrompts(params: ListParams = {}, options: CallOptions = {}): Promise<ListPromptsResult> {
    return (await this.call('prompts/list', params, options)) as ListPromptsResult;
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
    return (await this.call('prompts/get', params, options)) as GetPromptResult;
  }

  /** Asks for completions of a prompt or resource-template argument (`completion/complete`). */
  async complete(params: CompleteRequestParams, options: CallOptions = {}): Promise<CompleteResult> {
    return (await this.call('completion/complete', params, options)) as CompleteResult;
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
    await this.call('logging/setLevel', { level }, options);
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
    return (await this.session.request(method, params, requestOptions(options, { custom: customSpecOf(options), waitForOperating: true }))) as InferCustom<R>;
  }

  /** Sends the custom (non-spec) notification `method`; the same checks as {@link request}. */
  async notify<P extends CustomSchema | undefined = undefined>(method: string, params?: JsonObject, options: CustomNotifyOptions<P> = {}): Promise<void> {
    assertCustomMethodName(method);
    await this.session.notify(method, params, { custom: customSpecOf(options) });
  }

  /**
   * Answers the custom request `method` from the server: params validated before `handler`
   * (-32602), its result after (-32603); the opt-in is declared in the next handshake.
   */
  method<P extends CustomSchema | undefined = undefined, R extends CustomSchema | undefined = undefined>(method: string, spec: CustomRequestSpec<P, R>, handler: CustomRequestHandler<P, R>): void {
    this.custom.defineRequest(method, spec, handler as unknown as RequestHandler, this.session);
  }

  /** Handles the custom notification `method` from the server (invalid params are dropped); declared like {@link Client.method}. */
  notification<P extends CustomSchema | undefined = undefined>(method: string, spec: CustomNotificationSpec<P>, handler: CustomNotificationHandler<P>): void {
    this.custom.defineNotification(method, spec, handler as unknown as NotificationHandler, this.session);
  }
}
