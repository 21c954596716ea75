/**
 * The request-metadata headers of the 2026-07-28 Streamable HTTP shape (MCP 2026-07-28
 * Transports §Streamable HTTP), on the client side: `MCP-Protocol-Version` (equal to the
 * request's `_meta` version), `Mcp-Method` and `Mcp-Name` (the param the shared Mcp-Name table
 * names for the method: `params.name`, `params.uri`, `params.taskId`). Whether a request gets
 * them is the revision's `routingHeaders` feature, read from the version its `_meta` names: no
 * version comparisons here. The `Mcp-Param-*` headers of a `tools/call` come from the client,
 * which knows the tools' `x-mcp-header` annotations (`SendOptions.headers`).
 */
import type { JsonRpcMessage } from '@statemcp/protocol';
import { declaredVersionOf, getRevision, METHOD_HEADER, NAME_HEADER, PROTOCOL_VERSION_HEADER, encodeHeaderValue, nameParamOf } from '@statemcp/protocol/internal';

/** The version a request's `_meta` names, when its revision has routing headers. */
export function routedVersion(message: JsonRpcMessage): string | undefined {
  if (!('method' in message)) return undefined;
  const version = declaredVersionOf(message.params);
  return version !== undefined && getRevision(version)?.features.routingHeaders === true ? version : undefined;
}

/** The routing headers of one modern request. */
export function routingHeaders(message: JsonRpcMessage, version: string): Record<string, string> {
  const headers: Record<string, string> = { [PROTOCOL_VERSION_HEADER]: version };
  if (!('method' in message)) return headers;
  headers[METHOD_HEADER] = message.method;
  const key = nameParamOf(message.method);
  const name = key === undefined ? undefined : message.params?.[key];
  if (typeof name === 'string') headers[NAME_HEADER] = encodeHeaderValue(name);
  return headers;
}
