/**
 * The JSON-RPC envelope rules that more than one layer enforces — the session runner for
 * in-process and stream transports, the HTTP server before it routes a POST — decided and
 * worded here once, so a peer gets the same -32600 whichever layer caught it (MCP 2025-03-26 basic §Batching,
 * MCP 2025-03-26 basic §Batching, MCP 2025-06-18 changelog (batching removed); JSON-RPC 2.0 §4:
 * ids of requests in flight are unique).
 */
import { hasFeature } from '../revisions/registry.js';
import { ErrorCode, type JsonRpcErrorObject, type RequestId } from './messages.js';

function invalid(reason: string): JsonRpcErrorObject {
  return { code: ErrorCode.InvalidRequest, message: `Invalid request: ${reason}` };
}

/** A request whose id is already in flight on this connection. */
export function requestIdInUse(id: RequestId): JsonRpcErrorObject {
  return invalid(`request id ${JSON.stringify(id)} is already in use`);
}

/** Why a batch (a JSON array) is refused as a whole in `version`, or undefined when it may be processed. */
export function batchRefusal(items: readonly unknown[], version: string | undefined): JsonRpcErrorObject | undefined {
  if (items.length === 0) return invalid('an empty batch');
  if (!hasFeature(version, 'batching')) return invalid(`JSON-RPC batches are not supported in protocol revision ${version ?? '(before initialization)'}`);
  return undefined;
}

/** `initialize` inside a batch (2025-03-26 forbids it). */
export function initializeInBatch(): JsonRpcErrorObject {
  return invalid('initialize must not be part of a batch');
}

/** A batch inside a batch. */
export function nestedBatch(): JsonRpcErrorObject {
  return invalid('nested batch');
}
