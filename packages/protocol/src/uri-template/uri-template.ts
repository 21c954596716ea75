/**
 * RFC 6570 URI templates, levels 1–4: simple `{var}`, reserved `{+var}`, fragment `{#var}`,
 * label `{.var}`, path segment `{/var}`, path parameter `{;var}`, query `{?var}` and query
 * continuation `{&var}` expressions, several variables per expression (`{x,y}`), the prefix
 * modifier `{var:3}` and the explode modifier `{list*}`.
 *
 * Expansion (`expand`) follows the RFC exactly, for strings, numbers, booleans, lists and
 * associative arrays (plain objects, in insertion order). Matching (`match`, a URI back to
 * its variables) is what resource templates need; its rules are in `uri-template-match.ts`
 * and the server README. A template that cannot be matched unambiguously still expands,
 * but `match` (and `registerResourceTemplate`) refuses it with a `TypeError` that says why.
 *
 * @example
 * ```ts
 * const template = new UriTemplate('files://{root}{/path*}{?rev,format}');
 * template.expand({ root: 'repo', path: ['src', 'index.ts'], rev: '42' }); // 'files://repo/src/index.ts?rev=42'
 * template.match('files://repo/src/index.ts?format=raw&rev=42');
 * // { root: 'repo', path: ['src', 'index.ts'], rev: '42', format: 'raw' }
 * ```
 */
import { compileMatcher, type UriTemplateMatch } from './uri-template-match.js';

/** The operator of an expression: `''` for a simple `{var}`. */
export type UriTemplateOperator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** One variable of an expression, with its modifier. */
export interface UriTemplateVarSpec {
  readonly name: string;
  readonly explode: boolean;
  /** The prefix length of `{var:n}`. */
  readonly prefix: number | undefined;
}

/** One `{…}` expression. */
export interface UriTemplateExpression {
  readonly operator: UriTemplateOperator;
  readonly variables: readonly UriTemplateVarSpec[];
}

/** A literal (as written) or an expression. */
export type UriTemplatePart = string | UriTemplateExpression;

/** A value `expand` accepts; `undefined`, `null`, `[]` and `{}` are undefined in the RFC's sense. */
export type UriTemplateValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number | boolean)[]
  | { readonly [key: string]: string | number | boolean };

/** How each operator expands (RFC 6570 appendix A). */
export interface OperatorRules {
  readonly first: string;
  readonly separator: string;
  readonly named: boolean;
  readonly ifEmpty: string;
  readonly allowReserved: boolean;
}

export const OPERATORS: Readonly<Record<UriTemplateOperator, OperatorRules>> = Object.freeze({
  '': { first: '', separator: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', separator: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', separator: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', separator: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', separator: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', allowReserved: false },
});

const EXPRESSION = /\{([^{}]*)\}/g;
const VARSPEC = /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*)(?::([1-9][0-9]{0,3})|(\*))?$/;
/** Characters RFC 6570 §2.1 forbids in literals (besides `{` and `}`): controls, space, `"'<>\^`|`, and `%` outside a pct-encoded triplet. */
const BAD_LITERAL = /[\p{Cc} "'<>\\^`|]|%(?![0-9A-Fa-f]{2})/u;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;
const PCT_TRIPLET = /^%[0-9A-Fa-f]{2}/;

/** A parsed RFC 6570 template: expands variables into a URI and matches a URI back to variables. */
export class UriTemplate {
  /** The template text. */
  readonly template: string;
  readonly #parts: readonly UriTemplatePart[];
  /** Variable names in order of first appearance. */
  readonly variableNames: readonly string[];
  #matcher: ((uri: string) => UriTemplateMatch | undefined) | undefined;

  /** Parses `template`; a syntax error (unbalanced brace, bad operator, bad variable, bad literal) is a `TypeError`. */
  constructor(template: string) {
    this.template = template;
    this.#parts = Object.freeze(parse(template));
    const names: string[] = [];
    for (const part of this.#parts) {
      if (typeof part === 'string') continue;
      for (const { name } of part.variables) if (!names.includes(name)) names.push(name);
    }
    this.variableNames = Object.freeze(names);
  }

  /** A template that must also match: throws the `TypeError` saying why when it cannot be matched unambiguously. */
  static forMatching(template: string): UriTemplate {
    const parsed = new UriTemplate(template);
    parsed.#compile();
    return parsed;
  }

  /** True when the template has no variables (it is a plain URI). */
  get isLiteral(): boolean {
    return this.variableNames.length === 0;
  }

  /**
   * The variables of `uri` when it matches, else `undefined`: strings, and lists for
   * exploded variables (`[]` when absent). Throws a `TypeError` when the template cannot be
   * matched unambiguously.
   */
  match(uri: string): UriTemplateMatch | undefined {
    return this.#compile()(uri);
  }

  /** The URI for `variables` (RFC 6570 §3); an undefined variable expands to nothing. */
  expand(variables: Readonly<Record<string, UriTemplateValue>>): string {
    return this.#parts.map((part) => (typeof part === 'string' ? encodeLiteral(part) : expandExpression(part, variables))).join('');
  }

  /** The template text. */
  toString(): string {
    return this.template;
  }

  #compile(): (uri: string) => UriTemplateMatch | undefined {
    this.#matcher ??= compileMatcher(this.template, this.#parts);
    return this.#matcher;
  }
}

function parse(template: string): UriTemplatePart[] {
  const parts: UriTemplatePart[] = [];
  let last = 0;
  const literal = (text: string) => {
    if (text.includes('{') || text.includes('}')) throw new TypeError(`Unbalanced braces in URI template ${template}`);
    const bad = BAD_LITERAL.exec(text);
    if (bad !== null) throw new TypeError(`Character ${JSON.stringify(bad[0])} is not allowed in URI template ${template} (RFC 6570 §2.1)`);
    if (text !== '') parts.push(text);
  };
  for (const match of template.matchAll(EXPRESSION)) {
    literal(template.slice(last, match.index));
    parts.push(parseExpression(match[1] ?? '', template));
    last = match.index + match[0].length;
  }
  literal(template.slice(last));
  return parts;
}

function parseExpression(body: string, template: string): UriTemplateExpression {
  const head = body.charAt(0);
  if ('=,!@|'.includes(head) && head !== '') throw new TypeError(`Operator ${head} in {${body}} is reserved by RFC 6570 (${template})`);
  const operator = (head in OPERATORS && head !== '' ? head : '') as UriTemplateOperator;
  const list = body.slice(operator.length);
  const variables = list.split(',').map((spec) => {
    const found = VARSPEC.exec(spec);
    if (found === null) throw new TypeError(`Invalid variable ${JSON.stringify(spec)} in {${body}} of URI template ${template}`);
    return { name: found[1] ?? '', explode: found[3] !== undefined, prefix: found[2] === undefined ? undefined : Number(found[2]) };
  });
  return { operator, variables };
}

function expandExpression(expression: UriTemplateExpression, variables: Readonly<Record<string, UriTemplateValue>>): string {
  const rules = OPERATORS[expression.operator];
  const pieces: string[] = [];
  for (const spec of expression.variables) {
    const piece = expandVariable(spec, variables[spec.name], rules);
    if (piece !== undefined) pieces.push(piece);
  }
  return pieces.length === 0 ? '' : rules.first + pieces.join(rules.separator);
}

/** One variable's expansion, or `undefined` when the value is undefined (RFC 6570 appendix A). */
function expandVariable(spec: UriTemplateVarSpec, value: UriTemplateValue, rules: OperatorRules): string | undefined {
  if (value === undefined || value === null) return undefined;
  const encode = (text: string | number | boolean) => encodeValue(String(text), rules.allowReserved);
  const named = (name: string, encoded: string) => (encoded === '' ? name + rules.ifEmpty : `${name}=${encoded}`);
  if (typeof value !== 'object') {
    const text = spec.prefix === undefined ? String(value) : prefixOf(String(value), spec.prefix, rules.allowReserved);
    return rules.named ? named(spec.name, encode(text)) : encode(text);
  }
  const pairs: [string, string][] = isList(value) ? value.map((item) => ['', encode(item)]) : Object.entries(value).map(([key, item]) => [encode(key), encode(item)]);
  if (pairs.length === 0) return undefined;
  const list = isList(value);
  if (!spec.explode) {
    const joined = pairs.map(([key, item]) => (list ? item : `${key},${item}`)).join(',');
    return rules.named ? named(spec.name, joined) : joined;
  }
  if (list) return pairs.map(([, item]) => (rules.named ? named(spec.name, item) : item)).join(rules.separator);
  return pairs.map(([key, item]) => (rules.named ? named(key, item) : `${key}=${item}`)).join(rules.separator);
}

function isList(value: object): value is readonly (string | number | boolean)[] {
  return Array.isArray(value);
}

/** The first `length` characters (code points; a pct-encoded triplet counts as one in reserved expansion). */
function prefixOf(text: string, length: number, allowReserved: boolean): string {
  let end = 0;
  for (let count = 0; count < length && end < text.length; count++) {
    if (allowReserved && PCT_TRIPLET.test(text.slice(end))) end += 3;
    else end += String.fromCodePoint(text.codePointAt(end) ?? 0).length;
  }
  return text.slice(0, end);
}

/** Pct-encodes all but the unreserved set, or (reserved expansion) all but unreserved, reserved and pct-encoded triplets. */
export function encodeValue(text: string, allowReserved: boolean): string {
  if (!allowReserved) return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  let out = '';
  for (let i = 0; i < text.length; ) {
    const triplet = PCT_TRIPLET.exec(text.slice(i, i + 3));
    if (triplet !== null) {
      out += triplet[0];
      i += 3;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i) ?? 0);
    out += UNRESERVED.test(char) || RESERVED.test(char) ? char : encodeURIComponent(char);
    i += char.length;
  }
  return out;
}

/** Literal text as it appears in a URI: characters outside the URI syntax (non-ASCII) pct-encoded (RFC 6570 §3.1). */
export function encodeLiteral(text: string): string {
  return encodeValue(text, true);
}
