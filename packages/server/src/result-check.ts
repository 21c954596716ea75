/**
 * Checks a handler's result against the negotiated revision's result schema before it is
 * sent, so a server bug surfaces as a -32603 here instead of a validation failure in the
 * client.
 */
import { ErrorCode, JsonRpcError, getRevision, type JsonObject } from '@statemcp/protocol';

export function checkResult(method: string, value: unknown, version: string, what: string): JsonObject {
  const schema = getRevision(version)?.requests[method]?.result;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new JsonRpcError(ErrorCode.InternalError, `${what} returned a non-object result`);
  }
  const parsed = schema?.safeParse(value);
  if (parsed !== undefined && !parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new JsonRpcError(ErrorCode.InternalError, `${what} returned an invalid ${method} result for protocol revision ${version}: ${issues}`);
  }
  return value as JsonObject;
}
