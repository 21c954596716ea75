/**
 * The types of a server's tools, prompts and resources, as data the typed client reads: an
 * `McpServer` built with `withTool` / `withPrompt` / `withResource(Template)` carries one in its
 * type, and `statemcp-typegen` writes one for any server from its listings. Only types: nothing
 * here exists at run time, so a client package can `import type` a server's definitions across
 * a package boundary without bundling the server.
 *
 * @example
 * ```ts
 * type Definitions = {
 *   tools: { forecast: { args: { city: string }; structured: { celsius: number } } };
 *   prompts: { greet: { args: { name: string } } };
 *   resources: { file: { uriTemplate: 'file:///{path}'; variables: { path: string } } };
 * };
 * ```
 */

/** One tool: the arguments it takes and its `structuredContent` (`undefined` when it declares no `outputSchema`). */
export interface ToolTypes {
  readonly args: unknown;
  readonly structured: unknown;
}

/** One prompt: the arguments `prompts/get` takes. */
export interface PromptTypes {
  readonly args: unknown;
}

/** One resource or resource template: its URI template (a fixed URI has no variables) and the variables that fill it. */
export interface ResourceTypes {
  readonly uriTemplate: string;
  readonly variables: unknown;
}

/** What a server offers, by name. Every part is optional: a server with no prompts has none. */
export interface McpDefinitions {
  readonly tools?: { readonly [name: string]: ToolTypes };
  readonly prompts?: { readonly [name: string]: PromptTypes };
  readonly resources?: { readonly [name: string]: ResourceTypes };
}

/**
 * Anything that carries definitions in its type (an `McpServer` built with `withTool` and
 * friends). The key is a string, like Standard Schema's `~standard`, so two installed copies of
 * this package still agree; it is never set at run time.
 */
export interface HasDefinitions<D = McpDefinitions> {
  readonly '~definitions'?: D;
}

/** The definitions of `S`: an `McpServer`'s (from its type), or `S` itself when it is a definitions object. */
export type DefinitionsOf<S> = '~definitions' extends keyof S ? (S extends HasDefinitions<infer D> ? D : never) : S extends McpDefinitions ? S : never;
