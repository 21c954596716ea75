/**
 * Matching a URI against an RFC 6570 template (the inverse of expansion), as resource
 * templates need it. A template is read as three sections:
 *
 * - **path**: literals and `{x}`, `{+x}`, `{.x}`, `{/x}`, `{;x}` expressions, matched left to
 *   right. `{x}` matches a non-empty value without `/`, `?`, `#`; `{+x}` a non-empty value
 *   without `?`, `#` (so `{+path}` spans segments); `{.x}` one label without `.` or `/`;
 *   `{/x}` one segment; `{;x}` a `;x=value` parameter (any order). In an expression with
 *   several variables, values are separated by the operator's separator and filled left to
 *   right (missing trailing ones are absent); an exploded variable takes the rest as a list.
 *   Every expression but `{x}` and `{+x}` may be absent.
 * - **query**: from the first `?` (literal or `{?…}`): only `{?…}` / `{&…}` expressions and
 *   literal fixed parameters (`?fixed=yes{&x}`). Parameters match by name in any order;
 *   unknown parameters are ignored; a fixed parameter must be present with its value. An
 *   exploded `{?x*}` collects every `x=` parameter as a list.
 * - **fragment**: a final `{#x}` (anything after `#`), or literal text after a literal `#`.
 *
 * Where a literal separates two variables that could both hold it, the earlier one takes as
 * much as it can (`{name}.{ext}` on `a.b.c`: `a.b` and `c`). Values are pct-decoded; `+` is
 * not a space. A prefix variable `{x:3}` matches at most 3
 * characters. Exploded associative arrays expand but match only as lists by name.
 *
 * Refused, with a `TypeError` that says why: a variable used twice; two expressions with no
 * literal between them where the second is `{x}` / `{+x}`, has the same operator, or starts
 * with a character the first's values may contain (`{name}{.ext}`: a name may hold dots);
 * an exploded variable before others in an unnamed expression; in the query, anything but
 * `{?…}`, `{&…}` and fixed parameters; an expression after `{#…}` or after a literal `#`.
 */
import { OPERATORS, encodeLiteral, type UriTemplateExpression, type UriTemplateOperator, type UriTemplatePart, type UriTemplateVarSpec } from './uri-template.js';

/** The variables matched from a URI: a string per variable, a list per exploded variable. */
export type UriTemplateMatch = { [name: string]: string | string[] };

type Matcher = (uri: string) => UriTemplateMatch | undefined;

/** What an item of a path-section expression may contain (as a regex character class body). */
const ITEM_CLASS: Readonly<Record<UriTemplateOperator, string>> = Object.freeze({
  '': '^/?#',
  '+': '^?#',
  '#': '^',
  '.': '^./?#',
  '/': '^/?#',
  ';': '^;/?#',
  '?': '^&#',
  '&': '^&#',
});

interface Sections {
  readonly path: UriTemplatePart[];
  readonly fixed: [string, string][];
  readonly query: UriTemplateVarSpec[];
  hasQuery: boolean;
  fragment: UriTemplateExpression | string | undefined;
  fragmentTail: string;
}

/** Builds the matcher of a parsed template, or throws a `TypeError` saying why it cannot be matched unambiguously. */
export function compileMatcher(template: string, parts: readonly UriTemplatePart[]): Matcher {
  const refuse = (why: string): never => {
    throw new TypeError(`URI template ${template} cannot be matched unambiguously: ${why}`);
  };
  checkVariables(parts, refuse);
  const sections = splitSections(parts, refuse);
  // Each capturing group, in order: an expression's whole expansion, or the query string.
  const groups: (UriTemplateExpression | 'query')[] = [];
  let source = '';
  let previous: UriTemplatePart | undefined;
  for (const part of sections.path) {
    if (typeof part === 'string') source += literalPattern(part);
    else {
      if (previous !== undefined && typeof previous !== 'string') checkAdjacent(previous, part, refuse);
      source += expressionPattern(part);
      groups.push(part);
    }
    previous = part;
  }
  if (sections.hasQuery) {
    source += '(?:\\?([^#]*))?';
    groups.push('query');
  }
  if (typeof sections.fragment === 'string') source += literalPattern(sections.fragment);
  else if (sections.fragment !== undefined) {
    source += expressionPattern(sections.fragment);
    groups.push(sections.fragment);
  }
  source += literalPattern(sections.fragmentTail);
  const pattern = new RegExp(`^${source}$`);

  return (uri) => {
    const found = pattern.exec(uri);
    if (found === null) return undefined;
    // No prototype: a variable named `constructor` or `__proto__` is a variable like any other.
    const variables = Object.create(null) as UriTemplateMatch;
    for (const [index, group] of groups.entries()) {
      const text = found[index + 1];
      const ok = group === 'query' ? matchQuery(sections, text ?? '', variables) : decodeExpression(group, text, variables);
      if (!ok) return undefined;
    }
    return variables;
  };
}

function checkVariables(parts: readonly UriTemplatePart[], refuse: (why: string) => never): void {
  const seen = new Set<string>();
  for (const part of parts) {
    if (typeof part === 'string') continue;
    part.variables.forEach((spec, index) => {
      if (seen.has(spec.name)) refuse(`variable ${spec.name} appears twice`);
      seen.add(spec.name);
      if (spec.explode && !OPERATORS[part.operator].named && index < part.variables.length - 1) {
        refuse(`the exploded ${spec.name}* must be the last variable of its expression`);
      }
    });
  }
}

function splitSections(parts: readonly UriTemplatePart[], refuse: (why: string) => never): Sections {
  const sections: Sections = { path: [], fixed: [], query: [], hasQuery: false, fragment: undefined, fragmentTail: '' };
  let where: 'path' | 'query' | 'fragment' = 'path';
  const addQueryLiteral = (text: string) => {
    for (const item of text.split(/[?&]/)) {
      if (item === '') continue;
      const eq = item.indexOf('=');
      sections.fixed.push(eq < 0 ? [decode(item) ?? item, ''] : [decode(item.slice(0, eq)) ?? item, decode(item.slice(eq + 1)) ?? item]);
    }
  };
  for (const part of parts) {
    if (where === 'fragment') {
      if (typeof part !== 'string') refuse(`only literal text may follow the fragment (${describe(part)})`);
      else sections.fragmentTail += part;
      continue;
    }
    if (typeof part === 'string') {
      const hash = part.indexOf('#');
      const beforeHash = hash < 0 ? part : part.slice(0, hash);
      const question = where === 'path' ? beforeHash.indexOf('?') : -1;
      if (question >= 0) {
        if (question > 0) sections.path.push(beforeHash.slice(0, question));
        sections.hasQuery = true;
        where = 'query';
        addQueryLiteral(beforeHash.slice(question));
      } else if (where === 'query') addQueryLiteral(beforeHash);
      else if (beforeHash !== '') sections.path.push(beforeHash);
      if (hash >= 0) {
        sections.fragment = part.slice(hash);
        where = 'fragment';
      }
      continue;
    }
    if (part.operator === '#') {
      sections.fragment = part;
      where = 'fragment';
    } else if (part.operator === '?' || part.operator === '&') {
      sections.hasQuery = true;
      where = 'query';
      sections.query.push(...part.variables);
    } else if (where === 'query') {
      refuse(`only {?…} and {&…} expressions can match in the query (${describe(part)})`);
    } else sections.path.push(part);
  }
  const fixedNames = new Set(sections.fixed.map(([name]) => name));
  for (const spec of sections.query) if (fixedNames.has(spec.name)) refuse(`query variable ${spec.name} is also a fixed parameter`);
  return sections;
}

/** Refuses two path expressions with no literal between them when the boundary between them is not certain. */
function checkAdjacent(first: UriTemplateExpression, second: UriTemplateExpression, refuse: (why: string) => never): void {
  const lead = OPERATORS[second.operator].first;
  const pair = `${describe(first)}${describe(second)}`;
  if (lead === '') refuse(`${pair}: nothing tells where ${describe(first)} ends; put a literal between them`);
  if (first.operator === second.operator) refuse(`${pair}: either may be absent; write one expression with both variables`);
  if (new RegExp(`[${ITEM_CLASS[first.operator]}]`).test(lead)) refuse(`${pair}: a value of ${describe(first)} may contain "${lead}"; put a literal between them`);
}

function describe(expression: UriTemplateExpression): string {
  const specs = expression.variables.map((spec) => `${spec.name}${spec.explode ? '*' : spec.prefix === undefined ? '' : `:${spec.prefix}`}`);
  return `{${expression.operator}${specs.join(',')}}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A literal matches as written, or with its non-ASCII characters pct-encoded. */
function literalPattern(text: string): string {
  let source = '';
  for (const char of text) {
    const encoded = encodeLiteral(char);
    source += encoded === char ? escapeRegExp(char) : `(?:${escapeRegExp(char)}|${escapeRegExp(encoded)})`;
  }
  return source;
}

/** One capturing group holding the whole expanded expression (its leading character included). */
function expressionPattern(expression: UriTemplateExpression): string {
  const rules = OPERATORS[expression.operator];
  const count = expression.variables.length;
  const exploded = expression.variables.some((spec) => spec.explode);
  const single = count === 1 && !exploded && !rules.named;
  const item = `[${ITEM_CLASS[expression.operator]}${single || rules.separator !== ',' ? '' : ','}]*`;
  const wholeItem = `[${ITEM_CLASS[expression.operator]}]`;
  const more = exploded ? '*' : `{0,${count - 1}}`;
  const first = escapeRegExp(rules.first);
  const separator = escapeRegExp(rules.separator);
  if (rules.first === '') return single ? `(${wholeItem}+)` : `((?=${wholeItem})${item}(?:${separator}${item})${more})`;
  if (rules.first === rules.separator) return `((?:${first}${item})${exploded ? '*' : `{0,${count}}`})`;
  return `(${first}${single ? `${wholeItem}*` : `${item}(?:${separator}${item})${more}`})?`;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined; // malformed pct-encoding
  }
}

function fitsPrefix(spec: UriTemplateVarSpec, value: string): boolean {
  return spec.prefix === undefined || [...value].length <= spec.prefix;
}

/** Fills `out` from one captured expression; false when a value is malformed or does not fit. */
function decodeExpression(expression: UriTemplateExpression, text: string | undefined, out: UriTemplateMatch): boolean {
  const rules = OPERATORS[expression.operator];
  const body = text === undefined || text === '' ? undefined : text.slice(rules.first.length);
  if (rules.named) return assignNamed(expression.variables, body === undefined ? [] : body.split(rules.separator).map(splitPair), out, false);
  const single = expression.variables.length === 1 && !expression.variables[0]?.explode;
  const items = body === undefined ? [] : single ? [body] : body.split(rules.separator);
  for (const [index, spec] of expression.variables.entries()) {
    if (spec.explode) {
      const values = items.slice(index).map(decode);
      if (values.some((value) => value === undefined)) return false;
      out[spec.name] = values as string[];
      return true;
    }
    const raw = items[index];
    if (raw === undefined) continue;
    const value = decode(raw);
    if (value === undefined || !fitsPrefix(spec, value)) return false;
    out[spec.name] = value;
  }
  return items.length <= expression.variables.length;
}

function splitPair(item: string): [string, string] {
  const eq = item.indexOf('=');
  return eq < 0 ? [item, ''] : [item.slice(0, eq), item.slice(eq + 1)];
}

/** Assigns `name=value` pairs to named variables; unknown names fail unless `ignoreUnknown`. */
function assignNamed(specs: readonly UriTemplateVarSpec[], pairs: readonly [string, string][], out: UriTemplateMatch, ignoreUnknown: boolean): boolean {
  for (const spec of specs) if (spec.explode) out[spec.name] = [];
  for (const [rawName, rawValue] of pairs) {
    const name = decode(rawName);
    const value = decode(rawValue);
    if (name === undefined || value === undefined) return false;
    const spec = specs.find((candidate) => candidate.name === name);
    if (spec === undefined) {
      if (ignoreUnknown) continue;
      return false;
    }
    const current = out[name];
    if (spec.explode) (current as string[]).push(value);
    else if (current !== undefined || !fitsPrefix(spec, value)) return false;
    else out[name] = value;
  }
  return true;
}

function matchQuery(sections: Sections, query: string, out: UriTemplateMatch): boolean {
  const pairs = query === '' ? [] : query.split('&').filter((item) => item !== '').map(splitPair);
  const decoded = pairs.map(([name, value]) => [decode(name), decode(value)] as const);
  for (const [name, value] of sections.fixed) {
    if (!decoded.some(([n, v]) => n === name && v === value)) return false;
  }
  const fixedNames = new Set(sections.fixed.map(([name]) => name));
  return assignNamed(
    sections.query,
    pairs.filter((_, index) => !fixedNames.has(decoded[index]?.[0] ?? '')),
    out,
    true,
  );
}

type Operator = '+' | '#' | '.' | '/' | ';' | '?' | '&';
type ExpressionsOf<T extends string> = T extends `${string}{${infer E}}${infer Rest}` ? E | ExpressionsOf<Rest> : never;
type BodyOf<E extends string> = E extends `${Operator}${infer Body}` ? Body : E;
type SpecsOf<L extends string> = L extends `${infer A},${infer B}` ? A | SpecsOf<B> : L;
type NameOf<S extends string> = S extends `${infer N}*` ? N : S extends `${infer N}:${string}` ? N : S;
/** Single-variable `{x}` / `{+x}` expressions: the ones a match always fills. */
type AlwaysMatched<E extends string> = E extends `+${infer Body}` ? (Body extends `${string},${string}` ? never : Body) : E extends `${Operator}${string}` ? never : E extends `${string},${string}` ? never : E;
type Specs<T extends string> = SpecsOf<BodyOf<ExpressionsOf<T>>>;
type Exploded<T extends string> = NameOf<Extract<Specs<T>, `${string}*`>>;
type Required<T extends string> = Exclude<NameOf<Exclude<AlwaysMatched<ExpressionsOf<T>>, `${string}*`>>, Exploded<T>>;
type Simplify<T> = { [K in keyof T]: T[K] };

/**
 * The variables `match` yields for the template text `T`, worked out by the type checker:
 * a `string[]` per exploded variable (empty when absent), a `string` per single-variable
 * `{x}` / `{+x}` expression, and an optional `string` for the rest. For a template that is
 * not a literal type, any name.
 *
 * @example
 * ```ts
 * type Vars = UriTemplateVariables<'files://{root}{/path*}{?rev}'>;
 * // { root: string; path: string[]; rev?: string }
 * ```
 */
export type UriTemplateVariables<T extends string> = string extends T
  ? UriTemplateMatch
  : Simplify<{ [K in Exploded<T>]: string[] } & { [K in Required<T>]: string } & { [K in Exclude<NameOf<Specs<T>>, Exploded<T> | Required<T>>]?: string }>;
