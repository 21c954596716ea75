/**
 * Extensions in capabilities (MCP 2026-07-28 basic/versioning, SEP-1724): a side supports
 * extension `id` when its
 * capabilities list `extensions[id]` (an object of settings, `{}` for none). The 2026-07-28
 * revision defines the `extensions` capability; extensions shipped before it (MCP Apps) use the
 * same key at every revision, and a few legacy peers put it under `experimental[id]`, which is
 * read as a fallback. Extension ids follow the `_meta` key rules with a mandatory prefix.
 */
import { isValidMetaKey } from '../jsonrpc/meta-keys.js';
import type { JsonObject } from '../jsonrpc/messages.js';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `id` can name an extension: a valid `_meta` key with a prefix (`io.modelcontextprotocol/ui`). */
export function isExtensionId(id: string): boolean {
  return id.includes('/') && isValidMetaKey(id);
}

/**
 * The settings `capabilities` declare for extension `id`, or `undefined` when they do not
 * declare it.
 *
 * @example
 * ```ts
 * extensionSettings({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } }, 'io.modelcontextprotocol/ui');
 * // { mimeTypes: ['text/html;profile=mcp-app'] }
 * ```
 */
export function extensionSettings(capabilities: object | undefined, id: string): JsonObject | undefined {
  if (capabilities === undefined) return undefined;
  const { extensions, experimental } = capabilities as { extensions?: unknown; experimental?: unknown };
  const declared = isObject(extensions) ? extensions[id] : undefined;
  if (isObject(declared)) return declared;
  const legacy = isObject(experimental) ? experimental[id] : undefined;
  return isObject(legacy) ? legacy : undefined;
}

/** `capabilities` with extension `id` declared with `settings` (a new object; the input is untouched). */
export function withExtension<C extends object>(capabilities: C, id: string, settings: JsonObject = {}): C & { extensions: { [id: string]: JsonObject } } {
  if (!isExtensionId(id)) throw new TypeError(`Invalid extension id ${JSON.stringify(id)}: use a prefixed _meta key such as io.example/feature`);
  const existing = (capabilities as { extensions?: unknown }).extensions;
  const extensions = { ...(isObject(existing) ? (existing as { [id: string]: JsonObject }) : {}), [id]: settings };
  return { ...capabilities, extensions };
}
