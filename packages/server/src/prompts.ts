/**
 * Prompt registrations of an `McpServer`: `prompts/list` (paginated, shaped per revision)
 * and `prompts/get` (unknown prompt or invalid/missing arguments → -32602). Arguments are
 * declared either as a raw shape of zod string schemas (validated; `description` and
 * optionality become the advertised argument list) or as a plain list of
 * `{ name, description, required }` (only required-ness is checked). A registered prompt can
 * be updated (and renamed) in place.
 */
import { ErrorCode, JsonRpcError, type JsonObject } from '@statemcp/protocol';
import type { Completer } from './completions.js';
import { toStandardSchema, type InferObject, type RawShape, type StandardSchemaLike } from './object-schema.js';
import { paginate } from './pagination.js';
import { Registry, registrationHandle, type RegistrationHandle } from './registry.js';
import type { RequestExtra } from './request-extra.js';
import { checkResult } from './result-check.js';
import { promptFor } from './revision-features.js';
import type { GetPromptResult, Icon, Meta, Prompt, PromptArgument } from './wire-types.js';

/** One advertised prompt argument (the list form of `argsSchema`). */
export interface PromptArgumentDefinition {
  readonly name: string;
  /** Display name (2025-06-18+). */
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

export type PromptArgsInput = RawShape | readonly PromptArgumentDefinition[];

export interface PromptConfig<A extends PromptArgsInput | undefined = undefined> {
  readonly title?: string;
  readonly description?: string;
  /** A raw shape of zod string schemas, or a list of argument definitions. */
  readonly argsSchema?: A;
  /** Completers per argument name (`completion/complete` with `ref/prompt`). */
  readonly complete?: Readonly<Record<string, Completer>>;
  readonly icons?: Icon[];
  readonly _meta?: Meta;
}

/** The arguments a prompt handler receives. */
export type PromptArgs<A> = A extends RawShape
  ? InferObject<A>
  : A extends readonly PromptArgumentDefinition[]
    ? { [key: string]: string | undefined }
    : { [key: string]: never };

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
  wire: Prompt;
  schema: StandardSchemaLike | undefined;
  complete: Readonly<Record<string, Completer>>;
  handler: PromptCallback<never>;
}

function isOptional(schema: StandardSchemaLike): boolean {
  const result = schema['~standard'].validate(undefined);
  return !(result instanceof Promise) && result.issues === undefined;
}

function argumentsOf(input: PromptArgsInput): PromptArgument[] {
  if (Array.isArray(input)) {
    return (input as readonly PromptArgumentDefinition[]).map((definition) => ({ ...definition }));
  }
  return Object.entries(input as RawShape).map(([name, schema]) => {
    const argument: PromptArgument = { name };
    const description = (schema as { description?: unknown }).description;
    if (typeof description === 'string') argument.description = description;
    argument.required = !isOptional(schema);
    return argument;
  });
}

function compilePrompt(name: string, config: PromptConfig<PromptArgsInput | undefined>): Pick<PromptEntry, 'wire' | 'schema' | 'complete'> {
  const wire: Prompt = { name };
  if (config.title !== undefined) wire.title = config.title;
  if (config.description !== undefined) wire.description = config.description;
  if (config.argsSchema !== undefined) wire.arguments = argumentsOf(config.argsSchema);
  if (config.icons !== undefined) wire.icons = config.icons;
  if (config._meta !== undefined) wire._meta = config._meta;
  const schema = config.argsSchema === undefined || Array.isArray(config.argsSchema) ? undefined : toStandardSchema(config.argsSchema as RawShape, `Prompt ${name} argsSchema`);
  return { wire, schema, complete: config.complete ?? {} };
}

/** The prompts of one `McpServer`: registration, `prompts/list` and `prompts/get`. */
export class PromptRegistry {
  readonly entries: Registry<PromptEntry>;

  constructor(onChange: () => void) {
    this.entries = new Registry(onChange);
  }

  get hasCompleters(): boolean {
    return this.entries.values().some((entry) => Object.keys(entry.complete).length > 0);
  }

  register(name: string, config: PromptConfig<PromptArgsInput | undefined>, handler: PromptCallback<never>): RegisteredPrompt {
    if (this.entries.has(name)) throw new Error(`Prompt ${name} is already registered`);
    const entry: PromptEntry = { name, enabled: true, handler, ...compilePrompt(name, config) };
    this.entries.set(name, entry);
    const handle = registrationHandle(this.entries, entry, () => ({ name: entry.name, key: entry.name }));
    const update = ({ name: newName = entry.name, ...next }: PromptUpdate, nextHandler?: PromptCallback<never>): void => {
      if (newName !== entry.name && this.entries.has(newName)) throw new Error(`Prompt ${newName} is already registered`);
      const compiled = compilePrompt(newName, next);
      this.entries.rekey(entry.name, newName);
      Object.assign(entry, compiled, { name: newName });
      if (nextHandler !== undefined) entry.handler = nextHandler;
      this.entries.touch();
    };
    return Object.assign(handle, { update });
  }

  list(params: JsonObject, version: string, pageSize: number): JsonObject {
    const visible = this.entries.values().filter((entry) => entry.enabled);
    const page = paginate(visible, typeof params.cursor === 'string' ? params.cursor : undefined, pageSize, this.entries.generation);
    const prompts = page.items.map((entry) => promptFor(entry.wire, version));
    return page.nextCursor === undefined ? { prompts } : { prompts, nextCursor: page.nextCursor };
  }

  /** The enabled prompt called `name`, or -32602. */
  require(name: string): PromptEntry {
    const entry = this.entries.get(name);
    if (entry === undefined || !entry.enabled) throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    return entry;
  }

  async get(params: JsonObject, version: string, extra: RequestExtra): Promise<JsonObject> {
    const name = String(params.name);
    const entry = this.require(name);
    const given = (params.arguments ?? {}) as Record<string, string>;
    let args: unknown = given;
    if (entry.schema !== undefined) {
      const result = await entry.schema['~standard'].validate(given);
      if (result.issues !== undefined) {
        const detail = result.issues.map((issue) => `${(issue.path ?? []).map((s) => String(typeof s === 'object' ? s.key : s)).join('.')}: ${issue.message}`).join('; ');
        throw new JsonRpcError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${name}: ${detail}`);
      }
      args = result.value;
    } else {
      const missing = (entry.wire.arguments ?? []).filter((argument) => argument.required === true && given[argument.name] === undefined);
      if (missing.length > 0) throw new JsonRpcError(ErrorCode.InvalidParams, `Missing required arguments for prompt ${name}: ${missing.map((a) => a.name).join(', ')}`);
    }
    const result = await (entry.handler as PromptCallback<unknown>)(args, extra);
    return checkResult('prompts/get', result, version, `Prompt ${name}`);
  }
}
