/**
 * JSON Schema validation shared by the role layers: a client checks `structuredContent`
 * against a tool's `outputSchema`, a server checks arguments against a raw JSON Schema
 * `inputSchema`. The dialect follows `$schema`, 2020-12 when absent (MCP 2025-11-25 basic/index
 * §JSON Schema Usage: MUST
 * support 2020-12); an unknown dialect or an uncompilable schema yields a check that always
 * fails with a clear reason instead of silently passing. Network `$ref`s are never fetched.
 */
import type { SchemaDraft, Validator } from '@cfworker/json-schema';
// On Node, Bun and Deno the engine is loaded at the first compile, not with this module.
import { loadValidator } from '#json-schema-engine';

const MAX_REPORTED_ERRORS = 5;

const DIALECTS: ReadonlyMap<string, SchemaDraft> = new Map([
  ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
  ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
  ['http://json-schema.org/draft-07/schema', '7'],
  ['http://json-schema.org/draft-04/schema', '4'],
]);

/** The JSON Schema drafts this SDK validates. */
export type JsonSchemaDialect = SchemaDraft;

/** The draft named by a `$schema` URI (with or without a trailing `#`), 2020-12 when absent. */
export function jsonSchemaDialect(schemaUri: unknown): JsonSchemaDialect | undefined {
  if (schemaUri === undefined) return '2020-12';
  if (typeof schemaUri !== 'string') return undefined;
  const normalized = schemaUri.replace(/#$/, '');
  return DIALECTS.get(normalized) ?? DIALECTS.get(normalized.replace(/^http:/, 'https:')) ?? DIALECTS.get(normalized.replace(/^https:/, 'http:'));
}

/** A compiled check: undefined when the value is valid, else a short description of what is wrong. */
export type JsonSchemaCheck = (value: unknown) => string | undefined;

/**
 * A JSON Schema engine, pluggable wherever the SDK validates against a JSON Schema (a
 * client's `jsonSchemaValidator` option for tool output, an `McpServer`'s for raw JSON
 * Schema arguments). `compile` is called once per schema; it must not throw — an unknown
 * dialect or a broken schema becomes a check that always fails with the reason — and must
 * not modify the schema it is given (registered schemas are frozen). The default is
 * {@link defaultJsonSchemaValidator}; `@statemcp/protocol/ajv` offers Ajv with formats.
 *
 * @example
 * ```ts
 * const validator: JsonSchemaValidator = { compile: (schema) => compileJsonSchema(schema) };
 * const check = validator.compile({ type: 'object', required: ['city'] });
 * check({ city: 'Paris' }); // undefined
 * ```
 */
export interface JsonSchemaValidator {
  /** Compiles `schema` once into a check; must not throw (an unusable schema yields a check that reports it). */
  compile(schema: Readonly<Record<string, unknown>>): JsonSchemaCheck;
}

/**
 * Compiles `schema` once into a reusable check.
 *
 * @example
 * ```ts
 * const check = compileJsonSchema({ type: 'object', required: ['city'] });
 * check({}); // "#: Instance does not have required property \"city\"." (or similar)
 * check({ city: 'Paris' }); // undefined
 * ```
 */
export function compileJsonSchema(schema: Readonly<Record<string, unknown>>): JsonSchemaCheck {
  const draft = jsonSchemaDialect(schema.$schema);
  if (draft === undefined) {
    const dialect = JSON.stringify(schema.$schema);
    return () => `unsupported JSON Schema dialect ${dialect}`;
  }
  let validator: Validator;
  try {
    // The validator annotates the schema it is given: hand it a private copy, so frozen or
    // shared schemas (a registered tool's, a listed tool's) stay untouched.
    validator = new (loadValidator())(structuredClone(schema), draft, false);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return () => `the schema could not be compiled: ${reason}`;
  }
  return (value) => {
    const outcome = validator.validate(value);
    if (outcome.valid) return undefined;
    return outcome.errors
      .slice(0, MAX_REPORTED_ERRORS)
      .map((unit) => `${unit.instanceLocation}: ${unit.error}`)
      .join('; ');
  };
}

/** The built-in engine (`@cfworker/json-schema`, drafts 4, 7, 2019-09 and 2020-12): {@link compileJsonSchema}. */
export const defaultJsonSchemaValidator: JsonSchemaValidator = Object.freeze({ compile: compileJsonSchema });
