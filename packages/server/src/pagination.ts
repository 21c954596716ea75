/**
 * Opaque pagination cursors (MCP 2025-11-25 server/utilities/pagination): base64url of `{ o:
 * offset, g: generation }`.
 * The generation is the list's registry generation, so a cursor taken before the list
 * changed is refused with -32602 instead of silently skipping or repeating entries (the
 * client also receives a list_changed notification and starts again).
 */
import { ErrorCode, JsonRpcError } from '@statemcp/protocol';
import { decodeBase64UrlJson, encodeBase64UrlJson } from './base64url-json.js';

/** One page of a list and the cursor of the next page, if any. */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor?: string;
}

export function encodeCursor(offset: number, generation: number): string {
  return encodeBase64UrlJson({ o: offset, g: generation });
}

/** The offset a cursor points at; throws -32602 for a malformed or stale cursor. */
export function decodeCursor(cursor: string, generation: number): number {
  let decoded: unknown;
  try {
    decoded = decodeBase64UrlJson(cursor);
  } catch {
    throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid cursor');
  }
  if (typeof decoded !== 'object' || decoded === null) throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid cursor');
  const { o, g } = decoded as { o?: unknown; g?: unknown };
  if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0 || typeof g !== 'number') {
    throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid cursor');
  }
  if (g !== generation) throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid cursor: the list changed since it was issued; list again from the start');
  return o;
}

/** Cuts `items` into the page that `cursor` points at. */
export function paginate<T>(items: readonly T[], cursor: string | undefined, pageSize: number, generation: number): Page<T> {
  const offset = cursor === undefined ? 0 : decodeCursor(cursor, generation);
  if (offset > items.length) throw new JsonRpcError(ErrorCode.InvalidParams, 'Invalid cursor');
  const end = Number.isFinite(pageSize) ? offset + Math.max(1, Math.floor(pageSize)) : items.length;
  const page = items.slice(offset, end);
  return end < items.length ? { items: page, nextCursor: encodeCursor(end, generation) } : { items: page };
}
