/**
 * A client typed from a server's own definitions, with no code generation: `typedClient<S>(client)`
 * where `S` is `typeof server` (an `McpServer` built with `withTool` and friends, imported with
 * `import type` from the server's package) or a definitions type (`McpDefinitions`, such as the
 * one `statemcp-typegen` writes for any server). Every tool, prompt and resource is a method,
 * named, argued and resulted as the server defines it:
 *
 * - `tools.<name>(args)` → `tools/call`: the tools are listed first when this one was not, so
 *   `structuredContent` is checked against the `outputSchema` the server declares (a mismatch
 *   rejects with `ToolOutputError`); the result is typed from the definitions.
 * - `prompts.<name>(args)` → `prompts/get`, arguments sent as strings (the wire's type).
 * - `resources.<name>(variables)` → `resources/read` of the URI its template expands to (RFC
 *   6570); the template is looked up by name in the server's listings, once.
 *
 * Each method also has `.safe(...)`, which settles with `{ ok, result }` or `{ ok: false, error }`,
 * the error typed per kind of call. It runs over the ordinary `Client`, so both eras (the
 * `initialize` handshake and 2026-07-28 discovery) work alike.
 *
 * @example
 * ```ts
 * import type { WeatherServer } from 'weather-server';
 * const weather = typedClient<WeatherServer>(client);
 * const forecast = await weather.tools.forecast({ city: 'Lyon' });
 * if (!forecast.isError) console.log(forecast.structuredContent.celsius);
 * ```
 */
import { StatemcpError, UriTemplate, InvalidArgumentError, InvalidResultError, type DefinitionsOf, type JsonRpcError, type McpError, type ToolOutputError, type UriTemplateValue } from '@statemcp/protocol';
import type { Client } from './client.js';
import type { CallOptions, CallToolOptions } from './options.js';
import type { TypedCallToolResult } from './typed-results.js';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from './types.js';

/** What any typed call may fail with: a JSON-RPC error from the server, or a local error of this SDK (timeout, cancellation, closed connection …). */
export type CallError = JsonRpcError | McpError;
/** What a typed tool call fails with: {@link CallError}, or `ToolOutputError` when `structuredContent` breaks the declared output schema. */
export type ToolCallError = CallError | ToolOutputError;
/** What a typed prompt call fails with. */
export type PromptCallError = CallError;
/** What a typed resource read fails with: {@link CallError} (`InvalidArgumentError` when the server lists no resource of that name, `InvalidResultError` when its template is not RFC 6570). */
export type ResourceCallError = CallError;

/** The outcome of a `.safe(…)` call: the result, or the error, typed for the kind of call. */
export type CallOutcome<R, E> = { readonly ok: true; readonly result: R } | { readonly ok: false; readonly error: E };

/** The parameters of a typed call: the arguments may be left out when none is required. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- "nothing required" is exactly `{}`
export type CallParams<Args, Options> = {} extends Args ? [args?: Args, options?: Options] : [args: Args, options?: Options];

/** The result of a typed tool call: typed `structuredContent` when the tool has an output schema. */
export type ToolResultFor<Structured> = [Structured] extends [undefined] ? CallToolResult : TypedCallToolResult<Structured>;

/** One typed method: call it, or call `.safe` to get the error as a value. */
export interface TypedCall<Params extends unknown[], Result, Error> {
  (...params: Params): Promise<Result>;
  /** The same call, settling with `{ ok: true, result }` or `{ ok: false, error }` (errors outside this SDK's family still reject). */
  safe(...params: Params): Promise<CallOutcome<Result, Error>>;
}

type Part<D, K extends string> = D extends { readonly [P in K]?: infer T } ? NonNullable<T> : Record<never, never>;
type Field<T, K extends string> = T extends { readonly [P in K]: infer V } ? V : never;

/** The typed tools, prompts and resources of definitions `D` (see {@link typedClient}). */
export interface TypedClient<D> {
  /** `tools/call`, one method per tool. */
  readonly tools: { readonly [N in keyof Part<D, 'tools'> & string]: TypedCall<CallParams<Field<Part<D, 'tools'>[N], 'args'>, CallToolOptions>, ToolResultFor<Field<Part<D, 'tools'>[N], 'structured'>>, ToolCallError> };
  /** `prompts/get`, one method per prompt. */
  readonly prompts: { readonly [N in keyof Part<D, 'prompts'> & string]: TypedCall<CallParams<Field<Part<D, 'prompts'>[N], 'args'>, CallOptions>, GetPromptResult, PromptCallError> };
  /** `resources/read`, one method per resource or template, taking the template's variables. */
  readonly resources: { readonly [N in keyof Part<D, 'resources'> & string]: TypedCall<CallParams<Field<Part<D, 'resources'>[N], 'variables'>, CallOptions>, ReadResourceResult, ResourceCallError> };
  /** The client underneath. */
  readonly client: Client;
}

type AnyCall = (args?: object, options?: CallOptions) => Promise<unknown>;

/** A method object for every name asked for (`then` excepted, so the namespace is never taken for a promise). */
function namespace(make: (name: string) => AnyCall): object {
  const methods = new Map<string, AnyCall & { safe: AnyCall }>();
  return new Proxy(Object.create(null) as object, {
    get(_target, key) {
      if (typeof key !== 'string' || key === 'then') return undefined;
      let method = methods.get(key);
      if (method === undefined) {
        const call = make(key);
        const safe = (args?: object, options?: CallOptions): Promise<CallOutcome<unknown, StatemcpError>> =>
          call(args, options).then(
            (result) => ({ ok: true, result }),
            (error: unknown) => {
              if (error instanceof StatemcpError) return { ok: false, error };
              throw error;
            },
          );
        method = Object.assign(call, { safe });
        methods.set(key, method);
      }
      return method;
    },
  });
}

/** Prompt arguments travel as strings: other values are sent as their JSON text. */
function promptArguments(args: object | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(args ?? {})) {
    if (value !== undefined) out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

/** Where a named resource lives: a fixed URI, or a URI template its variables fill. */
type ResourceAddress = { readonly uri: string } | { readonly uriTemplate: string };

/** The resources and templates of a server by name, from its listings (read once, again on a miss). */
class ResourceAddresses {
  readonly #client: Client;
  #byName: Promise<Map<string, ResourceAddress>> | undefined;

  constructor(client: Client) {
    this.#client = client;
  }

  async uriFor(name: string, variables: object | undefined, options: CallOptions | undefined): Promise<string> {
    let address = (await (this.#byName ??= this.#load(options))).get(name);
    if (address === undefined) {
      this.#byName = this.#load(options);
      address = (await this.#byName).get(name);
    }
    if (address === undefined) throw new InvalidArgumentError(`The server lists no resource or resource template named ${JSON.stringify(name)}`);
    if ('uri' in address) return address.uri;
    let template: UriTemplate;
    try {
      template = new UriTemplate(address.uriTemplate);
    } catch (error) {
      throw new InvalidResultError(`Resource template ${name} (${address.uriTemplate}) is not a valid RFC 6570 template`, { cause: error });
    }
    return template.expand((variables ?? {}) as Record<string, UriTemplateValue>);
  }

  #load(options: CallOptions | undefined): Promise<Map<string, ResourceAddress>> {
    const loading = (async () => {
      const resources = await this.#client.listAllResources({}, options);
      const templates = await this.#client.listAllResourceTemplates({}, options);
      const byName = new Map<string, ResourceAddress>();
      for (const resource of resources) byName.set(resource.name, { uri: resource.uri });
      for (const template of templates) byName.set(template.name, { uriTemplate: template.uriTemplate });
      return byName;
    })();
    // A failed listing is not kept: the next call lists again.
    loading.catch(() => {
      if (this.#byName === loading) this.#byName = undefined;
    });
    return loading;
  }
}

/**
 * A client typed from a server's definitions: `S` is `typeof server` for an `McpServer` built
 * with `withTool` / `withPrompt` / `withResource(Template)`, or a definitions type such as the
 * one `statemcp-typegen` writes. Only the type is needed (`import type`); nothing of the
 * server is loaded.
 *
 * @example
 * ```ts
 * const weather = typedClient<WeatherServer>(client);
 * const outcome = await weather.tools.forecast.safe({ city: 'Lyon' });
 * if (!outcome.ok) console.error(outcome.error.code, outcome.error.message);
 * ```
 */
export function typedClient<S>(client: Client): TypedClient<DefinitionsOf<S>> {
  const addresses = new ResourceAddresses(client);
  return {
    client,
    tools: namespace((name) => (args, options) => client.callTool({ name, arguments: { ...args } }, { ensureOutputSchema: true, ...options })),
    prompts: namespace((name) => (args, options) => client.getPrompt({ name, arguments: promptArguments(args) }, options)),
    resources: namespace((name) => async (variables, options) => client.readResource({ uri: await addresses.uriFor(name, variables, options) }, options)),
  } as TypedClient<DefinitionsOf<S>>;
}
