/**
 * A deep copy with JSON semantics, for handing a message to the other side of an in-memory
 * transport: the result equals `JSON.parse(JSON.stringify(value))` (undefined members and
 * functions dropped, `undefined` in arrays becomes null, non-finite numbers become null,
 * `-0` becomes 0, `toJSON` honoured) at a fraction of the cost of that round trip or of
 * `structuredClone`. Like `JSON.stringify` it throws a TypeError on a bigint, and on a cycle
 * (detected as nesting deeper than {@link MAX_JSON_DEPTH}, which no MCP message comes near).
 *
 * A value made by {@link sealJson} is already JSON-clean and deeply frozen: nobody can change
 * it, so `transferJson` (the in-memory transport's copy) hands it over as it is instead
 * of copying it per message (the per-request `_meta` of MCP 2026-07-28 basic/index §_meta, and
 * the `serverInfo` of every modern result repeat the same members on every message).
 */

/** Nesting beyond this depth is treated as a cycle. */
export const MAX_JSON_DEPTH = 2048;

/**
 * A deep copy of `value` with JSON semantics (see the module comment): what
 * `JSON.parse(JSON.stringify(value))` returns, without the text in between.
 *
 * @example
 * ```ts
 * const copy = cloneJson({ tools: { listChanged: true }, skip: undefined }); // { tools: { listChanged: true } }
 * ```
 */
export function cloneJson(value: unknown): unknown {
  return copy(value, 0, false);
}

/** Every object and array made by {@link sealJson}: frozen, JSON-clean, safe to share. */
const sealedValues = new WeakSet<object>();

/**
 * A deeply frozen copy of `value` with JSON semantics, made once and shared by every message
 * that carries it: `transferJson` passes it on without copying, and a schema verdict
 * remembers that it passed (`schema-verdict.ts`).
 *
 * @example
 * ```ts
 * const info = sealJson({ name: 'client', version: '1.0.0' });
 * transferJson({ clientInfo: info }).clientInfo === info; // true
 * ```
 */
export function sealJson<T>(value: T): T {
  return seal(copy(value, 0, false)) as T;
}

function seal(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  for (const key of Object.keys(value)) seal((value as Record<string, unknown>)[key]);
  sealedValues.add(Object.freeze(value));
  return value;
}

/** Whether `value` was made by {@link sealJson} (so it is frozen all the way down and JSON-clean). */
export function isSealedJson(value: object): boolean {
  return sealedValues.has(value);
}

/**
 * {@link cloneJson} for a message handed to another party in this process: the same copy,
 * except that a {@link sealJson} value is passed as it is (it cannot change, and it is
 * already what the copy would be).
 */
export function transferJson(value: unknown): unknown {
  return copy(value, 0, true);
}

function copy(value: unknown, depth: number, share: boolean): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) return null;
      return value === 0 ? 0 : value; // -0 serialises as 0
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (share && sealedValues.has(value)) return value;
  if (depth > MAX_JSON_DEPTH) throw new TypeError(`Converting circular structure to JSON (or nesting deeper than ${MAX_JSON_DEPTH})`);
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return copy((toJSON as () => unknown).call(value), depth + 1, share);
  if (Array.isArray(value)) {
    const array: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = copy(value[i], depth + 1, share);
      array[i] = item === undefined ? null : item;
    }
    return array;
  }
  const object: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = copy((value as Record<string, unknown>)[key], depth + 1, share);
    if (item === undefined) continue;
    // JSON.parse makes `"__proto__"` an own member; an assignment would set the copy's prototype instead.
    if (key === '__proto__') Object.defineProperty(object, key, { value: item, enumerable: true, writable: true, configurable: true });
    else object[key] = item;
  }
  return object;
}
