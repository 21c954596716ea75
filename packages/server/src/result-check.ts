/**
 * Checks a handler's result against the negotiated revision's result schema before it is
 * sent, so a server bug surfaces as a -32603 here instead of a validation failure in the
 * client.
 */
import { ErrorCode, JsonRpcError, type JsonObject } from '@statemcp/protocol';
import { getRevision, parseUnlessPassed } from '@statemcp/protocol/internal';
import { completeResult, type CacheHints } from './caching.js';

/** `hints`: the caching hints of a cacheable result (2026-07-28+), added unless the handler set its own. */
export function checkResult(method: string, given: unknown, version: string, what: string, hints?: CacheHints): JsonObject {
  const schema = getRevision(version)?.requests[method]?.result;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new JsonRpcError(ErrorCode.InternalError, `${what} returned a non-object result`);
  }
  const value = completeResult(given as JsonObject, version, hints);
  const parsed = schema === undefined ? undefined : parseUnlessPassed(schema, value);
  if (parsed !== undefined && !parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new JsonRpcError(ErrorCode.InternalError, `${what} returned an invalid ${method} result for protocol revision ${version}: ${issues}`);
  }
  return value;
}
