/**
 * A fast verdict on a value for a zod schema, without running zod: the schema's definition
 * (`_zod.def`) is turned once into a tree of small closures, one per node. A verdict is one of
 * three, and only the first two are ever claimed:
 *
 * - `PASS`: zod would accept the value and return a value equal to it (same keys, same
 *   members), so the value itself can stand for zod's output;
 * - `FAIL`: zod would reject it;
 * - `UNKNOWN`: not decided here (a transform, a default, a refinement, a stripped key, a
 *   schema kind this module does not model). The caller runs zod.
 *
 * {@link parseWithSchema} runs zod on anything but `PASS`, so error messages always come
 * from the schema. The closures follow zod's
 * own parse rules node for node (zod 4's `$ZodObject`, `$ZodUnion`, `$ZodDiscriminatedUnion`,
 * `$ZodRecord`, `$ZodOptional`, …), and the checks attached to a node (`.min(1)`, `z.int()`,
 * string formats) are zod's own check functions, run on the value; `schema-verdict.test.ts`
 * compares the verdicts with zod on a generated corpus of valid and invalid messages.
 *
 * Built from closures rather than generated source, so it works where `new Function` is
 * refused (Workers, a strict Content-Security-Policy), and building the tree of a revision's
 * largest request (`tools/call` of 2026-07-28, with its client capabilities) takes
 * microseconds.
 */
import type { $ZodType } from 'zod/v4/core';
import { isSealedJson } from '../jsonrpc/clone-json.js';

/** The verdict "zod would accept the value and return a value equal to it" (see above). */
export const PASS = 0;
/** The verdict "zod would reject the value". */
export const FAIL = 1;
/** No verdict: zod decides. */
export const UNKNOWN = 2;
export type Verdict = typeof PASS | typeof FAIL | typeof UNKNOWN;

type Check = (value: unknown) => Verdict;

/** What this module reads of a zod schema: its definition and the few internals zod derives from it. */
interface ZodInternals {
  readonly def: ZodDef;
  readonly traits: ReadonlySet<string>;
  readonly optin?: 'optional' | 'defaulted' | undefined;
  readonly optout?: 'optional' | undefined;
  readonly values?: ReadonlySet<unknown> | undefined;
  readonly propValues?: Readonly<Record<string, ReadonlySet<unknown>>> | undefined;
  readonly check?: (payload: CheckPayload) => unknown;
}

interface ZodNode {
  readonly _zod: ZodInternals;
}

interface ZodDef {
  readonly type: string;
  readonly coerce?: boolean;
  readonly checks?: readonly ZodNode[];
  readonly shape?: Readonly<Record<string, ZodNode>>;
  readonly catchall?: ZodNode;
  readonly element?: ZodNode;
  readonly innerType?: ZodNode;
  readonly options?: readonly ZodNode[];
  readonly discriminator?: string;
  readonly unionFallback?: boolean;
  readonly inclusive?: boolean;
  readonly keyType?: ZodNode;
  readonly valueType?: ZodNode;
  readonly mode?: string;
  readonly when?: (payload: CheckPayload) => boolean;
}

interface CheckPayload {
  value: unknown;
  issues: unknown[];
}

const unknownCheck: Check = () => UNKNOWN;
const passCheck: Check = () => PASS;

/** Every schema's check tree, built at its first verdict. Keyed weakly: a schema dropped by its owner frees its tree. */
const built = new WeakMap<object, Check>();

/**
 * The verdict of `schema` on `value`: PASS only when zod would accept `value` and return a
 * value equal to it.
 *
 * @example
 * ```ts
 * verdictOf(z.looseObject({ name: z.string() }), { name: 'echo', extra: 1 }); // PASS
 * verdictOf(z.object({ name: z.string() }), { name: 'echo', extra: 1 });      // UNKNOWN: zod strips `extra`
 * verdictOf(z.looseObject({ name: z.string() }), { name: 1 });                // FAIL
 * ```
 */
export function verdictOf(schema: $ZodType, value: unknown): Verdict {
  return checkFor(schema as unknown as ZodNode)(value);
}

/** A zod schema with its `safeParse` (classic `zod` and `zod/mini` schemas both have one). */
type ParsingSchema<R> = $ZodType & { safeParse(value: unknown): R };

/**
 * `schema.safeParse(value)`, with `verdictOf` first: a value it passes is zod's output
 * already (zod would return an equal copy), so zod runs only for the rest, and every error
 * message is still zod's. The one entry for the protocol's message schemas on the hot path:
 * inbound params, results, the server's check of its own results.
 *
 * @example
 * ```ts
 * const parsed = parseWithSchema(spec.params, message.params ?? {});
 * if (!parsed.success) reply(-32602, formatIssues(parsed.error));
 * ```
 */
export function parseWithSchema<R>(schema: ParsingSchema<R>, value: unknown): R | { success: true; data: unknown } {
  if (checkFor(schema as unknown as ZodNode)(value) === PASS) return { success: true, data: value };
  return schema.safeParse(value);
}

/**
 * {@link parseWithSchema} for a caller that goes on with `value` itself when it passes:
 * undefined when the verdict passes it (zod would return it unchanged), else zod's
 * `safeParse` result. No `{ success, data }` is made for the common value (one per request
 * or result on the hot path).
 *
 * @example
 * ```ts
 * const parsed = parseUnlessPassed(spec.params, params);
 * if (parsed !== undefined && !parsed.success) reply(-32602, formatIssues(parsed.error));
 * else run(parsed === undefined ? params : parsed.data);
 * ```
 */
export function parseUnlessPassed<R>(schema: ParsingSchema<R>, value: unknown): R | undefined {
  return checkFor(schema as unknown as ZodNode)(value) === PASS ? undefined : schema.safeParse(value);
}

function checkFor(schema: ZodNode): Check {
  const known = built.get(schema);
  if (known !== undefined) return known;
  // A schema may reach itself (a shape getter): the node is registered before its children
  // are built, and calls through to the finished check once there is one.
  const slot = { check: unknownCheck };
  built.set(schema, (value) => slot.check(value));
  slot.check = withChecks(schema, typeCheck(schema));
  built.set(schema, slot.check);
  return slot.check;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object zod's record takes without asking more (an object of another realm or a class is left to zod). */
function hasPlainPrototype(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** The node's own type rule (zod's `_zod.parse`). */
function typeCheck(schema: ZodNode): Check {
  const def = schema._zod.def;
  if (def.coerce === true) return unknownCheck;
  switch (def.type) {
    case 'string':
      return (value) => (typeof value === 'string' ? PASS : FAIL);
    case 'number':
      return (value) => (typeof value === 'number' && Number.isFinite(value) ? PASS : FAIL);
    case 'boolean':
      return (value) => (typeof value === 'boolean' ? PASS : FAIL);
    case 'null':
      return (value) => (value === null ? PASS : FAIL);
    case 'unknown':
    case 'any':
      return passCheck;
    case 'never':
      return () => FAIL;
    case 'literal':
    case 'enum': {
      const values = schema._zod.values;
      if (values === undefined) return unknownCheck;
      return (value) => (values.has(value) ? PASS : FAIL);
    }
    case 'optional':
      return optionalCheck(schema, def);
    case 'nullable': {
      if (def.innerType === undefined) return unknownCheck;
      const inner = checkFor(def.innerType);
      return (value) => (value === null ? PASS : inner(value));
    }
    case 'array':
      return def.element === undefined ? unknownCheck : arrayCheck(checkFor(def.element));
    case 'object':
      return objectCheck(def);
    case 'record':
      return recordCheck(def);
    case 'union':
      return def.discriminator === undefined ? unionCheck(def) : discriminatedCheck(def);
    default:
      // transform, pipe, default, catch, lazy, intersection, tuple, custom, …: zod decides.
      return unknownCheck;
  }
}

function optionalCheck(schema: ZodNode, def: ZodDef): Check {
  const innerType = def.innerType;
  // An exact optional refuses an explicit `undefined`; a defaulted inner substitutes a value.
  if (innerType === undefined || schema._zod.traits.has('$ZodExactOptional') || innerType._zod.optin === 'defaulted') return unknownCheck;
  const inner = checkFor(innerType);
  return (value) => (value === undefined ? PASS : inner(value));
}

function arrayCheck(element: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return FAIL;
    let verdict: Verdict = PASS;
    for (const item of value) {
      const itemVerdict = element(item);
      if (itemVerdict === FAIL) return FAIL;
      if (itemVerdict === UNKNOWN) verdict = UNKNOWN;
    }
    return verdict;
  };
}

interface Member {
  readonly check: Check;
  /** Absent is refused (zod: no `optin`). */
  readonly required: boolean;
}

/**
 * `z.object` (unknown keys stripped), `z.looseObject` (kept), `z.strictObject` (refused), or
 * a catchall schema for the other keys. A stripped key makes zod's output differ from the
 * value: UNKNOWN, unless the value fails anyway. The walk goes over the value's keys, not
 * the shape's: a message carries a few of the many optional members a shape declares
 * (client capabilities, `_meta`); the required ones are counted.
 */
function objectCheck(def: ZodDef): Check {
  const shape = def.shape;
  if (shape === undefined || Object.getOwnPropertySymbols(shape).length > 0) return unknownCheck;
  const members = new Map<string, Member>();
  let required = 0;
  for (const key of Object.keys(shape)) {
    const node = shape[key] as ZodNode;
    const { optin, optout } = node._zod;
    // A member zod fills when absent (a default) makes absence matter: zod decides.
    if (optin !== undefined && !(optin === 'optional' && optout === 'optional')) return unknownCheck;
    if (key === '__proto__') return unknownCheck;
    members.set(key, { check: checkFor(node), required: optin === undefined });
    if (optin === undefined) required++;
  }
  const catchallType = def.catchall?._zod.def.type;
  const extra: Check | 'strip' | 'never' =
    def.catchall === undefined ? 'strip' : catchallType === 'never' ? 'never' : catchallType === 'unknown' || catchallType === 'any' ? passCheck : checkFor(def.catchall);
  // The last sealed value that passed (`sealJson`: frozen all the way down, so its verdict
  // cannot change): the identity `_meta` a client repeats on every 2026-07-28 request, which
  // the in-memory transport hands over as it is, is then walked once.
  let passed: object | undefined;
  return (value) => {
    if (value === passed) return PASS;
    if (!isObject(value)) return FAIL;
    let verdict: Verdict = PASS;
    let present = 0;
    for (const key in value) {
      const member = members.get(key);
      if (member !== undefined) {
        if (member.required) present++;
        const memberVerdict = member.check(value[key]);
        if (memberVerdict === FAIL) return FAIL;
        if (memberVerdict === UNKNOWN) verdict = UNKNOWN;
      } else if (extra === 'never') {
        return FAIL;
      } else if (extra === 'strip' || key === '__proto__') {
        verdict = UNKNOWN;
      } else if (extra !== passCheck) {
        const extraVerdict = extra(value[key]);
        if (extraVerdict === FAIL) return FAIL;
        if (extraVerdict === UNKNOWN) verdict = UNKNOWN;
      }
    }
    // A required member missing from the value's own enumerable keys: zod refuses it unless
    // it is reachable some other way (inherited), which a JSON message never is.
    if (present !== required) return requiredMissing(members, value) ? FAIL : UNKNOWN;
    if (verdict === PASS && isSealedJson(value)) passed = value;
    return verdict;
  };
}

/** Whether a required member is absent (`in`, as zod asks), not merely non-enumerable. */
function requiredMissing(members: ReadonlyMap<string, Member>, value: Record<string, unknown>): boolean {
  for (const [key, member] of members) if (member.required && !(key in value)) return true;
  return false;
}

/**
 * `z.record(z.string(), V)`: any string key, each value checked. Other key types (enums,
 * checked or numeric keys) are left to zod.
 */
function recordCheck(def: ZodDef): Check {
  const keyType = def.keyType;
  if (def.valueType === undefined || keyType === undefined) return unknownCheck;
  const keyDef = keyType._zod.def;
  if (keyDef.type !== 'string' || keyDef.coerce === true || (keyDef.checks?.length ?? 0) > 0 || keyType._zod.traits.has('$ZodCheck') || keyType._zod.values !== undefined) return unknownCheck;
  const item = checkFor(def.valueType);
  return (value) => {
    if (!isObject(value)) return FAIL;
    if (!hasPlainPrototype(value) || Object.getOwnPropertySymbols(value).length > 0 || Object.hasOwn(value, '__proto__')) return UNKNOWN;
    if (item === passCheck) return PASS;
    let verdict: Verdict = PASS;
    for (const key in value) {
      const itemVerdict = item(value[key]);
      if (itemVerdict === FAIL) return FAIL;
      if (itemVerdict === UNKNOWN) verdict = UNKNOWN;
    }
    return verdict;
  };
}

/** zod returns the first option that accepts: an option passes only after every earlier one surely fails. */
function unionCheck(def: ZodDef): Check {
  const options = def.options;
  if (options === undefined || def.inclusive === false) return unknownCheck;
  const checks = options.map(checkFor);
  return (value) => {
    for (const check of checks) {
      const verdict = check(value);
      if (verdict !== FAIL) return verdict;
    }
    return FAIL;
  };
}

/** The option named by the discriminator's value, as zod's own `propValues` map it. */
function discriminatedCheck(def: ZodDef): Check {
  const discriminator = def.discriminator as string;
  const options = def.options ?? [];
  const byValue = new Map<unknown, Check | undefined>();
  for (const option of options) {
    const values = option._zod.propValues?.[discriminator];
    if (values === undefined) return unknownCheck;
    for (const value of values) byValue.set(value, byValue.has(value) ? undefined : checkFor(option));
  }
  const fallback = def.unionFallback === true;
  return (value) => {
    if (!isObject(value)) return FAIL;
    const tag = value[discriminator];
    if (!byValue.has(tag)) return fallback ? UNKNOWN : FAIL;
    const option = byValue.get(tag);
    return option === undefined ? UNKNOWN : option(value);
  };
}

/**
 * The checks attached to the node, run in zod's order on a value the type rule accepted:
 * zod's own check functions on a payload of their own. A refinement (user code) is left to
 * zod, and so is a check that rewrites the value (`.trim()`, a normalizing format).
 */
function withChecks(schema: ZodNode, check: Check): Check {
  const own = schema._zod.traits.has('$ZodCheck') ? [schema] : [];
  const checks = [...own, ...(schema._zod.def.checks ?? [])];
  if (checks.length === 0 || check === unknownCheck) return check;
  if (checks.some((node) => node._zod.def.type === 'custom' || (node._zod.def as { check?: string }).check === 'custom' || node._zod.check === undefined)) {
    return (value) => (check(value) === FAIL ? FAIL : UNKNOWN);
  }
  return (value) => {
    const verdict = check(value);
    if (verdict !== PASS) return verdict;
    const payload: CheckPayload = { value, issues: [] };
    for (const node of checks) {
      const when = node._zod.def.when;
      if (when !== undefined && !when(payload)) continue;
      if ((node._zod.check as (payload: CheckPayload) => unknown)(payload) instanceof Promise) return UNKNOWN;
      if (payload.issues.length > 0) return FAIL;
      if (payload.value !== value) return UNKNOWN;
    }
    return PASS;
  };
}
