/**
 * The restricted JSON Schema subset of form-mode elicitation (`requestedSchema`): a flat
 * object whose properties are primitives. 2025-06-18 has string, number, boolean and a
 * single-select enum (with optional `enumNames`); 2025-11-25 adds `default` values,
 * titled single-select enums (`oneOf`) and multi-select enums (`type: "array"`).
 */
import * as z from 'zod/mini';
import { deferred, deferredShape } from './deferred.js';

/* ---------- 2025-06-18 ---------- */

const described = deferredShape(() => ({ title: z.optional(z.string()), description: z.optional(z.string()) }));

export const StringFormat = deferred(() => z.enum(['email', 'uri', 'date', 'date-time']));

const stringShapeV3 = deferredShape(() => ({
  type: z.literal('string'),
  ...described,
  minLength: z.optional(z.number()),
  maxLength: z.optional(z.number()),
  format: z.optional(StringFormat),
}));

/**
 * A string schema must not carry `enum` / `oneOf`: with those it is an enum schema, and a
 * malformed enum must not slip through as a plain (loose) string schema.
 */
function notAnEnum(value: Record<string, unknown>): boolean {
  return !('enum' in value) && !('oneOf' in value);
}
const notAnEnumMessage = { message: 'A string schema with "enum" or "oneOf" must be a valid enum schema' };

export const StringSchemaV3 = deferred(() => z.looseObject({ ...stringShapeV3 }).check(z.refine(notAnEnum, notAnEnumMessage)));

export const NumberSchemaV3 = deferred(() => z.looseObject({
  type: z.enum(['number', 'integer']),
  ...described,
  minimum: z.optional(z.number()),
  maximum: z.optional(z.number()),
}));

export const BooleanSchemaV3 = deferred(() => z.looseObject({
  type: z.literal('boolean'),
  ...described,
  default: z.optional(z.boolean()),
}));

export const EnumSchemaV3 = deferred(() => z.looseObject({
  type: z.literal('string'),
  ...described,
  enum: z.array(z.string()),
  /** Display names for the `enum` values. */
  enumNames: z.optional(z.array(z.string())),
}));

export const PrimitiveSchemaDefinitionV3 = deferred(() => z.union([EnumSchemaV3, StringSchemaV3, NumberSchemaV3, BooleanSchemaV3]));

export const RequestedSchemaV3 = deferred(() => z.looseObject({
  type: z.literal('object'),
  properties: z.record(z.string(), PrimitiveSchemaDefinitionV3),
  required: z.optional(z.array(z.string())),
}));

/** A submitted form: property name to value. */
export const ElicitContentV3 = deferred(() => z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])));

/* ---------- 2025-11-25 ---------- */

export const StringSchemaV4 = deferred(() => z
  .looseObject({ ...stringShapeV3, default: z.optional(z.string()) }).check(z.refine(notAnEnum, notAnEnumMessage)));
export const NumberSchemaV4 = deferred(() => z.extend(NumberSchemaV3, { default: z.optional(z.number()) }));
export const BooleanSchemaV4 = BooleanSchemaV3;

const TitledOption = deferred(() => z.looseObject({ const: z.string(), title: z.string() }));

export const UntitledSingleSelectEnumSchema = deferred(() => z.looseObject({
  type: z.literal('string'),
  ...described,
  enum: z.array(z.string()),
  default: z.optional(z.string()),
}));

export const TitledSingleSelectEnumSchema = deferred(() => z.looseObject({
  type: z.literal('string'),
  ...described,
  oneOf: z.array(TitledOption),
  default: z.optional(z.string()),
}));

const multiSelect = deferredShape(() => ({
  type: z.literal('array'),
  ...described,
  minItems: z.optional(z.number()),
  maxItems: z.optional(z.number()),
  default: z.optional(z.array(z.string())),
}));

export const UntitledMultiSelectEnumSchema = deferred(() => z.looseObject({
  ...multiSelect,
  items: z.looseObject({ type: z.literal('string'), enum: z.array(z.string()) }),
}));

export const TitledMultiSelectEnumSchema = deferred(() => z.looseObject({
  ...multiSelect,
  items: z.looseObject({ anyOf: z.array(TitledOption) }),
}));

/** The 2025-06-18 enum with `enumNames`, kept for compatibility. */
export const LegacyTitledEnumSchema = deferred(() => z.extend(EnumSchemaV3, { default: z.optional(z.string()) }));

export const EnumSchemaV4 = deferred(() => z.union([
  TitledSingleSelectEnumSchema,
  LegacyTitledEnumSchema,
  UntitledSingleSelectEnumSchema,
  TitledMultiSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
]));

export const PrimitiveSchemaDefinitionV4 = deferred(() => z.union([EnumSchemaV4, StringSchemaV4, NumberSchemaV4, BooleanSchemaV4]));

export const RequestedSchemaV4 = deferred(() => z.looseObject({
  $schema: z.optional(z.string()),
  type: z.literal('object'),
  properties: z.record(z.string(), PrimitiveSchemaDefinitionV4),
  required: z.optional(z.array(z.string())),
}));

export const ElicitContentV4 = deferred(() => z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])));

export const ElicitAction = deferred(() => z.enum(['accept', 'decline', 'cancel']));
