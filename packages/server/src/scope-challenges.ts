/**
 * The scopes of registrations declared with `requiredScopes` and `whenMissing: 'challenge'`,
 * for the HTTP layer: a protected resource given them (`createProtectedResource({
 * registrations: server.scopeChallenges })`) refuses a call of such an item with
 * `403 insufficient_scope` and a `WWW-Authenticate` challenge naming the scopes before the body
 * reaches the server — the client's cue to step up (MCP 2025-11-25, Authorization › Scope
 * Challenge Handling). One declaration on the registration both lists the item and challenges
 * for it; items declared with `whenMissing: 'hide'` (the default) are never challenged, they are
 * unknown to whoever may not see them.
 *
 * ```
 *  message                 item looked up          challenged when
 *  tools/call {name}       the tool `name`         enabled, rule challenges, `visible` lets the
 *  prompts/get {name}      the prompt `name`         caller see it (otherwise the server answers
 *  resources/read {uri}    the static resource uri   it as unknown, naming no scope)
 * ```
 */
import { isJsonObject } from '@statemcp/protocol';
import type { Registry } from './registry.js';
import { LazyViewer, type Viewable } from './visibility.js';

/** The challenging registrations of one `McpServer` (the `registrations` of a protected resource). */
export class ScopeChallenges {
  readonly #tools: Registry<Viewable>;
  readonly #prompts: Registry<Viewable>;
  readonly #resources: Registry<Viewable>;

  constructor(lists: { readonly tools: Registry<Viewable>; readonly prompts: Registry<Viewable>; readonly resources: Registry<Viewable> }) {
    this.#tools = lists.tools;
    this.#prompts = lists.prompts;
    this.#resources = lists.resources;
  }

  /** The scopes `method` with `params` needs for the caller `authInfo`: empty when nothing challenges. */
  scopesToChallenge(method: string, params: unknown, authInfo: unknown): readonly string[] {
    const entry = this.#target(method, params);
    const rule = entry?.visibility;
    if (entry === undefined || rule?.challenge !== true || !entry.enabled) return [];
    return new LazyViewer(authInfo).allows(rule) ? rule.requiredScopes : [];
  }

  #target(method: string, params: unknown): Viewable | undefined {
    if (!isJsonObject(params)) return undefined;
    const { name, uri } = params;
    if (method === 'tools/call' && typeof name === 'string') return this.#tools.get(name);
    if (method === 'prompts/get' && typeof name === 'string') return this.#prompts.get(name);
    if (method === 'resources/read' && typeof uri === 'string') return this.#resources.get(`uri:${uri}`);
    return undefined;
  }
}
