/**
 * RFC 6570 level-1 URI templates: literal text and simple `{name}` expansions. Enough for
 * MCP resource templates such as `test://template/{id}/data`. Operators (`{+x}`, `{?x}`, …)
 * and modifiers are level 2+ and are refused at construction.
 *
 * Matching: every variable matches a non-empty run of characters other than `/`, `?` and
 * `#`, and is percent-decoded. Expansion percent-encodes everything but the unreserved set,
 * as level 1 requires.
 *
 * @example
 * ```ts
 * const template = new UriTemplate('test://template/{id}/data');
 * template.match('test://template/123/data'); // { id: '123' }
 * template.expand({ id: 'a b' });              // 'test://template/a%20b/data'
 * ```
 */
const EXPRESSION = /\{([^{}]*)\}/g;
const VARIABLE_NAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

export class UriTemplate {
  /** The template text. */
  readonly template: string;
  /** Variable names in order of appearance. */
  readonly variableNames: readonly string[];
  readonly #parts: readonly (string | { readonly name: string })[];
  readonly #pattern: RegExp;

  constructor(template: string) {
    const parts: (string | { name: string })[] = [];
    const names: string[] = [];
    let last = 0;
    for (const match of template.matchAll(EXPRESSION)) {
      const name = match[1] ?? '';
      if (!VARIABLE_NAME.test(name)) {
        throw new TypeError(`Unsupported URI template expression {${name}} in ${template}: only level-1 {name} expressions are supported`);
      }
      if (names.includes(name)) throw new TypeError(`Variable ${name} appears twice in ${template}`);
      parts.push(template.slice(last, match.index));
      parts.push({ name });
      names.push(name);
      last = match.index + match[0].length;
    }
    const tail = template.slice(last);
    if (tail.includes('{') || tail.includes('}') || parts.some((part) => typeof part === 'string' && (part.includes('{') || part.includes('}')))) {
      throw new TypeError(`Unbalanced braces in URI template ${template}`);
    }
    parts.push(tail);
    this.template = template;
    this.variableNames = Object.freeze(names);
    this.#parts = Object.freeze(parts.filter((part) => part !== ''));
    const source = this.#parts.map((part) => (typeof part === 'string' ? escapeRegExp(part) : '([^/?#]+)')).join('');
    this.#pattern = new RegExp(`^${source}$`);
  }

  /** True when the template has no variables (it is a plain URI). */
  get isLiteral(): boolean {
    return this.variableNames.length === 0;
  }

  /** The variables of `uri` when it matches, else `undefined`. */
  match(uri: string): Record<string, string> | undefined {
    const found = this.#pattern.exec(uri);
    if (found === null) return undefined;
    const variables: Record<string, string> = {};
    for (let i = 0; i < this.variableNames.length; i++) {
      const name = this.variableNames[i] ?? '';
      try {
        variables[name] = decodeURIComponent(found[i + 1] ?? '');
      } catch {
        return undefined; // malformed percent-encoding
      }
    }
    return variables;
  }

  /** The URI for `variables`; a missing variable expands to the empty string (RFC 6570 §3.2.1). */
  expand(variables: Readonly<Record<string, string>>): string {
    return this.#parts.map((part) => (typeof part === 'string' ? part : encodeUnreserved(variables[part.name] ?? ''))).join('');
  }

  toString(): string {
    return this.template;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Percent-encodes all but the RFC 3986 unreserved characters. */
function encodeUnreserved(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
