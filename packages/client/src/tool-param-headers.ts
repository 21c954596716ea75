/**
 * The tools' `x-mcp-header` annotations (MCP 2026-07-28 Transports §Streamable HTTP): a client
 * on a transport that mirrors tool arguments into headers (`Transport.mirrorsToolArguments`)
 * sends one `Mcp-Param-{Name}` per annotated argument of a `tools/call`, and must leave out of
 * `tools/list` every tool whose annotations break the rules (empty or non-token names,
 * duplicates, non-primitive or `number` properties, annotations reached through anything but
 * `properties` chains), with a warning. Values travel plain when they are safe ASCII, else
 * as `=?base64?…?=` (the protocol package's header codec).
 */
import { PARAM_HEADER_PREFIX, encodeHeaderValue } from '@statemcp/protocol/internal';
import { isJsonObject } from '@statemcp/protocol';
import type { Tool } from './types.js';

const ANNOTATION = 'x-mcp-header';
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE_TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'boolean']);

/** One annotated argument: the header's name and the property path of its value. */
interface ParamHeader {
  readonly header: string;
  readonly path: readonly string[];
}

/** The annotations of the tools listed so far, by tool name. */
export class ToolParamHeaders {
  readonly #byTool = new Map<string, readonly ParamHeader[]>();

  /**
   * The tools of one listing page with every tool whose annotations break the rules left out
   * (`drop` hears why); the annotations of the others are remembered for their calls. The
   * same array when none is left out.
   */
  screen(tools: readonly Tool[], drop: (tool: string, why: string) => void): readonly Tool[] {
    let kept: Tool[] | undefined;
    for (let i = 0; i < tools.length; i++) {
      const tool = tools[i] as Tool;
      const read = readAnnotations(tool.inputSchema);
      if (typeof read === 'string') {
        this.#byTool.delete(tool.name);
        drop(tool.name, read);
        kept ??= tools.slice(0, i);
        continue;
      }
      if (read.length > 0) this.#byTool.set(tool.name, read);
      else this.#byTool.delete(tool.name);
      kept?.push(tool);
    }
    return kept ?? tools;
  }

  /** The `Mcp-Param-*` headers of a call of tool `name` with `args`; undefined when it has none. */
  headersFor(name: string, args: unknown): Record<string, string> | undefined {
    const annotated = this.#byTool.get(name);
    if (annotated === undefined) return undefined;
    let headers: Record<string, string> | undefined;
    for (const { header, path } of annotated) {
      const value = valueAt(args, path);
      // Only primitive values are mirrored (the annotation is only valid on string, integer and boolean properties); null or absent: no header.
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
      (headers ??= {})[`${PARAM_HEADER_PREFIX}${header.toLowerCase()}`] = encodeHeaderValue(String(value));
    }
    return headers;
  }
}

/** The annotations of an input schema, or why the tool must be left out. */
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
