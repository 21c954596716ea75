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
import { ErrorCode, PROTOCOL_VERSION_META_KEY, decodeHeaderValue, isJsonObject, type JsonRpcMessage, type RequestId } from '@statemcp/protocol';
import { errorResponse } from './http-response.js';
import type { InboundRequest } from './inbound.js';
import { PROTOCOL_VERSION_HEADER } from './server-options.js';

/** Methods whose `Mcp-Name` header mirrors a param, and which param. */
const NAME_PARAM: ReadonlyMap<string, string> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
  // the tasks extension (SEP-2663): Mcp-Name = params.taskId
  ['tasks/get', 'taskId'],
  ['tasks/update', 'taskId'],
  ['tasks/cancel', 'taskId'],
]);

/** The version a request names in its `_meta`, if any. */
export function metaVersionOf(message: unknown): string | undefined {
  if (!isJsonObject(message) || !isJsonObject(message.params)) return undefined;
  const meta = message.params._meta;
  if (!isJsonObject(meta)) return undefined;
  const version = meta[PROTOCOL_VERSION_META_KEY];
  return typeof version === 'string' ? version : undefined;
}

/** The -32020 answer for one request, or undefined when its headers agree with its body. */
export function headerMismatch(inbound: InboundRequest, message: JsonRpcMessage, id: RequestId | undefined): Response | undefined {
  const refuse = (why: string): Response => errorResponse(400, ErrorCode.HeaderMismatch, `Header mismatch: ${why}`, { id: id ?? null });
  const version = inbound.header(PROTOCOL_VERSION_HEADER)?.trim();
  if (version === undefined || version === '') return refuse('MCP-Protocol-Version is required');
  const declared = metaVersionOf(message);
  if (declared !== undefined && declared !== version) return refuse(`MCP-Protocol-Version ${version} differs from the _meta protocolVersion ${declared}`);
  const method = inbound.header('mcp-method')?.trim();
  if (method === undefined || method === '') return refuse('Mcp-Method is required');
  const bodyMethod = 'method' in message ? message.method : undefined;
  if (method !== bodyMethod) return refuse(`Mcp-Method ${method} differs from the body method ${String(bodyMethod)}`);
  const param = NAME_PARAM.get(method);
  const params = 'params' in message ? message.params : undefined;
  const value = param === undefined || !isJsonObject(params) ? undefined : Object.hasOwn(params, param) ? params[param] : undefined;
  const rawName = inbound.header('mcp-name');
  if (typeof value === 'string') {
    if (rawName === undefined) return refuse(`Mcp-Name is required for ${method}`);
    if (decodeHeaderValue(rawName) !== value) return refuse(`Mcp-Name differs from params.${param ?? 'name'}`);
  }
  for (const [name, raw] of Object.entries(inbound.headerRecord())) {
    if (name.startsWith('mcp-param-') && decodeHeaderValue(raw) === undefined) return refuse(`${name} is not a valid header value`);
  }
  return undefined;
}
