/**
 * Argument and output schemas of tools and prompts. Three forms are accepted:
 *
 * - a Standard Schema object (zod 4, or any library implementing `~standard`): validates
 *   values; its JSON Schema comes from zod's `z.toJSONSchema` (or the library's own
 *   Standard JSON Schema converter);
 * - a raw zod shape (`{ city: z.string() }`), wrapped in `z.object`;
 * - a plain JSON Schema object with `type: "object"`, kept verbatim (including `$schema`,
 *   `$defs`, `$anchor`, …) and compiled once with the server's `jsonSchemaValidator` (the
 *   protocol package's engine by default; dialect from `$schema`, 2020-12 when absent),
 *   which then checks values.
 *
 * The JSON Schema is computed once and frozen, so `tools/list` is byte-stable and never
 * recomputes it. A zod object's (and a raw shape's) is computed when first read
 * — the first `tools/list` or call — not at registration: zod's conversion is the costliest
 * part of a registration and a stdio server's start-up would pay it otherwise. Its
 * `type` is "object" by construction, so only what zod cannot convert is left to surface
 * then; every other schema is converted and checked at registration.
 */
import { defaultJsonSchemaValidator, type CustomSchema, type CustomSchemaResult, type JsonSchemaValidator } from '@statemcp/protocol';
import { PASS, verdictOf } from '@statemcp/protocol/internal';
import * as z from 'zod';
import type { JsonSchemaObject } from './wire-types.js';
import { thenMaybe, type MaybePromise } from './sync-or-async.js';

/** The result of a Standard Schema validation (the same structural type protocol uses for custom methods). */
export type StandardResult<Output> = CustomSchemaResult<Output>;

/**
 * Any Standard Schema (https://standardschema.dev): zod 4 schemas are ones. Kept
 * structural so that any zod 4.x minor (or another library) type-checks;
 * one definition, shared with custom methods (`CustomSchema` in `@statemcp/protocol`).
 */
export type StandardSchemaLike<Output = unknown> = CustomSchema<Output>;

/**
 * A zod 4 schema, structurally: a Standard Schema with zod 4's `_zod` internals. zod 3
 * schemas lack `_zod`, so a raw shape of them does not type-check.
 */
export type Zod4SchemaLike = StandardSchemaLike & { readonly _zod: object };

/** A raw shape: property name → zod 4 schema (wrapped in `z.object`). */
export type RawShape = { readonly [key: string]: Zod4SchemaLike };

/** What `inputSchema` / `outputSchema` / `argsSchema` accept. */
export type ObjectSchemaInput = StandardSchemaLike | RawShape | JsonSchemaObject;

type OutputOf<S> = S extends { readonly '~standard': { readonly types?: infer T } } ? (NonNullable<T> extends { readonly output: infer O } ? O : unknown) : unknown;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type ShapeOutput<S extends RawShape> = Simplify<
  { [K in keyof S as undefined extends OutputOf<S[K]> ? never : K]: OutputOf<S[K]> } & {
    [K in keyof S as undefined extends OutputOf<S[K]> ? K : never]?: OutputOf<S[K]>;
  }
>;

type InputOf<S> = S extends { readonly '~standard': { readonly types?: infer T } } ? (NonNullable<T> extends { readonly input: infer I } ? I : unknown) : unknown;
type ShapeInput<S extends RawShape> = Simplify<
  { [K in keyof S as undefined extends InputOf<S[K]> ? never : K]: InputOf<S[K]> } & {
    [K in keyof S as undefined extends InputOf<S[K]> ? K : never]?: InputOf<S[K]>;
  }
>;

/**
 * What a caller may send for a schema input (before defaults and transforms): the arguments a
 * typed client takes. Equal to {@link InferObject} unless the schema has defaults or transforms.
 */
export type InferObjectInput<S> = S extends StandardSchemaLike
  ? InputOf<S>
  : S extends { readonly type: 'object' }
    ? { [key: string]: unknown }
    : S extends RawShape
      ? ShapeInput<S>
      : { [key: string]: unknown };

/** The validated value type of a schema input: inferred for schemas and shapes, a plain record for JSON Schema. */
export type InferObject<S> = S extends StandardSchemaLike
  ? OutputOf<S>
  : S extends { readonly type: 'object' }
    ? { [key: string]: unknown }
    : S extends RawShape
      ? ShapeOutput<S>
      : { [key: string]: unknown };

export type Validation = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** A schema compiled once at registration. */
export interface CompiledSchema {
  /** The JSON Schema advertised on the wire (frozen; a zod object's computed at the first read). */
  readonly jsonSchema: JsonSchemaObject;
  /** How the schema was given. */
  readonly kind: 'standard' | 'json';
  /** The Standard Schema used for validation, when there is one. */
  readonly standard: StandardSchemaLike | undefined;
  validate(value: unknown): Promise<Validation>;
  /**
   * {@link CompiledSchema.validate} without the promise when the schema checks synchronously
   * (zod's do unless they hold async refinements): the per-call path of tools.
   */
  check(value: unknown): MaybePromise<Validation>;
}

/** True when `value` implements Standard Schema. */
export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  return typeof value === 'object' && value !== null && '~standard' in value && typeof (value as StandardSchemaLike)['~standard'] === 'object';
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** A `z.object(…)`: its JSON Schema has `type: "object"` whatever it holds. */
function isZodObject(value: StandardSchemaLike): boolean {
  return isZodSchema(value) && value._zod.def.type === 'object';
}

/** zod 3 schemas carry `_def` but not zod 4's `_zod`. */
function isZod3Schema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_def' in value && !('_zod' in value);
}

function zod3Refusal(what: string): TypeError {
  return new TypeError(`${what}: zod 4 is required (import from \`zod\` ≥ 4, or from \`zod/v4\` in zod 3.25); this schema comes from zod 3`);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Turns a schema input into a Standard Schema (shapes become `z.object`) or `undefined` for JSON Schema. */
export function toStandardSchema(input: ObjectSchemaInput, what: string): StandardSchemaLike | undefined {
  if (isZod3Schema(input)) throw zod3Refusal(what);
  if (isStandardSchema(input)) return input;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new TypeError(`${what}: expected a schema, a raw shape or a JSON Schema object`);
  if (typeof (input as { type?: unknown }).type === 'string') return undefined; // plain JSON Schema
  const values = Object.values(input);
  if (values.some(isZod3Schema)) throw zod3Refusal(what);
  if (!values.every(isZodSchema)) {
    throw new TypeError(`${what}: a raw shape must map every property to a zod schema; pass z.object(...) or a JSON Schema object with type "object"`);
  }
  return z.object(input as Record<string, z.ZodType>);
}

function jsonSchemaOf(schema: StandardSchemaLike, io: 'input' | 'output', what: string): Record<string, unknown> {
  if (isZodSchema(schema)) return z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  const converter = (schema['~standard'] as { jsonSchema?: { input?: (o: { target: string }) => Record<string, unknown>; output?: (o: { target: string }) => Record<string, unknown> } }).jsonSchema;
  const convert = io === 'input' ? converter?.input : converter?.output;
  if (convert === undefined) throw new TypeError(`${what}: cannot derive a JSON Schema from this ${schema['~standard'].vendor} schema; pass a zod schema or a JSON Schema object`);
  return convert({ target: 'draft-2020-12' });
}

function formatIssues(result: Extract<StandardResult<unknown>, { issues: unknown }>): string {
  return result.issues
    .map((issue) => {
      const path = (issue.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.');
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}

function toValidation(result: StandardResult<unknown>): Validation {
  if (result.issues !== undefined) return { ok: false, message: formatIssues(result) };
  return { ok: true, value: result.value };
}

/**
 * A zod schema's check: the protocol's verdict from the schema's definition first
 * (`schema-verdict.ts`): a value it passes is what zod would return (an equal value), so the
 * value stands for zod's output and zod runs only for the rest — a transform, a default, a
 * stripped key, a refinement, a failure, whose messages stay zod's.
 */
function checkZod(schema: z.ZodType, value: unknown): MaybePromise<Validation> {
  if (verdictOf(schema, value) === PASS) return { ok: true, value };
  return thenMaybe(schema['~standard'].validate(value), toValidation);
}

/**
 * Compiles a schema input once. `io` picks the JSON Schema of the accepted input
 * (arguments) or of the produced output (structured results); `validator` is the engine
 * for plain JSON Schema inputs.
 */
export function compileObjectSchema(
  input: ObjectSchemaInput,
  io: 'input' | 'output',
  what: string,
  validator: JsonSchemaValidator = defaultJsonSchemaValidator,
): CompiledSchema {
  const standard = toStandardSchema(input, what);
  if (standard === undefined) {
    const jsonSchema = deepFreeze(structuredClone(input) as JsonSchemaObject);
    if (jsonSchema.type !== 'object') throw new TypeError(`${what}: the JSON Schema must have type "object"`);
    let compiled: ((value: unknown) => string | undefined) | undefined;
    const checkNow = (value: unknown): Validation => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, message: 'expected an object' };
      compiled ??= validator.compile(jsonSchema);
      const problem = compiled(value);
      return problem === undefined ? { ok: true, value } : { ok: false, message: problem };
    };
    return { jsonSchema, kind: 'json', standard: undefined, validate: async (value) => checkNow(value), check: checkNow };
  }
  const derive = (): JsonSchemaObject => {
    const jsonSchema = deepFreeze(jsonSchemaOf(standard, io, what)) as JsonSchemaObject;
    if (jsonSchema.type !== 'object') throw new TypeError(`${what}: the schema must describe an object (its JSON Schema has type ${JSON.stringify(jsonSchema.type)})`);
    return jsonSchema;
  };
  let jsonSchema = isZodObject(standard) ? undefined : derive();
  return {
    get jsonSchema() {
      jsonSchema ??= derive();
      return jsonSchema;
    },
    kind: 'standard',
    standard,
    validate: async (value) => toValidation(await standard['~standard'].validate(value)),
    check: isZodSchema(standard) ? (value) => checkZod(standard, value) : (value) => thenMaybe(standard['~standard'].validate(value), toValidation),
  };
}
