/**
 * Prompt registrations of an `McpServer`: `prompts/list` (paginated, shaped per revision)
 * and `prompts/get` (unknown prompt or invalid/missing arguments → -32602). Arguments are
 * declared with the same schemas tools accept (a zod object, a raw zod shape, any Standard
 * Schema with a JSON Schema converter, or a JSON Schema object; see `object-schema.ts`):
 * the schema's JSON Schema gives the advertised argument list (each property's `title`,
 * `description`, and whether it is `required`) and the schema validates what a client
 * sends. The plain list form `{ name, description, required }[]` checks only required-ness.
 * A registered prompt can be updated (and renamed) in place.
 */
import { ErrorCode, JsonRpcError, type JsonObject, type JsonSchemaValidator } from '@statemcp/protocol';
import type { Completer } from './completions.js';
import { compileObjectSchema, type CompiledSchema, type InferObject, type InferObjectInput, type ObjectSchemaInput } from './object-schema.js';
import { paginate } from './pagination.js';
import { Registry, registrationHandle, type RegistrationHandle } from './registry.js';
import type { RequestExtra } from './request-extra.js';
import { checkResult } from './result-check.js';
import { promptFor } from './revision-features.js';
import { visibilityRule, type LazyViewer, type Visibility, type VisibilityRule } from './visibility.js';
import type { GetPromptResult, Icon, JsonSchemaObject, Meta, Prompt, PromptArgument } from './wire-types.js';

/** One advertised prompt argument (the list form of `argsSchema`). */
export interface PromptArgumentDefinition {
  readonly name: string;
  /** Display name (2025-06-18+). */
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

/**
 * What `argsSchema` accepts: any schema a tool's `inputSchema` accepts (prompt arguments
 * travel as strings, so describe string properties), or a list of argument definitions.
 */
export type PromptArgsInput = ObjectSchemaInput | readonly PromptArgumentDefinition[];

/**
 * How a prompt is registered: title, description, `argsSchema` (any accepted schema),
 * completers, icons, and who sees it (`requiredScopes`, `visible`: hidden from `prompts/list`,
 * an unknown prompt for `prompts/get` and completions for anyone else).
 */
export interface PromptConfig<A extends PromptArgsInput | undefined = undefined> extends Visibility {
  readonly title?: string;
  readonly description?: string;
  /** A zod object, a raw zod shape, a Standard Schema, a JSON Schema object, or a list of argument definitions. */
  readonly argsSchema?: A;
  /** Completers per argument name (`completion/complete` with `ref/prompt`). */
  readonly complete?: Readonly<Record<string, Completer>>;
  readonly icons?: Icon[];
  readonly _meta?: Meta;
}

/** The arguments a prompt handler receives. */
export type PromptArgs<A> = A extends readonly PromptArgumentDefinition[]
  ? { [key: string]: string | undefined }
  : A extends ObjectSchemaInput
    ? InferObject<A>
    : { [key: string]: never };

/** The arguments a client sends to `prompts/get` (before defaults): what the typed client takes. */
export type PromptInput<A> = A extends readonly PromptArgumentDefinition[]
  ? { [key: string]: string | undefined }
  : A extends ObjectSchemaInput
    ? InferObjectInput<A>
    : { [key: string]: never };

/** Renders a prompt from its validated arguments. */
export type PromptCallback<Args = { [key: string]: string | undefined }> = (args: Args, extra: RequestExtra) => GetPromptResult | Promise<GetPromptResult>;

/** What `RegisteredPrompt.update` takes: a new config, and a new `name` to rename the prompt. */
export type PromptUpdate<A extends PromptArgsInput | undefined = PromptArgsInput | undefined> = PromptConfig<A> & {
  /** The new name; the prompt keeps its place in `prompts/list`. */
  readonly name?: string;
};

/** The handle `registerPrompt` returns. */
export interface RegisteredPrompt extends RegistrationHandle {
  /**
   * Replaces the config (`argsSchema` and `complete` included) and, when given, the handler;
   * renames the prompt when `name` is given. A bad schema or a name already registered
   * throws and leaves the prompt as it was.
   */
  update<A extends PromptArgsInput | undefined = undefined>(update: PromptUpdate<A>, handler?: PromptCallback<PromptArgs<A>>): void;
}

interface PromptEntry {
  name: string;
  enabled: boolean;
  visibility: VisibilityRule | undefined;
  wire: Prompt;
  schema: CompiledSchema | undefined;
  complete: Readonly<Record<string, Completer>>;
  handler: PromptCallback<never>;
}

/** The advertised arguments of a schema: one per property of its JSON Schema. */
function argumentsFromJsonSchema(schema: JsonSchemaObject): PromptArgument[] {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = (schema.properties ?? {}) as Readonly<Record<string, { title?: unknown; description?: unknown }>>;
  return Object.entries(properties).map(([name, property]) => {
    const argument: PromptArgument = { name };
    if (typeof property.title === 'string') argument.title = property.title;
    if (typeof property.description === 'string') argument.description = property.description;
    argument.required = required.has(name);
    return argument;
  });
}

function isArgumentList(input: PromptArgsInput): input is readonly PromptArgumentDefinition[] {
  return Array.isArray(input);
}

/** The advertised prompt and its compiled argument schema, from a config (registration and update). */
function compilePrompt(name: string, config: PromptConfig<PromptArgsInput | undefined>, validator: JsonSchemaValidator | undefined): Pick<PromptEntry, 'wire' | 'schema' | 'complete' | 'visibility'> {
  const wire: Prompt = { name };
  if (config.title !== undefined) wire.title = config.title;
  if (config.description !== undefined) wire.description = config.description;
  let schema: CompiledSchema | undefined;
  const input = config.argsSchema;
  if (input !== undefined && isArgumentList(input)) {
    wire.arguments = input.map((definition) => ({ ...definition }));
  } else if (input !== undefined) {
    schema = compileObjectSchema(input, 'input', `Prompt ${name} argsSchema`, validator);
    wire.arguments = argumentsFromJsonSchema(schema.jsonSchema);
  }
  if (config.icons !== undefined) wire.icons = config.icons;
  if (config._meta !== undefined) wire._meta = config._meta;
  return { wire, schema, complete: config.complete ?? {}, visibility: visibilityRule(config) };
}

/** The prompts of one `McpServer`: registration, `prompts/list` and `prompts/get`. */
export class PromptRegistry {
  readonly entries: Registry<PromptEntry>;

  readonly #validator: JsonSchemaValidator | undefined;

  /** `validator` checks JSON Schema `argsSchema`s (the server's `jsonSchemaValidator` option). */
  constructor(onChange: () => void, validator?: JsonSchemaValidator) {
    this.entries = new Registry(onChange);
    this.#validator = validator;
  }

  get hasCompleters(): boolean {
    return this.entries.values().some((entry) => Object.keys(entry.complete).length > 0);
  }

  register(name: string, config: PromptConfig<PromptArgsInput | undefined>, handler: PromptCallback<never>): RegisteredPrompt {
    if (this.entries.has(name)) throw new Error(`Prompt ${name} is already registered`);
    const entry: PromptEntry = { name, enabled: true, handler, ...compilePrompt(name, config, this.#validator) };
    this.entries.set(name, entry);
    const handle = registrationHandle(this.entries, entry, () => ({ name: entry.name, key: entry.name }));
    const update = ({ name: newName = entry.name, ...next }: PromptUpdate, nextHandler?: PromptCallback<never>): void => {
      if (newName !== entry.name && this.entries.has(newName)) throw new Error(`Prompt ${newName} is already registered`);
      const compiled = compilePrompt(newName, next, this.#validator);
      const before = entry.visibility;
      this.entries.rekey(entry.name, newName);
      Object.assign(entry, compiled, { name: newName });
      if (nextHandler !== undefined) entry.handler = nextHandler;
      this.entries.touchUpdated(entry, before);
    };
    return Object.assign(handle, { update });
  }

  /** `prompts/list`, as `viewer` sees it. */
  list(params: JsonObject, version: string, pageSize: number, viewer: LazyViewer): JsonObject {
    const visible = this.entries.values().filter((entry) => viewer.shows(entry));
    const page = paginate(visible, typeof params.cursor === 'string' ? params.cursor : undefined, pageSize, this.entries.generation);
    const prompts = page.items.map((entry) => promptFor(entry.wire, version));
    return page.nextCursor === undefined ? { prompts } : { prompts, nextCursor: page.nextCursor };
  }

  /** The prompt called `name` that `viewer` sees (enabled and visible), or -32602. */
  require(name: string, viewer: LazyViewer): PromptEntry {
    const entry = this.entries.get(name);
    if (entry === undefined || !viewer.shows(entry)) throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    viewer.challenge(entry, 'Prompt', name);
    return entry;
  }

  /** `prompts/get`; a prompt hidden from `viewer` is an unknown prompt. */
  async get(params: JsonObject, version: string, extra: RequestExtra, viewer: LazyViewer): Promise<JsonObject> {
    const name = String(params.name);
    const entry = this.require(name, viewer);
    const given = (params.arguments ?? {}) as Record<string, string>;
    let args: unknown = given;
    if (entry.schema !== undefined) {
      const checked = await entry.schema.validate(given);
      if (!checked.ok) throw new JsonRpcError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${name}: ${checked.message}`);
      args = checked.value;
    } else {
      // Own members only: an argument named `constructor` is missing unless the client sent it.
      const missing = (entry.wire.arguments ?? []).filter((argument) => argument.required === true && !(Object.hasOwn(given, argument.name) && given[argument.name] !== undefined));
      if (missing.length > 0) throw new JsonRpcError(ErrorCode.InvalidParams, `Missing required arguments for prompt ${name}: ${missing.map((a) => a.name).join(', ')}`);
    }
    const result = await (entry.handler as PromptCallback<unknown>)(args, extra);
    return checkResult('prompts/get', result, version, `Prompt ${name}`);
  }
}
