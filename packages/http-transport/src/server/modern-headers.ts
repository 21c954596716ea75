/**
 * The request metadata headers of a 2026-07-28 POST (MCP 2026-07-28, Transports §Streamable HTTP;
 * SEP-2243), checked against the body before the request reaches a session: `MCP-Protocol-Version`
 * (required; equal to `_meta["io.modelcontextprotocol/protocolVersion"]` when the body names one),
 * `Mcp-Method` (required, equal to `method`; values are case-sensitive, surrounding whitespace is
 * not part of a value), `Mcp-Name` (required for `tools/call` and `prompts/get` = `params.name`,
 * `resources/read` = `params.uri`, `tasks/get|update|cancel` = `params.taskId`, encoded plain or
 * `=?base64?…?=`) and every `Mcp-Param-*` value decodable. Each failure is -32020 with HTTP 400.
 * Comparing `Mcp-Param-*` values with the arguments needs the tool's annotations: the server role
 * does it (`tools/call`).
 */
import { ErrorCode, isJsonObject, type JsonRpcMessage, type RequestId } from '@statemcp/protocol';
import { METHOD_HEADER, NAME_HEADER, PARAM_HEADER_PREFIX, PROTOCOL_VERSION_HEADER, declaredVersionOf, decodeHeaderValue, nameParamOf } from '@statemcp/protocol/internal';
import { errorResponse } from './http-response.js';
import type { InboundRequest } from './inbound.js';

/** The -32020 answer for one request, or undefined when its headers agree with its body. */
export function headerMismatch(inbound: InboundRequest, message: JsonRpcMessage, id: RequestId | undefined): Response | undefined {
  const why = mismatchOf(inbound, message);
  return why === undefined ? undefined : errorResponse(400, ErrorCode.HeaderMismatch, `Header mismatch: ${why}`, { id: id ?? null });
}

/** What differs between a request's routing headers and its body (no closure per request: most agree). */
function mismatchOf(inbound: InboundRequest, message: JsonRpcMessage): string | undefined {
  const version = inbound.header(PROTOCOL_VERSION_HEADER)?.trim();
  if (version === undefined || version === '') return 'MCP-Protocol-Version is required';
  const declared = declaredVersionOf('params' in message ? message.params : undefined);
  if (declared !== undefined && declared !== version) return `MCP-Protocol-Version ${version} differs from the _meta protocolVersion ${declared}`;
  const method = inbound.header(METHOD_HEADER)?.trim();
  if (method === undefined || method === '') return 'Mcp-Method is required';
  const bodyMethod = 'method' in message ? message.method : undefined;
  if (method !== bodyMethod) return `Mcp-Method ${method} differs from the body method ${String(bodyMethod)}`;
  const param = nameParamOf(method);
  const params = 'params' in message ? message.params : undefined;
  const value = param === undefined || !isJsonObject(params) ? undefined : Object.hasOwn(params, param) ? params[param] : undefined;
  const rawName = inbound.header(NAME_HEADER);
  if (typeof value === 'string') {
    if (rawName === undefined) return `Mcp-Name is required for ${method}`;
    if (decodeHeaderValue(rawName) !== value) return `Mcp-Name differs from params.${param ?? 'name'}`;
  }
  // By name first: most requests carry no `Mcp-Param-*` header, and the header record is a copy of them all.
  for (const name of inbound.headerNames()) {
    if (!name.startsWith(PARAM_HEADER_PREFIX)) continue;
    const raw = inbound.header(name);
    if (raw !== undefined && decodeHeaderValue(raw) === undefined) return `${name} is not a valid header value`;
  }
  return undefined;
}
