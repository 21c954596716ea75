/**
 * A stable text of what a registration lists (its config, schemas, metadata), to tell a changed
 * registration from an unchanged one across two versions of a module whose objects are all new.
 *
 * Plain data is written with sorted keys; a Standard Schema with a JSON Schema converter (zod 4,
 * …) as its input and output JSON Schemas (descriptions included); a function as its source
 * text; anything seen twice on the current path as a cycle marker.
 */

interface StandardJsonSchemaLike {
  readonly '~standard': {
    readonly jsonSchema?: {
      readonly input?: (options: { target: string }) => unknown;
      readonly output?: (options: { target: string }) => unknown;
    };
  };
}

const isStandardSchema = (value: object): value is StandardJsonSchemaLike =>
  '~standard' in value && typeof (value as { '~standard': { validate?: unknown } })['~standard'].validate === 'function';

/** The JSON Schemas of a Standard Schema, or `undefined` when it has no converter (or it throws). */
function standardJsonSchema(schema: StandardJsonSchemaLike): unknown {
  const converter = schema['~standard'].jsonSchema;
  if (converter?.input === undefined) return undefined;
  try {
    const target = 'draft-2020-12';
    // Through JSON: the converter's objects may carry non-enumerable back references.
    return JSON.parse(JSON.stringify({ input: converter.input({ target }), output: converter.output?.({ target }) })) as unknown;
  } catch {
    return undefined;
  }
}

/** Nesting beyond this is not followed (config objects are shallow; library internals are not). */
const MAX_DEPTH = 32;

function normalize(value: unknown, path: Set<object>): unknown {
  if (typeof value === 'function') return `function ${String(value)}`;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol' || value === undefined) return String(value);
  if (typeof value !== 'object' || value === null) return value;
  if (path.has(value)) return '[cycle]';
  if (path.size >= MAX_DEPTH) return '[deep]';
  path.add(value);
  try {
    if (isStandardSchema(value)) {
      const json = standardJsonSchema(value);
      if (json !== undefined) return { standardSchema: json };
    }
    if (Array.isArray(value)) return value.map((item) => normalize(item, path));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = normalize((value as Record<string, unknown>)[key], path);
    return out;
  } finally {
    path.delete(value);
  }
}

/** The fingerprint of `value`: equal for equal listings, different when anything listed changed. */
export function fingerprint(value: unknown): string {
  return JSON.stringify(normalize(value, new Set()));
}
