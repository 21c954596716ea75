/**
 * Which scopes an MCP message needs: scopes for every request, per JSON-RPC method and per
 * tool (`tools/call` by tool name), so one endpoint can keep, say, a destructive tool behind a
 * scope the rest of the server does not ask for.
 */

/** Scope rules of a protected resource (part of {@link ProtectedResourceOptions}). */
export interface ScopePolicy {
  /** Scopes every request needs (checked before the body is read). */
  requiredScopes?: readonly string[];
  /** Extra scopes per JSON-RPC method, e.g. `{ 'resources/read': ['files:read'] }`. */
  methodScopes?: Readonly<Record<string, readonly string[]>>;
  /** Extra scopes per tool name for `tools/call`, e.g. `{ deleteFile: ['files:write'] }`. */
  toolScopes?: Readonly<Record<string, readonly string[]>>;
}

/** Every scope the requests among `messages` need (the base scopes first, no duplicates). */
export function requiredScopesFor(policy: ScopePolicy, messages: readonly unknown[]): string[] {
  const needed = new Set(policy.requiredScopes ?? []);
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: unknown };
    if (typeof method !== 'string') continue;
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
