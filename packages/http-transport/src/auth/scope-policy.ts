/**
 * Which scopes an MCP message needs: scopes for every request, and those the registrations it
 * targets declare with `requiredScopes` and `whenMissing: 'challenge'` (`registrations`), so one
 * endpoint can keep, say, a destructive tool behind a scope the rest of the server does not ask
 * for. The per-method and per-tool tables (`methodScopes`, `toolScopes`) are the older,
 * deprecated way to say the same.
 */

/** The registrations' own scope declarations, e.g. `McpServer.scopeChallenges`. */
export interface RegisteredScopes {
  /** The scopes `method` with `params` needs for the caller `authInfo`: empty when nothing challenges. */
  scopesToChallenge(method: string, params: unknown, authInfo: unknown): readonly string[];
}

/** Scope rules of a protected resource (part of {@link ProtectedResourceOptions}). */
export interface ScopePolicy {
  /** Scopes every request needs (checked before the body is read). */
  requiredScopes?: readonly string[];
  /**
   * The server whose registrations declare their scopes (`McpServer.scopeChallenges`): a call of
   * an item registered with `requiredScopes` and `whenMissing: 'challenge'` by a token without
   * them gets `403 insufficient_scope` naming them (the item stays listed).
   */
  registrations?: RegisteredScopes;
  /**
   * Extra scopes per JSON-RPC method, e.g. `{ 'resources/read': ['files:read'] }`.
   *
   * @deprecated Declare the scopes on the registration: `requiredScopes` with
   * `whenMissing: 'challenge'`, and pass `registrations`. Still honoured.
   */
  methodScopes?: Readonly<Record<string, readonly string[]>>;
  /**
   * Extra scopes per tool name for `tools/call`, e.g. `{ deleteFile: ['files:write'] }`.
   *
   * @deprecated Declare them on the tool: `registerTool(name, { requiredScopes, whenMissing:
   * 'challenge' }, …)`, and pass `registrations`. Still honoured.
   */
  toolScopes?: Readonly<Record<string, readonly string[]>>;
}

/** Every scope the requests among `messages` of `authInfo` need (the base scopes first, no duplicates). */
export function requiredScopesFor(policy: ScopePolicy, messages: readonly unknown[], authInfo?: unknown): string[] {
  const needed = new Set(policy.requiredScopes ?? []);
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: unknown };
    if (typeof method !== 'string') continue;
    for (const scope of policy.registrations?.scopesToChallenge(method, params, authInfo) ?? []) needed.add(scope);
    for (const scope of scopesOf(policy.methodScopes, method)) needed.add(scope);
    if (method === 'tools/call' && typeof params === 'object' && params !== null) {
      const name = (params as { name?: unknown }).name;
      if (typeof name === 'string') for (const scope of scopesOf(policy.toolScopes, name)) needed.add(scope);
    }
  }
  return [...needed];
}

/**
 * The scopes `table` lists for `name` (a method or tool name read from the request body): its
 * own entry only, so a tool called `constructor` or `__proto__` needs what the table says for
 * that name — nothing unless listed — rather than whatever `Object.prototype` holds.
 */
function scopesOf(table: Readonly<Record<string, readonly string[]>> | undefined, name: string): readonly string[] {
  return table !== undefined && Object.hasOwn(table, name) ? (table[name] ?? []) : [];
}
