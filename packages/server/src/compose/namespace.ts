/**
 * How a composed server names what it mounts, so that items of different upstreams never
 * collide:
 *
 * - tools and prompts: `<prefix><separator><name>` (separator `_` by default). MCP 2025-11-25,
 *   server/tools §Tool names allows 1–128 characters from `A-Z a-z 0-9 _ - .`; a prefixed name
 *   longer than that cannot be served and is skipped.
 * - resources and resource templates: `<prefix>+<uri>`. RFC 3986 §3.1 allows `+` in a scheme,
 *   so `test://static/1` mounted under `everything` becomes `everything+test://static/1`, still
 *   a URI (and a template stays an RFC 6570 template); stripping `<prefix>+` gives the
 *   upstream URI back. Template names are prefixed like tool names.
 *
 * Prefixes start with a letter and hold letters, digits, `-` and `.` — the characters both a
 * tool name and a URI scheme accept. The empty prefix mounts an upstream as it is (names and
 * URIs unchanged: a transparent proxy); a clash with another item is then reported and skipped.
 */

/** MCP 2025-11-25, server/tools §Tool names. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const PREFIX = /^[A-Za-z][A-Za-z0-9.-]{0,63}$/;

/** What joins a prefix and an upstream name: any character a tool name allows. */
export type NameSeparator = '_' | '.' | '-';

/** The naming rules of one mount. */
export class Namespace {
  readonly prefix: string;
  readonly separator: NameSeparator;

  constructor(prefix: string, separator: NameSeparator = '_') {
    if (prefix !== '' && !PREFIX.test(prefix)) {
      throw new TypeError(`Invalid mount prefix ${JSON.stringify(prefix)}: start with a letter, then letters, digits, "-" or "." (at most 64)`);
    }
    this.prefix = prefix;
    this.separator = separator;
  }

  /** The downstream name of an upstream tool or prompt; undefined when it would break the tool-name rules. */
  name(upstream: string): string | undefined {
    const name = this.prefix === '' ? upstream : `${this.prefix}${this.separator}${upstream}`;
    return TOOL_NAME.test(name) ? name : undefined;
  }

  /** The downstream URI (or URI template) of an upstream one. */
  uri(upstream: string): string {
    return this.prefix === '' ? upstream : `${this.prefix}+${upstream}`;
  }

  /** The upstream URI of a downstream one; undefined when it is not under this prefix. */
  upstreamUri(downstream: string): string | undefined {
    const head = this.prefix === '' ? '' : `${this.prefix}+`;
    return downstream.startsWith(head) ? downstream.slice(head.length) : undefined;
  }

  /** Rewrites the URIs a result carries (read contents, embedded resources, resource links) to downstream ones. */
  rewriteUris<T>(value: T): T {
    return this.prefix === '' ? value : (rewrite(value, this) as T);
  }
}

/** The variable names of an RFC 6570 template (`{a,b*}`, `{+path:10}`, …). */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const [, body] of template.matchAll(/\{[+#./;?&]?([^}]*)\}/g)) {
    for (const spec of (body ?? '').split(',')) {
      const name = spec.replace(/\*$/, '').replace(/:\d+$/, '');
      if (name.length > 0) names.push(name);
    }
  }
  return names;
}

/**
 * Copies `value` with every `uri` of a resource-bearing object prefixed: the `contents` of a
 * read, `resource` blocks and `resource_link` blocks in tool results and prompt messages.
 */
function rewrite(value: unknown, space: Namespace): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, space));
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(source)) {
    if (key === 'structuredContent' || key === '_meta') copy[key] = item; // application data: left as the upstream wrote it
    else if (key === 'uri' && typeof item === 'string' && carriesResourceUri(source)) copy[key] = space.uri(item);
    else copy[key] = rewrite(item, space);
  }
  return copy;
}

/** A resource contents object (`text` or `blob`) or a `resource_link` block. */
function carriesResourceUri(object: Record<string, unknown>): boolean {
  return object.type === 'resource_link' || typeof object.text === 'string' || typeof object.blob === 'string';
}
