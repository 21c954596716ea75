/**
 * Caching hints of the 2026-07-28 era (MCP 2026-07-28 basic/utilities/caching): `ttlMs` and
 * `cacheScope` on the complete
 * results of `server/discover`, the four lists and `resources/read`, and `resultType:
 * "complete"` on every final result (MCP 2026-07-28 basic/index §ResultType). Earlier revisions
 * get neither: the functions here
 * read the revision's features and leave a legacy result alone.
 */
import { type JsonObject } from '@statemcp/protocol';
import { getRevision, hasFeature } from '@statemcp/protocol/internal';

/** Who may reuse a cached result: `public` (anyone, any user) or `private` (one authorization context). */
export type CacheScope = 'public' | 'private';

/** Caching hints of a result. */
export interface CacheHints {
  /** How long the result stays fresh, in ms (an integer ≥ 0; 0 = stale at once). */
  readonly ttlMs?: number;
  /** Who may share it (default `private`). */
  readonly cacheScope?: CacheScope;
}

/**
 * The hints used when nothing else is configured: stale at once, private. Safe for every
 * server (a list that varies by authorization, a resource that changes): a server whose lists
 * are stable opts in to a TTL with `McpServerOptions.cache` or per resource.
 */
export const DEFAULT_CACHE_HINTS: Required<CacheHints> = Object.freeze({ ttlMs: 0, cacheScope: 'private' });

/** Resolved hints: `override` over `fallback` over the defaults; `ttlMs` must be an integer ≥ 0. */
export function resolveCacheHints(override: CacheHints | undefined, fallback?: CacheHints): Required<CacheHints> {
  const ttlMs = override?.ttlMs ?? fallback?.ttlMs ?? DEFAULT_CACHE_HINTS.ttlMs;
  if (!Number.isInteger(ttlMs) || ttlMs < 0) throw new RangeError(`ttlMs must be an integer >= 0, got ${ttlMs}`);
  return { ttlMs, cacheScope: override?.cacheScope ?? fallback?.cacheScope ?? DEFAULT_CACHE_HINTS.cacheScope };
}

/**
 * A handler's result as the revision of `version` wants it: with `resultType: "complete"`
 * when the revision has result types and, when `hints` are given and the revision has
 * cacheable results, with `ttlMs` and `cacheScope` (a value the handler set wins). A copy.
 */
export function completeResult(value: JsonObject, version: string, hints?: CacheHints): JsonObject {
  const features = getRevision(version)?.features;
  if (features === undefined || !features.resultType) return value;
  // `Object.assign` onto the literal: the same members in the same order as `{ resultType, ...value }`, without the spread's generic copy.
  const out: JsonObject = Object.assign({ resultType: 'complete' }, value);
  if (hints !== undefined && hasFeature(version, 'cacheableResults')) {
    const resolved = resolveCacheHints(hints);
    if (out.ttlMs === undefined) out.ttlMs = resolved.ttlMs;
    if (out.cacheScope === undefined) out.cacheScope = resolved.cacheScope;
  }
  return out;
}
