/**
 * Small readings of JSON-RPC messages and refused bodies that the Streamable HTTP client
 * needs: which method a message is, the request ids it carries, and whether a refused body is
 * a modern-era error or the JSON-RPC answer to the posted request.
 */
import { ErrorCode, isJsonObject, parseJson, type JsonRpcMessage, type RequestId } from '@statemcp/protocol';
import { isRequestId } from '@statemcp/protocol/internal';

/** Modern-era (2026-07-28) error codes: a 400 carrying one comes from a modern server, not a legacy one. */
const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);

export function isRequestWithMethod(message: JsonRpcMessage, method: string): boolean {
  return 'method' in message && 'id' in message && message.method === method;
}

export function isNotificationWithMethod(message: JsonRpcMessage, method: string): boolean {
  return 'method' in message && !('id' in message) && message.method === method;
}

/** Ids of the requests in a message (one request, or requests inside a 2025-03-26 batch). */
export function requestIdsOf(message: JsonRpcMessage | readonly JsonRpcMessage[]): RequestId[] {
  // One message (every POST but a 2025-03-26 batch): no array around it.
  if (!Array.isArray(message)) return isRequest(message) ? [message.id] : [];
  const ids: RequestId[] = [];
  for (const item of message as readonly unknown[]) {
    if (isRequest(item)) ids.push(item.id);
  }
  return ids;
}

/** Takes `id` out of `ids` (its first occurrence), if it is there. */
export function removeId(ids: RequestId[], id: RequestId): void {
  const index = ids.indexOf(id);
  if (index >= 0) ids.splice(index, 1);
}

function isRequest(item: unknown): item is { readonly method: string; readonly id: RequestId } {
  return isJsonObject(item) && typeof item.method === 'string' && isRequestId(item.id);
}

/**
 * A 400 body that is a modern-era JSON-RPC error means "modern server": no fallback (MCP
 * 2026-07-28 basic/versioning §Backward Compatibility).
 */
export function isModernErrorBody(body: string): boolean {
  const parsed = parseJson(body);
  if (!parsed.ok || !isJsonObject(parsed.value)) return false;
  const error = parsed.value.error;
  return isJsonObject(error) && typeof error.code === 'number' && MODERN_ERROR_CODES.has(error.code);
}

/** The body of a refused POST, when it is a JSON-RPC error response to the posted request. */
export function errorAnswerFor(message: JsonRpcMessage, body: string): Record<string, unknown> | undefined {
  if (!('id' in message) || !('method' in message)) return undefined;
  const parsed = parseJson(body);
  if (!parsed.ok || !isJsonObject(parsed.value)) return undefined;
  const value = parsed.value;
  if (value.id !== message.id || !isJsonObject(value.error)) return undefined;
  return value;
}
