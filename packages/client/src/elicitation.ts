/**
 * Client-side rules of `elicitation/create` (2025-06-18+):
 * - the request's mode must be one this client declared (`{}` means form only); a server
 *   that sends another mode is answered with -32602 (MCP 2025-11-25 basic/lifecycle, MCP
 * 2025-11-25 client/elicitation);
 * - after the user accepts a form, every field left out that has a `default` in the
 *   requested schema gets that default (SEP-1034, 2025-11-25).
 */
import { ErrorCode, JsonRpcError } from '@statemcp/protocol';
import { elicitationModes } from './capabilities.js';
import type { ClientCapabilities, ElicitRequestParams, ElicitResult } from './types.js';

/** The mode of an elicitation request: `url`, or `form` when absent (2025-06-18 has no mode). */
export function modeOf(params: ElicitRequestParams): 'form' | 'url' {
  return params.mode === 'url' ? 'url' : 'form';
}

/** Throws the -32602 `JsonRpcError` to answer when `params` uses a mode the client did not declare. */
export function assertDeclaredMode(params: ElicitRequestParams, declared: ClientCapabilities): void {
  const mode = modeOf(params);
  if (!elicitationModes(declared)[mode]) {
    throw new JsonRpcError(ErrorCode.InvalidParams, `Unsupported elicitation mode: this client did not declare ${mode} mode`);
  }
}

/**
 * Returns `result` with the requested schema's defaults filled in for every field an
 * accepted form left out. Other actions and URL mode are returned unchanged.
 *
 * @example
 * ```ts
 * applyFormDefaults(
 *   { message: 'Who?', requestedSchema: { type: 'object', properties: { name: { type: 'string', default: 'John Doe' } } } },
 *   { action: 'accept', content: {} },
 * ); // { action: 'accept', content: { name: 'John Doe' } }
 * ```
 */
export function applyFormDefaults(params: ElicitRequestParams, result: ElicitResult): ElicitResult {
  if (result.action !== 'accept' || params.mode === 'url' || !('requestedSchema' in params)) return result;
  const content: NonNullable<ElicitResult['content']> = { ...result.content };
  let changed = false;
  for (const [name, property] of Object.entries(params.requestedSchema.properties)) {
    const fallback = (property as { default?: unknown }).default;
    if (fallback === undefined || Object.hasOwn(content, name)) continue;
    // Property names are the server's: define, so `__proto__` becomes a member, not the prototype.
    Object.defineProperty(content, name, { value: structuredClone(fallback), enumerable: true, writable: true, configurable: true });
    changed = true;
  }
  return changed ? { ...result, content } : result;
}
