/**
 * `Mcp-Param-*` headers of a 2026-07-28 `tools/call` over HTTP (MCP 2026-07-28
 * basic/transports/streamable-http, SEP-2243). A tool
 * input property annotated `"x-mcp-header": "<Name>"` is mirrored by the client into the header
 * `Mcp-Param-<Name>`; a server that reads the body MUST decode each such header and compare it
 * with the argument, rejecting a mismatch, an undecodable value, or a header missing while the
 * argument has a value with -32020 (HTTP 400). Only the tool knows its annotations, so the
 * check runs here, on the headers the transport attached to the request.
 */
import { ErrorCode, JsonRpcError, type JsonObject } from '@statemcp/protocol';
import { decodeHeaderValue, hasFeature } from '@statemcp/protocol/internal';

/** The annotated top-level properties of an input schema: property name → header suffix. */
export function annotatedParams(inputSchema: JsonObject): ReadonlyMap<string, string> {
  const found = new Map<string, string>();
  const properties = inputSchema.properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return found;
  for (const [name, property] of Object.entries(properties)) {
    if (typeof property !== 'object' || property === null || Array.isArray(property)) continue;
    const header = (property as JsonObject)['x-mcp-header'];
    if (typeof header === 'string' && header !== '') found.set(name, header);
  }
  return found;
}

function mismatch(message: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`);
}

function sameValue(header: string, value: unknown): boolean {
  if (typeof value === 'string') return header === value;
  if (typeof value === 'number') return header.trim() !== '' && Number(header) === value;
  if (typeof value === 'boolean') return header === String(value);
  return false;
}

/**
 * Throws -32020 when the request's `Mcp-Param-*` headers disagree with `args`. Does nothing
 * before 2026-07-28 or without HTTP headers (stdio, WebSocket, in-memory carry none).
 */
export function checkParamHeaders(params: ReadonlyMap<string, string>, args: unknown, headers: Readonly<Record<string, string>> | undefined, version: string): void {
  if (params.size === 0 || headers === undefined || !hasFeature(version, 'routingHeaders')) return;
  const values = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  for (const [property, name] of params) {
    const raw = headers[`mcp-param-${name.toLowerCase()}`];
    const value = Object.hasOwn(values, property) ? values[property] : undefined;
    if (value === undefined || value === null) {
      if (raw !== undefined) throw mismatch(`Mcp-Param-${name} was sent but the argument ${property} has no value`);
      continue;
    }
    if (raw === undefined) throw mismatch(`Mcp-Param-${name} is required: the argument ${property} has a value`);
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) throw mismatch(`Mcp-Param-${name} is not a valid header value`);
    if (!sameValue(decoded, value)) throw mismatch(`Mcp-Param-${name} does not match the argument ${property}`);
  }
}
