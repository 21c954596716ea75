/**
 * The client's response cache (MCP 2026-07-28 basic/utilities/caching): 2026-07-28 servers mark
 * the results of the four
 * lists and `resources/read` with `ttlMs` and `cacheScope`, and a later identical call is
 * answered from here while the result is fresh, without a round trip.
 *
 * ```
 *  call ─▶ key = method + params (cursor, uri; never _meta) ─▶ fresh entry for this auth context? ─▶ a copy of it   (hit)
 *                                                                        │ no
 *                                                                        ▼
 *                   the server's answer ─▶ complete, ttlMs > 0, no input round? ─▶ stored (LRU, bounded)   (miss)
 *
 *  tools/prompts/resources list_changed ─▶ that list's pages dropped      resources/updated(uri) ─▶ that read dropped
 * ```
 *
 * A `private` entry is served only to the authorization context it was stored under; a
 * `public` one to any. Each page is its own entry (the cursor is part of the key), with its own
 * TTL. Legacy results carry no `ttlMs` and are never stored.
 */
import { JsonRpcError, type Clock, type JsonObject } from '@statemcp/protocol';

/**
 * The methods whose results may be cached (MCP 2026-07-28 basic/utilities/caching;
 * `server/discover` is the session's).
 */
const CACHEABLE_METHODS: ReadonlySet<string> = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);

/** Which cached methods each change notification makes stale. */
const INVALIDATED_BY: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'notifications/tools/list_changed': ['tools/list'],
  'notifications/prompts/list_changed': ['prompts/list'],
  'notifications/resources/list_changed': ['resources/list', 'resources/templates/list'],
});

/** Entry bound when none is given. */
export const DEFAULT_CACHE_MAX_ENTRIES = 500;
/** Size bound (UTF-8 bytes of the cached results' JSON) when none is given: 8 MiB. */
export const DEFAULT_CACHE_MAX_BYTES = 8 * 1024 * 1024;

/** Options of the client's response cache (`ClientOptions.cache`). */
export interface ResponseCacheOptions {
  /** The most results kept; the least recently used goes first (default 500). */
  readonly maxEntries?: number;
  /** The most UTF-8 bytes of result JSON kept; a larger result is not stored (default 8 MiB). */
  readonly maxBytes?: number;
  /**
   * The key of the authorization context the next call runs under, e.g. a hash of the bearer
   * token or the user id behind the transport's credentials. A `private` result is reused only
   * under the same key. Default: one context for the whole client.
   */
  readonly authContext?: () => string;
  /** Receives every hit, miss, store and invalidation (for logs, an inspector, tests). */
  readonly onEvent?: (event: ResponseCacheEvent) => void;
}

/** What happened in the response cache. */
export interface ResponseCacheEvent {
  /** `hit`: served from the cache; `miss`: sent; `store`: an answer kept; `invalidate`: dropped by a notification or a failed page; `evict`: dropped for room. */
  readonly type: 'hit' | 'miss' | 'store' | 'invalidate' | 'evict';
  readonly method: string;
  /** The params the entry is keyed by (`_meta` left out). */
  readonly params: JsonObject;
  /** Milliseconds the entry stays fresh from now (hits and stores). */
  readonly ttlMs?: number;
}

/** Counters of the response cache since the client was created. */
export interface ResponseCacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly stores: number;
  readonly invalidations: number;
  readonly evictions: number;
  /** Entries held now (expired ones are dropped when next looked at). */
  readonly entries: number;
  /** UTF-8 bytes of result JSON held now. */
  readonly bytes: number;
}

interface Entry {
  readonly method: string;
  readonly params: JsonObject;
  readonly json: string;
  readonly bytes: number;
  readonly expiresAt: number;
  /** The authorization context of a `private` entry; undefined for a `public` one. */
  readonly authContext: string | undefined;
}

/** The calls a client sends through the cache. */
export type CacheableSend = (onInputRound: () => void) => Promise<JsonObject>;

/**
 * One client's response cache. `call` answers a cacheable call from a fresh entry or sends it
 * and keeps the answer; `notified` drops what a change notification made stale.
 */
export class ResponseCache {
  readonly #clock: Clock;
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #authContext: () => string;
  readonly #onEvent: ((event: ResponseCacheEvent) => void) | undefined;
  /** Keyed by scope + method + params; Map order is recency (a hit moves its entry last). */
  /** Built by the first store (a connection that caches nothing builds none). */
  #entries: Map<string, Entry> | undefined;
  #bytes = 0;
  #hits = 0;
  #misses = 0;
  #stores = 0;
  #invalidations = 0;
  #evictions = 0;

  constructor(clock: Clock, options: ResponseCacheOptions = {}) {
    this.#clock = clock;
    this.#maxEntries = bound('maxEntries', options.maxEntries ?? DEFAULT_CACHE_MAX_ENTRIES);
    this.#maxBytes = bound('maxBytes', options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES);
    this.#authContext = options.authContext ?? noAuthContext;
    this.#onEvent = options.onEvent;
  }

  /** The counters, and what is held now. */
  get stats(): ResponseCacheStats {
    return { hits: this.#hits, misses: this.#misses, stores: this.#stores, invalidations: this.#invalidations, evictions: this.#evictions, entries: this.#entries?.size ?? 0, bytes: this.#bytes };
  }

  /** Drops every entry (a new connection may reach another server). */
  clear(): void {
    this.#entries?.clear();
    this.#bytes = 0;
  }

  /**
   * The answer to `method` with `params`: a copy of a fresh entry when there is one (unless
   * `bypass`), otherwise `send()`'s answer, kept when the server marked it cacheable.
   */
  async call(method: string, params: JsonObject, bypass: boolean, send: CacheableSend): Promise<JsonObject> {
    const keyParams = withoutMeta(params);
    const paramsKey = canonicalJson(keyParams);
    const context = this.#authContext();
    if (!bypass) {
      const entry = this.#fresh(privateKey(context, method, paramsKey)) ?? this.#fresh(publicKey(method, paramsKey));
      if (entry !== undefined) {
        this.#hits++;
        this.#emit({ type: 'hit', method, params: keyParams, ttlMs: entry.expiresAt - this.#clock.now() });
        return JSON.parse(entry.json) as JsonObject;
      }
    }
    this.#misses++;
    this.#emit({ type: 'miss', method, params: keyParams });
    let retried = false;
    let result: JsonObject;
    try {
      result = await send(() => {
        retried = true;
      });
    } catch (error) {
      // An invalid cursor (-32602 on a later page): drop the list's pages so the next listing
      // starts over (MCP 2026-07-28 basic/utilities/caching).
      if (params.cursor !== undefined && error instanceof JsonRpcError && error.code === -32602) this.#invalidateMethod(method, undefined);
      throw error;
    }
    if (!retried) this.#store(method, keyParams, paramsKey, context, result);
    return result;
  }

  /** A change notification arrived: drop the entries it makes stale, in every authorization context. */
  notified(notification: string, params: JsonObject): void {
    if (notification === 'notifications/resources/updated') {
      if (typeof params.uri === 'string') this.#invalidateMethod('resources/read', params.uri);
      return;
    }
    for (const method of Object.hasOwn(INVALIDATED_BY, notification) ? (INVALIDATED_BY[notification] ?? []) : []) this.#invalidateMethod(method, undefined);
  }

  /** Whether results of `method` may be cached at all. */
  static caches(method: string): boolean {
    return CACHEABLE_METHODS.has(method);
  }

  #fresh(key: string): Entry | undefined {
    const entries = this.#entries;
    const entry = entries?.get(key);
    if (entries === undefined || entry === undefined) return undefined;
    entries.delete(key);
    if (this.#clock.now() >= entry.expiresAt) {
      this.#bytes -= entry.bytes;
      return undefined;
    }
    entries.set(key, entry);
    return entry;
  }

  #store(method: string, params: JsonObject, paramsKey: string, context: string, result: JsonObject): void {
    const ttlMs = result.ttlMs;
    if (typeof ttlMs !== 'number' || !(ttlMs > 0) || (result.resultType !== undefined && result.resultType !== 'complete')) return;
    const json = JSON.stringify(result);
    const bytes = utf8Length(json);
    if (bytes > this.#maxBytes) return;
    const authContext = result.cacheScope === 'public' ? undefined : context;
    const key = authContext === undefined ? publicKey(method, paramsKey) : privateKey(authContext, method, paramsKey);
    this.#remove(key);
    const entries = (this.#entries ??= new Map());
    entries.set(key, { method, params, json, bytes, expiresAt: this.#clock.now() + ttlMs, authContext });
    this.#bytes += bytes;
    this.#stores++;
    this.#emit({ type: 'store', method, params, ttlMs });
    for (const [oldest, entry] of entries) {
      if (entries.size <= this.#maxEntries && this.#bytes <= this.#maxBytes) break;
      this.#remove(oldest);
      this.#evictions++;
      this.#emit({ type: 'evict', method: entry.method, params: entry.params });
    }
  }

  #invalidateMethod(method: string, uri: string | undefined): void {
    if (this.#entries === undefined) return;
    for (const [key, entry] of this.#entries) {
      if (entry.method !== method || (uri !== undefined && entry.params.uri !== uri)) continue;
      this.#remove(key);
      this.#invalidations++;
      this.#emit({ type: 'invalidate', method, params: entry.params });
    }
  }

  #remove(key: string): void {
    const entry = this.#entries?.get(key);
    if (entry === undefined) return;
    this.#entries?.delete(key);
    this.#bytes -= entry.bytes;
  }

  #emit(event: ResponseCacheEvent): void {
    try {
      this.#onEvent?.(event);
    } catch {
      // a listener that throws must not break the call
    }
  }
}

function privateKey(context: string, method: string, paramsKey: string): string {
  return `private\u0000${context}\u0000${method}\u0000${paramsKey}`;
}

function publicKey(method: string, paramsKey: string): string {
  return `public\u0000${method}\u0000${paramsKey}`;
}

function withoutMeta(params: JsonObject): JsonObject {
  if (params._meta === undefined) return params;
  const { _meta: _ignored, ...rest } = params;
  return rest;
}

/** JSON with object keys sorted, so `{ a, b }` and `{ b, a }` are one key. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** UTF-8 length of `text` without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2; // a surrogate pair: 4 bytes for 2 code units
      i++;
    } else bytes += 2;
  }
  return bytes;
}

function noAuthContext(): string {
  return '';
}

function bound(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`cache ${name} must be an integer >= 0 (got ${String(value)})`);
  return value;
}
