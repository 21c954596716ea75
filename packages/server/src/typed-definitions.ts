/**
 * How an `McpServer` carries its registrations in its type: each `withTool` / `withPrompt` /
 * `withResource` / `withResourceTemplate` returns the same server typed with one more entry, so
 * `typeof server` describes every tool's arguments and structured result, every prompt's
 * arguments and every resource's URI template and variables. `@statemcp/client`'s
 * `typedClient<typeof server>(client)` reads it; only the type crosses a package boundary.
 */

/**
 * `D` with one more entry `N: Entry` in its `Part`. An intersection, not a rebuilt object: a
 * chain of 200 `withTool` calls stays one flat intersection, which the checker reads without
 * nesting (a mapped rebuild per call nests 200 deep and hits the instantiation limit).
 */
type With<D, Part extends 'tools' | 'prompts' | 'resources', N extends string, Entry> = D & { readonly [P in Part]: { readonly [K in N]: Entry } };

/** `D` with tool `N` taking `Args` and returning `Structured` as `structuredContent`. */
export type WithTool<D, N extends string, Args, Structured> = With<
  D,
  'tools',
  N,
  { readonly args: Args; readonly structured: Structured }
>;

/** `D` with prompt `N` taking `Args`. */
export type WithPrompt<D, N extends string, Args> = With<D, 'prompts', N, { readonly args: Args }>;

/** `D` with resource `N` at the URI template `T`, filled by `Variables`. */
export type WithResource<D, N extends string, T extends string, Variables> = With<
  D,
  'resources',
  N,
  { readonly uriTemplate: T; readonly variables: Variables }
>;

/** The definitions of a server with nothing registered through the `with…` methods. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the empty start of a builder
export type NoDefinitions = {};
