/**
 * The request-metadata headers of the 2026-07-28 Streamable HTTP shape (MCP 2026-07-28
 * basic/transports/streamable-http), on the
 * client side: `MCP-Protocol-Version` (equal to the request's `_meta` version), `Mcp-Method`,
 * `Mcp-Name` (`params.name` or `params.uri` of `tools/call`, `resources/read`, `prompts/get`)
 * and one `Mcp-Param-{Name}` per tool argument whose input-schema property carries an
 * `x-mcp-header` annotation. Whether a request gets them is the revision's `routingHeaders`
 * feature, read from the version its `_meta` names: no version comparisons here.
 *
 * Values that are not safe plain ASCII (non-ASCII, control characters, leading or trailing
 * whitespace), or that look like the sentinel themselves, travel as `=?base64?{utf-8 base64}?=`.
 * HTTP clients must drop from `tools/list` every tool whose annotations break the rules
 * (empty or non-token names, duplicates, non-primitive or `number` properties, annotations
 * reached through anything but `properties` chains); {@link ToolParamHeaders.screen} does.
 */
import { PROTOCOL_VERSION_META_KEY, isJsonObject, type JsonObject, type JsonRpcMessage } from '@statemcp/protocol';
import {
  getRevision,
  METHOD_HEADER,
  NAME_HEADER,
  PARAM_HEADER_PREFIX,
  PROTOCOL_VERSION_HEADER,
  encodeHeaderValue,
  nameParamOf,
} from '@statemcp/protocol/internal';

const ANNOTATION = 'x-mcp-header';
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE_TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'boolean']);

/** One annotated argument: the header's name and the property path of its value. */
interface ParamHeader {
  readonly header: string;
  readonly path: readonly string[];
}

/** The version a request's `_meta` names, when its revision has routing headers. */
export function routedVersion(message: JsonRpcMessage): string | undefined {
  if (!('method' in message)) return undefined;
  const meta = message.params?._meta;
  const version = isJsonObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
  return typeof version === 'string' && getRevision(version)?.features.routingHeaders === true ? version : undefined;
}

/** The tools' `x-mcp-header` annotations seen in `tools/list` results, by tool name. */
export class ToolParamHeaders {
  readonly #byTool = new Map<string, readonly ParamHeader[]>();

  /**
   * A `tools/list` result with every tool whose annotations break the rules left out
   * (`drop` hears why); the annotations of the others are remembered for their calls.
   */
  screen(result: JsonObject, drop: (tool: string, why: string) => void): JsonObject {
    const tools = result.tools;
    if (!Array.isArray(tools)) return result;
    const kept: unknown[] = [];
    for (const tool of tools) {
      if (!isJsonObject(tool) || typeof tool.name !== 'string') {
        kept.push(tool);
        continue;
      }
      const read = readAnnotations(tool.inputSchema);
      if (typeof read === 'string') {
        this.#byTool.delete(tool.name);
        drop(tool.name, read);
        continue;
      }
      if (read.length > 0) this.#byTool.set(tool.name, read);
      else this.#byTool.delete(tool.name);
      kept.push(tool);
    }
    return kept.length === tools.length ? result : { ...result, tools: kept };
  }

  /** Every routing header of one modern request. */
  headersFor(message: JsonRpcMessage, version: string): Record<string, string> {
    const headers: Record<string, string> = { [PROTOCOL_VERSION_HEADER]: version };
    if (!('method' in message)) return headers;
    headers[METHOD_HEADER] = message.method;
    const params = message.params ?? {};
    const key = nameParamOf(message.method);
    const name = key === undefined ? undefined : params[key];
    if (typeof name === 'string') headers[NAME_HEADER] = encodeHeaderValue(name);
    if (message.method !== 'tools/call' || typeof name !== 'string') return headers;
    const args = params.arguments;
    for (const { header, path } of this.#byTool.get(name) ?? []) {
      const value = valueAt(args, path);
      // Only primitive values are mirrored (the annotation is only valid on string, integer and boolean properties).
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
      headers[`${PARAM_HEADER_PREFIX}${header.toLowerCase()}`] = encodeHeaderValue(String(value));
    }
    return headers;
  }
}

/** The annotations of an input schema, or why the tool must be dropped. */
function readAnnotations(schema: unknown): ParamHeader[] | string {
  const found: ParamHeader[] = [];
  const problem = walkProperties(schema, [], found);
  if (problem !== undefined) return problem;
  if (countAnnotations(schema) !== found.length) return `an ${ANNOTATION} annotation is reachable only through something other than properties`;
  const seen = new Set<string>();
  for (const { header } of found) {
    const lower = header.toLowerCase();
    if (seen.has(lower)) return `${ANNOTATION} ${JSON.stringify(header)} is used twice`;
    seen.add(lower);
  }
  return found;
}

function walkProperties(schema: unknown, path: readonly string[], found: ParamHeader[]): string | undefined {
  if (!isJsonObject(schema) || !isJsonObject(schema.properties)) return undefined;
  for (const [property, child] of Object.entries(schema.properties)) {
    if (!isJsonObject(child)) continue;
    const at = [...path, property];
    if (ANNOTATION in child) {
      const header = child[ANNOTATION];
      if (typeof header !== 'string' || header === '' || !TOKEN.test(header)) return `${ANNOTATION} on ${at.join('.')} is not a header token`;
      if (typeof child.type !== 'string' || !PRIMITIVE_TYPES.has(child.type)) return `${ANNOTATION} on ${at.join('.')} is on a property that is not a string, integer or boolean`;
      found.push({ header, path: at });
    }
    const problem = walkProperties(child, at, found);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function countAnnotations(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countAnnotations(item), 0);
  if (!isJsonObject(value)) return 0;
  let count = ANNOTATION in value ? 1 : 0;
  for (const [key, child] of Object.entries(value)) if (key !== ANNOTATION) count += countAnnotations(child);
  return count;
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    // Property names come from the server's tool schema: own members only.
    if (!isJsonObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}
