/**
 * Tool registrations of an `McpServer`: `tools/list` (paginated, each tool shaped once per
 * revision and cached, so the list is byte-stable) and `tools/call` (unknown tool → -32602;
 * invalid arguments → an `isError: true` result from 2025-11-25 on, -32602 before (SEP-1303);
 * task augmentation per the tool's `execution.taskSupport`).
 */
import { ErrorCode, JsonRpcError, type JsonObject, type JsonSchemaValidator } from '@statemcp/protocol';
import { compileObjectSchema, type CompiledSchema, type InferObject, type InferObjectInput, type ObjectSchemaInput, type Validation } from './object-schema.js';
import { paginate } from './pagination.js';
import { Registry, registrationHandle, type RegistrationHandle } from './registry.js';
import { requestExtra, type RequestExtra } from './request-extra.js';
import { hasFeature } from '@statemcp/protocol/internal';
import { toolFor } from './revision-features.js';
import type { ServerRequestContext } from './server.js';
import { finishToolResult, resultFromThrown, toolErrorResult } from './tool-results.js';
import { annotatedParams, checkParamHeaders } from './param-headers.js';
import { isThenable, type MaybePromise } from './sync-or-async.js';
import { visibilityRule, type LazyViewer, type Visibility, type VisibilityRule } from './visibility.js';
import type { CallToolResult, Icon, JsonSchemaObject, Meta, ToolDefinition, ToolAnnotations, ToolExecution } from './wire-types.js';

/** Tool names: 1–128 characters from `A-Z a-z 0-9 _ - . /` (SEP-986). */
const TOOL_NAME = /^[A-Za-z0-9_./-]{1,128}$/;

const EMPTY_INPUT: JsonSchemaObject = Object.freeze({ type: 'object', properties: Object.freeze({}) });

/**
 * How a tool is registered: title, description, input and output schemas, annotations, icons,
 * execution, and who sees it (`requiredScopes`, `visible`: hidden from `tools/list` and called
 * as an unknown tool for anyone else).
 */
export interface ToolConfig<I extends ObjectSchemaInput | undefined = undefined, O extends ObjectSchemaInput | undefined = undefined> extends Visibility {
  /** Display name (2025-06-18+). */
  readonly title?: string;
  readonly description?: string;
  /** A zod object schema, a raw zod shape, or a JSON Schema object kept verbatim. Default: no arguments. */
  readonly inputSchema?: I;
  /** Schema of `structuredContent` (2025-06-18+); results are checked against it. */
  readonly outputSchema?: O;
  /** Behaviour hints (2025-03-26+). */
  readonly annotations?: ToolAnnotations;
  /** Icons (2025-11-25+). */
  readonly icons?: Icon[];
  /** `taskSupport`: `forbidden` (default), `optional` or `required` (2025-11-25+). */
  readonly execution?: ToolExecution;
  /**
   * Tasks extension (2026-07-28): when the call runs as a task, the handler first runs inline —
   * its `extra.elicit()` / `createMessage()` / `listRoots()` are Multi Round-Trip rounds — and the
   * task is created only when it calls `extra.continueAsTask()` (a handler that returns before
   * that answers inline). Default `false`: the task is created before the handler starts.
   */
  readonly deferTask?: boolean;
  readonly _meta?: Meta;
}

/** The arguments a client sends for an input schema (before defaults): what the typed client takes. */
export type ToolInput<I> = I extends ObjectSchemaInput ? InferObjectInput<I> : { [key: string]: never };

/** The arguments a tool handler receives for an input schema. */
export type ToolArgs<I> = I extends ObjectSchemaInput ? InferObject<I> : { [key: string]: never };

/** A tool config with an `outputSchema`: its handler's result is typed from the schema (see `ToolResultOf`). */
export type ToolConfigWithOutput<I extends ObjectSchemaInput | undefined, O extends ObjectSchemaInput> = ToolConfig<I, O> & { readonly outputSchema: O };

/** Runs a tool with its validated arguments; a thrown Error becomes an `isError` result. */
export type ToolCallback<Args = { [key: string]: unknown }, Result = CallToolResult> = (args: Args, extra: RequestExtra) => Result | Promise<Result>;

/** What `RegisteredTool.update` takes: a new config, and a new `name` to rename the tool. */
export type ToolUpdate = ToolConfig<ObjectSchemaInput | undefined, ObjectSchemaInput | undefined> & {
  /** The new name; the tool keeps its place in `tools/list`. */
  readonly name?: string;
};

/** The handle `registerTool` returns; a disabled tool leaves `tools/list` and calling it is -32602. */
export interface RegisteredTool extends RegistrationHandle {
  /**
   * Replaces the config (schemas are compiled again) and, when given, the handler; renames
   * the tool when `name` is given. Checked before anything changes: a bad schema or a name
   * already taken throws and leaves the tool as it was.
   */
  update(config: ToolUpdate, handler?: ToolCallback<never, unknown>): void;
}

export interface ToolEntry {
  name: string;
  enabled: boolean;
  visibility: VisibilityRule | undefined;
  wire: ToolDefinition;
  input: CompiledSchema | undefined;
  output: CompiledSchema | undefined;
  handler: ToolCallback<never, unknown>;
  readonly perVersion: Map<string, JsonObject>;
  /** Input properties mirrored in `Mcp-Param-*` headers (2026-07-28 HTTP), computed at the first call. */
  headerParams: ReadonlyMap<string, string> | undefined;
  /** The handler creates the task itself (`extra.continueAsTask()`), after its MRTR rounds. */
  deferTask: boolean;
}

/** Starts a tool call as a task; provided by the tasks module. */
export type TaskStarter = (entry: ToolEntry, args: unknown, params: JsonObject, context: ServerRequestContext) => JsonObject;

/** The tasks extension (2026-07-28) as `tools/call` sees it; provided by the tasks module. */
export interface ExtensionTaskRunner {
  /** Whether this call runs as a task (throws -32021 for a task-only tool without the extension). */
  wantsTask(entry: ToolEntry, context: ServerRequestContext): boolean;
  /**
   * Creates the task durably, starts the handler and returns the `CreateTaskResult`; for a
   * `deferTask` tool the handler starts inline and the task is created when it asks for it.
   */
  start(entry: ToolEntry, args: unknown, context: ServerRequestContext): Promise<JsonObject>;
}

function compileTool(
  name: string,
  config: ToolConfig<ObjectSchemaInput | undefined, ObjectSchemaInput | undefined>,
  validator: JsonSchemaValidator | undefined,
): Pick<ToolEntry, 'wire' | 'input' | 'output' | 'headerParams' | 'deferTask' | 'visibility'> {
  const input = config.inputSchema === undefined ? undefined : compileObjectSchema(config.inputSchema, 'input', `Tool ${name} inputSchema`, validator);
  const output = config.outputSchema === undefined ? undefined : compileObjectSchema(config.outputSchema, 'output', `Tool ${name} outputSchema`, validator);
  // The schemas are read through, so a zod object's JSON Schema is made at the first list or call.
  const wire: ToolDefinition = {
    name,
    get inputSchema() {
      return input?.jsonSchema ?? EMPTY_INPUT;
    },
  };
  if (config.title !== undefined) wire.title = config.title;
  if (config.description !== undefined) wire.description = config.description;
  if (output !== undefined) Object.defineProperty(wire, 'outputSchema', { get: () => output.jsonSchema, enumerable: true });
  if (config.annotations !== undefined) wire.annotations = config.annotations;
  if (config.icons !== undefined) wire.icons = config.icons;
  if (config.execution !== undefined) wire.execution = config.execution;
  if (config._meta !== undefined) wire._meta = config._meta;
  return { wire, input, output, headerParams: undefined, deferTask: config.deferTask === true, visibility: visibilityRule(config) };
}

function checkToolName(name: string): void {
  if (!TOOL_NAME.test(name)) throw new TypeError(`Invalid tool name ${JSON.stringify(name)}: use 1–128 characters from A-Z a-z 0-9 _ - . /`);
}

/** The tools of one `McpServer`: registration, `tools/list` and `tools/call`. */
export class ToolRegistry {
  readonly entries: Registry<ToolEntry>;
  readonly #validator: JsonSchemaValidator | undefined;

  /** `validator` checks JSON Schema `inputSchema`s (the server's `jsonSchemaValidator` option). */
  constructor(onChange: () => void, validator?: JsonSchemaValidator) {
    this.entries = new Registry(onChange);
    this.#validator = validator;
  }

  /** True when any tool can run as a task. */
  get hasTaskTools(): boolean {
    return this.entries.values().some((entry) => (entry.wire.execution?.taskSupport ?? 'forbidden') !== 'forbidden');
  }

  register(name: string, config: ToolConfig<ObjectSchemaInput | undefined, ObjectSchemaInput | undefined>, handler: ToolCallback<never, unknown>): RegisteredTool {
    checkToolName(name);
    if (this.entries.has(name)) throw new Error(`Tool ${name} is already registered`);
    const entry: ToolEntry = { name, enabled: true, handler, perVersion: new Map(), ...compileTool(name, config, this.#validator) };
    this.entries.set(name, entry);
    const handle = registrationHandle(this.entries, entry, () => ({ name: entry.name, key: entry.name }));
    return Object.assign(handle, {
      update: ({ name: newName = entry.name, ...next }: ToolUpdate, nextHandler?: ToolCallback<never, unknown>) => {
        checkToolName(newName);
        if (newName !== entry.name && this.entries.has(newName)) throw new Error(`Tool ${newName} is already registered`);
        const compiled = compileTool(newName, next, this.#validator);
        const before = entry.visibility;
        this.entries.rekey(entry.name, newName);
        Object.assign(entry, compiled, { name: newName });
        if (nextHandler !== undefined) entry.handler = nextHandler;
        entry.perVersion.clear();
        this.entries.touchUpdated(entry, before);
      },
    });
  }

  /**
   * `tools/list` for `version`, as `viewer` sees it. Tools that require tasks are listed only to
   * callers that can run them: revisions with tasks (2025-11-25), or a request that declares the
   * tasks extension (`taskExtension`, 2026-07-28).
   */
  list(params: JsonObject, version: string, pageSize: number, viewer: LazyViewer, taskExtension = false): JsonObject {
    const tasks = taskExtension || hasFeature(version, 'tasks');
    const visible = this.entries.values().filter((entry) => viewer.shows(entry) && (tasks || entry.wire.execution?.taskSupport !== 'required'));
    const page = paginate(visible, typeof params.cursor === 'string' ? params.cursor : undefined, pageSize, this.entries.generation);
    const tools = page.items.map((entry) => {
      let shaped = entry.perVersion.get(version);
      if (shaped === undefined) {
        shaped = toolFor(entry.wire, version);
        entry.perVersion.set(version, shaped);
      }
      return shaped;
    });
    return page.nextCursor === undefined ? { tools } : { tools, nextCursor: page.nextCursor };
  }

  /**
   * `tools/call`. `tasksDeclared` says whether this connection declared task support for tool
   * calls; a tool hidden from `viewer` is an unknown tool.
   */
  call(
    params: JsonObject,
    context: ServerRequestContext,
    viewer: LazyViewer,
    tasksDeclared: boolean,
    startTask: TaskStarter | undefined,
    extension?: ExtensionTaskRunner,
  ): MaybePromise<JsonObject> {
    const name = String(params.name);
    const entry = this.entries.get(name);
    if (entry === undefined || !viewer.shows(entry)) throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    viewer.challenge(entry, 'Tool', name);
    const version = context.protocolVersion;
    const support = entry.wire.execution?.taskSupport ?? 'forbidden';
    const asTask = tasksDeclared && hasFeature(version, 'tasks') && typeof params.task === 'object' && params.task !== null;
    if (asTask && support === 'forbidden') throw new JsonRpcError(ErrorCode.MethodNotFound, `Tool ${name} does not support task execution`);
    const extensionTask = extension?.wantsTask(entry, context) ?? false;
    if (!asTask && !extensionTask && support === 'required') throw new JsonRpcError(ErrorCode.MethodNotFound, `Tool ${name} must be called as a task`);

    const args = params.arguments ?? {};
    entry.headerParams ??= annotatedParams(entry.wire.inputSchema);
    // The request's headers are read only for a tool with header parameters: an HTTP front door builds them on first read.
    if (entry.headerParams.size > 0) checkParamHeaders(entry.headerParams, args, context.transportContext?.headers, version);
    // The call's steps are module functions taking what they need: on the synchronous path
    // (every tool whose input schema checks synchronously) no closure nor object is made per call.
    const task = asTask ? startTask : undefined;
    const byExtension = extensionTask ? extension : undefined;
    if (entry.input === undefined) return runCall(entry, args, params, context, version, task, byExtension);
    const checked = entry.input.check(args);
    if (isThenable(checked)) return checkedLater(checked, entry, params, context, version, task, byExtension);
    return afterCheck(checked, entry, params, context, version, task, byExtension);
  }
}

/**
 * The call with its checked arguments; an invalid argument is a tool error (2025-11-25+) or
 * -32602. `task`: set when the call runs as a 2025-11-25 task (its `task` param); `extension`:
 * set when it runs as a task of the tasks extension (2026-07-28).
 */
function afterCheck(
  checked: Validation,
  entry: ToolEntry,
  params: JsonObject,
  context: ServerRequestContext,
  version: string,
  task: TaskStarter | undefined,
  extension: ExtensionTaskRunner | undefined,
): MaybePromise<JsonObject> {
  if (checked.ok) return runCall(entry, checked.value, params, context, version, task, extension);
  const message = `Invalid arguments for tool ${entry.name}: ${checked.message}`;
  if (hasFeature(version, 'validationAsToolError')) return toolErrorResult(message);
  throw new JsonRpcError(ErrorCode.InvalidParams, message);
}

/** {@link afterCheck} once an asynchronous input schema has answered. */
function checkedLater(
  checked: PromiseLike<Validation>,
  entry: ToolEntry,
  params: JsonObject,
  context: ServerRequestContext,
  version: string,
  task: TaskStarter | undefined,
  extension: ExtensionTaskRunner | undefined,
): Promise<JsonObject> {
  return Promise.resolve(checked).then((ready) => afterCheck(ready, entry, params, context, version, task, extension));
}

/** Runs the call now, or starts it as a task (see {@link afterCheck}). */
function runCall(
  entry: ToolEntry,
  value: unknown,
  params: JsonObject,
  context: ServerRequestContext,
  version: string,
  task: TaskStarter | undefined,
  extension: ExtensionTaskRunner | undefined,
): MaybePromise<JsonObject> {
  if (task !== undefined) return task(entry, value, params, context);
  if (extension !== undefined) return extension.start(entry, value, context);
  return runToolNow(entry, value, requestExtra(context), version);
}

/** Runs a tool's handler and shapes its result (shared by direct calls and tasks). */
export async function runTool(entry: ToolEntry, args: unknown, extra: RequestExtra, version: string): Promise<JsonObject> {
  return runToolNow(entry, args, extra, version);
}

/**
 * {@link runTool} for a direct call: synchronous when the handler returns its result (not a
 * promise) and the checks are synchronous, so the session answers without a promise chain.
 * What the handler throws or rejects with is shaped the same way either way.
 */
function runToolNow(entry: ToolEntry, args: unknown, extra: RequestExtra, version: string): MaybePromise<JsonObject> {
  let value: unknown;
  try {
    value = (entry.handler as ToolCallback<unknown, unknown>)(args, extra);
  } catch (error) {
    return finishToolResult(entry.name, resultFromThrown(error), entry.output, version);
  }
  if (!isThenable(value)) return finishToolResult(entry.name, value, entry.output, version);
  return Promise.resolve(value).then(
    (settled) => finishToolResult(entry.name, settled, entry.output, version),
    (error: unknown) => finishToolResult(entry.name, resultFromThrown(error), entry.output, version),
  );
}
