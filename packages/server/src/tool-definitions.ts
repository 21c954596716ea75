/**
 * A tool defined apart from any server — config and handler, typed like `registerTool`'s — so
 * that a server with many tools registers them in one `withTools({ … })` call, each name the
 * key it is given. Each `defineTool` is its own statement for the type checker, which keeps a
 * server of hundreds of typed tools cheap to check (a single chain of that many `withTool`
 * calls grows past the checker's instantiation depth).
 */
import type { InferObject, ObjectSchemaInput } from './object-schema.js';
import type { ToolResultOf } from './tool-results.js';
import type { ToolArgs, ToolCallback, ToolConfig, ToolConfigWithOutput, ToolInput } from './tools.js';
import type { CallToolResult } from './wire-types.js';

/** A tool's config and handler, with the types the typed client reads: the arguments it sends and the structured result. */
export interface DefinedTool<Args, Structured> {
  readonly config: ToolConfig<ObjectSchemaInput | undefined, ObjectSchemaInput | undefined>;
  readonly handler: ToolCallback<never, unknown>;
  /** The types, for `withTools` (never set). */
  readonly '~types'?: { readonly args: Args; readonly structured: Structured };
}

/** `defineTool(config)` before its handler: `.handle(handler)` makes the tool. */
export interface ToolBuilder<Args, Input, Result, Structured> {
  /**
   * The handler, typed from the schemas given first: with them already fixed, every literal
   * in the result (an enum member of the structured value) keeps its literal type.
   */
  handle(handler: ToolCallback<Args, Result>): DefinedTool<Input, Structured>;
}

/**
 * Defines a tool: the same config and handler as `registerTool`, the handler typed from the
 * schemas (its result from the `outputSchema`). Register it with `server.withTools({ name: tool })`.
 * Given the config alone, it returns a builder whose `.handle(handler)` makes the tool: the
 * form that keeps literal types in an inline result (`{ summary: 'sunny' }` for an enum).
 *
 * @example
 * ```ts
 * const forecast = defineTool({ inputSchema: { city: z.string() }, outputSchema: { celsius: z.number() } }, ({ city }) => ({ celsius: city.length }));
 * export const server = new McpServer({ name: 'weather', version: '1.0.0' }).withTools({ forecast });
 * ```
 */
export function defineTool<I extends ObjectSchemaInput | undefined = undefined>(config: ToolConfig<I, undefined>, handler: ToolCallback<ToolArgs<I>>): DefinedTool<ToolInput<I>, undefined>;
export function defineTool<I extends ObjectSchemaInput | undefined, O extends ObjectSchemaInput>(
  config: ToolConfigWithOutput<I, O>,
  handler: ToolCallback<ToolArgs<I>, ToolResultOf<InferObject<O>>>,
): DefinedTool<ToolInput<I>, InferObject<O>>;
export function defineTool<I extends ObjectSchemaInput | undefined, O extends ObjectSchemaInput>(
  config: ToolConfigWithOutput<I, O>,
): ToolBuilder<ToolArgs<I>, ToolInput<I>, ToolResultOf<InferObject<O>>, InferObject<O>>;
export function defineTool<I extends ObjectSchemaInput | undefined = undefined>(config: ToolConfig<I, undefined>): ToolBuilder<ToolArgs<I>, ToolInput<I>, CallToolResult, undefined>;
export function defineTool(
  config: ToolConfig<ObjectSchemaInput | undefined, ObjectSchemaInput | undefined>,
  handler?: ToolCallback<never, unknown>,
): unknown {
  if (handler !== undefined) return { config, handler } satisfies DefinedTool<unknown, unknown>;
  return { handle: (later: ToolCallback<never, unknown>): DefinedTool<unknown, unknown> => ({ config, handler: later }) };
}

/** The definitions `withTools(tools)` adds: one entry per key. */
export type ToolsDefinitions<T> = {
  readonly tools: { readonly [K in keyof T]: T[K] extends DefinedTool<infer Args, infer Structured> ? { readonly args: Args; readonly structured: Structured } : never };
};
