/**
 * JSON Schema → TypeScript types, for the schemas MCP servers publish (`inputSchema`,
 * `outputSchema`): JSON Schema 2020-12 first (the dialect when `$schema` is absent, MCP
 * 2025-11-25 "JSON Schema usage"), draft-07 forms too (`definitions`, array `items` tuples),
 * and OpenAPI's `nullable`. What it reads:
 *
 * - `$ref` to `#`, `#/$defs/…`, `#/definitions/…` (at any depth), `#anchor` (`$anchor`) and
 *   other local JSON Pointers (RFC 6901): every `$defs` entry becomes a named type, so nested
 *   and recursive references work; a reference outside the document is `unknown`;
 * - `type` (one or a list), `const`, `enum`, `anyOf` / `oneOf` (unions), `allOf`
 *   (intersections), `properties` / `required` / `additionalProperties` /
 *   `patternProperties`, `items` / `prefixItems`, `nullable`;
 * - `description`, `title`, `format`, `default`, `deprecated` as doc comments.
 *
 * Keywords that only constrain values (`minimum`, `pattern`, `if`/`then`/`else`, `not`, …) have
 * no TypeScript counterpart and are left out: the type is the widest one the schema allows.
 */

/** The declarations made so far and the names they took (shared by every schema of one module). */
export class TypeDeclarations {
  readonly #names = new Set<string>();
  readonly #code: string[] = [];

  /** A fresh type name based on `wanted` (PascalCase; a number appended when taken). */
  reserve(wanted: string): string {
    const base = pascalCase(wanted);
    let name = base;
    for (let n = 2; this.#names.has(name); n += 1) name = `${base}${n}`;
    this.#names.add(name);
    return name;
  }

  /** Adds `export type name = type;` with its doc comment. */
  declare(name: string, type: string, doc: string): void {
    this.#code.push(`${doc}export type ${name} = ${type};\n`);
  }

  /** Every declaration, in the order made. */
  get code(): string {
    return this.#code.join('\n');
  }
}

const RESERVED = new Set(['Array', 'Object', 'String', 'Number', 'Boolean', 'Date', 'Record', 'Promise', 'Partial', 'Required', 'Readonly', 'Pick', 'Omit']);

/** `get-weather` → `GetWeather`; a name that is not a valid identifier start gets a `T` in front. */
export function pascalCase(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  let name = words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('');
  if (name === '' || /^[0-9]/.test(name)) name = `T${name}`;
  return RESERVED.has(name) ? `${name}Type` : name;
}

type Schema = Record<string, unknown>;

function isSchemaObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A property key as written in a type: bare when it is an identifier, quoted otherwise. */
export function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

/** A doc comment from a schema's annotations, indented by `indent` (empty when there are none). */
export function docComment(schema: unknown, indent = ''): string {
  if (!isSchemaObject(schema)) return '';
  const lines: string[] = [];
  for (const key of ['title', 'description'] as const) {
    const text = schema[key];
    if (typeof text === 'string' && text.trim() !== '' && !lines.includes(text.trim())) lines.push(...text.trim().split('\n'));
  }
  if (typeof schema.format === 'string') lines.push(`@format ${schema.format}`);
  if (schema.default !== undefined) lines.push(`@default ${JSON.stringify(schema.default)}`);
  if (schema.deprecated === true) lines.push('@deprecated');
  if (lines.length === 0) return '';
  const safe = lines.map((line) => line.replaceAll('*/', '*\\/'));
  if (safe.length === 1) return `${indent}/** ${safe[0] ?? ''} */\n`;
  return `${indent}/**\n${safe.map((line) => `${indent} * ${line}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

/** Wraps a union or intersection in parentheses, so it can be an array element or an operand. */
function group(type: string): string {
  let depth = 0;
  for (let i = 0; i < type.length; i += 1) {
    const char = type[i];
    if (char === '(' || char === '{' || char === '[' || char === '<') depth += 1;
    else if (char === ')' || char === '}' || char === ']' || char === '>') depth -= 1;
    else if (depth === 0 && (char === '|' || char === '&') && type[i - 1] === ' ') return `(${type})`;
  }
  return type;
}

function union(types: readonly string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes('unknown')) return 'unknown';
  const kept = unique.filter((type) => type !== 'never');
  if (kept.length === 0) return 'never';
  return kept.length === 1 ? (kept[0] ?? 'never') : kept.map(group).join(' | ');
}

function intersection(types: readonly string[]): string {
  const kept = [...new Set(types)].filter((type) => type !== 'unknown');
  if (kept.includes('never')) return 'never';
  if (kept.length === 0) return 'unknown';
  return kept.length === 1 ? (kept[0] ?? 'unknown') : kept.map(group).join(' & ');
}

/** RFC 6901: `~1` is `/`, `~0` is `~`. */
function pointerTokens(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((token) => decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** One root schema (with its `$defs`) being converted. */
class RootConversion {
  readonly #root: unknown;
  readonly #declarations: TypeDeclarations;
  /** Reference (`#/$defs/a`, `#anchor`, `#`) → the name declared for it. */
  readonly #named = new Map<string, string>();
  /** Subschema → its declared name (so a `$defs` entry reached by anchor and by path is declared once). */
  readonly #bySchema = new Map<unknown, string>();
  readonly #prefix: string;

  constructor(root: unknown, rootName: string, prefix: string, declarations: TypeDeclarations) {
    this.#root = root;
    this.#declarations = declarations;
    this.#prefix = prefix;
    this.#named.set('#', rootName);
    this.#bySchema.set(root, rootName);
    this.#collect(root, '');
  }

  /** Names every `$defs` / `definitions` entry and every `$anchor`, at any depth. */
  #collect(schema: unknown, pointer: string): void {
    if (Array.isArray(schema)) {
      schema.forEach((item, index) => this.#collect(item, `${pointer}/${index}`));
      return;
    }
    if (!isSchemaObject(schema)) return;
    for (const keyword of ['$defs', 'definitions'] as const) {
      const defs = schema[keyword];
      if (!isSchemaObject(defs)) continue;
      for (const [key, def] of Object.entries(defs)) {
        const name = this.#bySchema.get(def) ?? this.#declarations.reserve(`${this.#prefix} ${key}`);
        this.#bySchema.set(def, name);
        this.#named.set(`#${pointer}/${keyword}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, name);
      }
    }
    if (typeof schema.$anchor === 'string') {
      const name = this.#bySchema.get(schema) ?? this.#declarations.reserve(`${this.#prefix} ${schema.$anchor}`);
      this.#bySchema.set(schema, name);
      this.#named.set(`#${schema.$anchor}`, name);
    }
    for (const [key, value] of Object.entries(schema)) {
      if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples') this.#collect(value, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    }
  }

  /** Declares the root and every named subschema; returns the root's name. */
  run(): string {
    const declared = new Set<string>();
    for (const [schema, name] of this.#bySchema) {
      if (declared.has(name)) continue;
      declared.add(name);
      this.#declarations.declare(name, this.#type(schema, '', new Set()), docComment(schema));
    }
    return this.#named.get('#') ?? 'unknown';
  }

  #resolve(ref: string): { name: string } | { schema: unknown } | undefined {
    const named = this.#named.get(ref) ?? this.#named.get(decodeURIComponent(ref));
    if (named !== undefined) return { name: named };
    if (!ref.startsWith('#/')) return undefined;
    let target: unknown = this.#root;
    for (const token of pointerTokens(ref.slice(1))) {
      if (Array.isArray(target)) target = target[Number(token)];
      else if (isSchemaObject(target)) target = target[token];
      else return undefined;
    }
    if (target === undefined) return undefined;
    const name = this.#bySchema.get(target);
    return name === undefined ? { schema: target } : { name };
  }

  /** The type of `schema`; `seen` guards inlined pointer references against cycles. */
  #type(schema: unknown, indent: string, seen: Set<unknown>): string {
    if (schema === true || schema === undefined) return 'unknown';
    if (schema === false) return 'never';
    if (!isSchemaObject(schema)) return 'unknown';
    const parts: string[] = [];
    if (typeof schema.$ref === 'string') parts.push(this.#reference(schema.$ref, indent, seen));
    parts.push(this.#ownType(schema, indent, seen));
    if (Array.isArray(schema.allOf)) parts.push(...schema.allOf.map((sub) => this.#subType(sub, indent, seen)));
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = schema[keyword];
      if (Array.isArray(branches)) parts.push(union(branches.map((sub) => this.#subType(sub, indent, seen))));
    }
    let type = intersection(parts);
    if (schema.nullable === true && type !== 'unknown') type = union([type, 'null']);
    return type;
  }

  /** A subschema's type: a declared name when it has one (a `$defs` entry used in place). */
  #subType(schema: unknown, indent: string, seen: Set<unknown>): string {
    return this.#bySchema.get(schema) ?? this.#type(schema, indent, seen);
  }

  #reference(ref: string, indent: string, seen: Set<unknown>): string {
    const resolved = this.#resolve(ref);
    if (resolved === undefined) return 'unknown';
    if ('name' in resolved) return resolved.name;
    if (seen.has(resolved.schema)) return 'unknown';
    return this.#type(resolved.schema, indent, new Set([...seen, resolved.schema]));
  }

  /** What `type`, `const`, `enum`, `properties` and `items` say (unknown when none is there). */
  #ownType(schema: Schema, indent: string, seen: Set<unknown>): string {
    if ('const' in schema) return literal(schema.const);
    if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
    const declared = schema.type;
    const types = Array.isArray(declared) ? declared.filter((t): t is string => typeof t === 'string') : typeof declared === 'string' ? [declared] : [];
    if (types.length === 0) {
      if (isSchemaObject(schema.properties) || schema.additionalProperties !== undefined || schema.required !== undefined) return this.#object(schema, indent, seen);
      if (schema.items !== undefined || schema.prefixItems !== undefined) return this.#array(schema, indent, seen);
      return 'unknown';
    }
    return union(types.map((type) => this.#typeNamed(type, schema, indent, seen)));
  }

  #typeNamed(type: string, schema: Schema, indent: string, seen: Set<unknown>): string {
    switch (type) {
      case 'string':
        return 'string';
      case 'number':
      case 'integer':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array':
        return this.#array(schema, indent, seen);
      case 'object':
        return this.#object(schema, indent, seen);
      default:
        return 'unknown';
    }
  }

  #array(schema: Schema, indent: string, seen: Set<unknown>): string {
    const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    if (tuple !== undefined) {
      const elements = tuple.map((item) => this.#subType(item, indent, seen));
      if (rest !== false) elements.push(`...${group(this.#subType(rest, indent, seen))}[]`);
      return `[${elements.join(', ')}]`;
    }
    return `${group(this.#subType(rest, indent, seen))}[]`;
  }

  #object(schema: Schema, indent: string, seen: Set<unknown>): string {
    const properties = isSchemaObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : []);
    const inner = `${indent}  `;
    const members = Object.entries(properties).map(([key, property]) => {
      const optional = required.has(key) ? '' : '?';
      return `${docComment(property, inner)}${inner}${propertyKey(key)}${optional}: ${this.#subType(property, inner, seen)};`;
    });
    // A required key with no property schema still exists on the value.
    for (const key of required) if (!(key in properties)) members.push(`${inner}${propertyKey(key)}: unknown;`);
    const additional = schema.additionalProperties;
    const patterns = isSchemaObject(schema.patternProperties) ? Object.values(schema.patternProperties) : [];
    let index: string | undefined;
    if (isSchemaObject(additional) || patterns.length > 0) {
      index = union([...(isSchemaObject(additional) ? [this.#subType(additional, inner, seen)] : additional === false ? [] : ['unknown']), ...patterns.map((p) => this.#subType(p, inner, seen))]);
    } else if (additional === true || (members.length === 0 && additional !== false)) {
      // Explicitly open, or nothing declared: any keys. (Absent `additionalProperties` beside
      // declared properties is left closed: the declared keys are what callers mean to send.)
      index = 'unknown';
    }
    if (members.length === 0) return index === undefined ? 'Record<string, never>' : `{ [key: string]: ${index} }`;
    const body = `{\n${members.join('\n')}\n${indent}}`;
    // Declared properties must fit an index signature, so extra keys go in a second member.
    return index === undefined ? body : `${body} & { [key: string]: ${index} }`;
  }
}

function literal(value: unknown): string {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  return 'unknown';
}

/**
 * Declares the TypeScript type of `schema` as `name` (and its `$defs` as `name` + their key)
 * in `declarations`; returns the name taken.
 *
 * @example
 * ```ts
 * const declarations = new TypeDeclarations();
 * schemaToTypeScript({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, 'ForecastArgs', declarations);
 * declarations.code; // 'export type ForecastArgs = {\n  city: string;\n};\n'
 * ```
 */
export function schemaToTypeScript(schema: unknown, name: string, declarations: TypeDeclarations): string {
  const rootName = declarations.reserve(name);
  return new RootConversion(schema, rootName, rootName, declarations).run();
}
