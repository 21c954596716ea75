/**
 * Methods and notifications outside the MCP specification (vendor extensions, experiments).
 * They travel through the same session runner as spec methods — the connection machine's
 * gate, the request ledger, timeouts, progress, cancellation and `inspect` — and differ only
 * in where their rules come from: a spec method's schemas come from the negotiated revision,
 * a custom method's from its registration (this table, for what this side answers) or from
 * the call (`RequestOptions.custom`, for what it sends).
 *
 * Naming (decided here, following the `_meta` key grammar of MCP 2025-11-25 basic/index §_meta
 * with a mandatory
 * prefix, as extension ids use): `<prefix>/<name>`, where the prefix is dot-separated labels
 * (`acme`, `com.example`) and the name one or more `/`-separated segments
 * (`search`, `items/list`). Refused: a method of any revision, a prefix the specification
 * uses as a namespace (`tools`, `notifications`, `server`, …), and a prefix with a label
 * `mcp` or `modelcontextprotocol` (reserved for the protocol's own extensions). The methods an
 * official extension defines (the skills extension's `skills/list`, `skills/get` and
 * `resources/directory/read`) are registered the same way, under their own names.
 *
 * Opt-in: a custom method is sent only to a peer that declared it, under
 * `capabilities.experimental[id]` (legacy revisions) or `capabilities.extensions[id]`
 * (revisions with `features.extensions`); `id` is the registration's `optIn`, by default the
 * method's own name, and `optIn: false` means no declaration is needed. The receiving side
 * declares what it registered by itself.
 */
import { InvalidArgumentError } from '../errors/errors.js';
import type { JsonObject } from '../jsonrpc/messages.js';
import { SKILLS_METHODS } from '../extensions/skills.js';
import { REVISIONS, hasFeature } from '../revisions/registry.js';

/** The result of a Standard Schema validation. */
export type CustomSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined }> };

/**
 * A schema for a custom method's params or result: any Standard Schema
 * (https://standardschema.dev), zod 4 schemas among them. Kept structural, so any library
 * version type-checks.
 */
export interface CustomSchema<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    /** Checks a value: its typed output, or the issues found. */
    readonly validate: (value: unknown) => CustomSchemaResult<Output> | Promise<CustomSchemaResult<Output>>;
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

/** The validated type of a {@link CustomSchema}; a plain JSON object when there is none. */
export type InferCustom<S> = S extends { readonly '~standard': { readonly types?: infer T } } ? (NonNullable<T> extends { readonly output: infer O } ? O : JsonObject) : JsonObject;

/** A custom request: schemas of its params and result, and the capability the receiver declares. */
export interface CustomRequestSpec<P extends CustomSchema | undefined = CustomSchema | undefined, R extends CustomSchema | undefined = CustomSchema | undefined> {
  /** Validates `params` (without `_meta`, which handlers read from their context). */
  readonly params?: P;
  /** Validates the result. */
  readonly result?: R;
  /** The id the receiver declares under `experimental` / `extensions` (default: the method name); `false`: no opt-in needed. */
  readonly optIn?: string | false;
}

/** A custom notification: the schema of its params and the capability the receiver declares. */
export interface CustomNotificationSpec<P extends CustomSchema | undefined = CustomSchema | undefined> {
  /** Validates `params` (without `_meta`). */
  readonly params?: P;
  /** The id the receiver declares under `experimental` / `extensions` (default: the method name); `false`: no opt-in needed. */
  readonly optIn?: string | false;
}

/** Either a validated value or why it failed, as one sentence. */
export type CustomValidation = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const SEGMENT = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const RESERVED_LABELS: ReadonlySet<string> = new Set(['mcp', 'modelcontextprotocol']);

/** Every method and notification name of every revision, and the namespaces (first segments) they use. */
const SPEC_METHODS: ReadonlySet<string> = new Set([...REVISIONS.values()].flatMap((revision) => [...Object.keys(revision.requests), ...Object.keys(revision.notifications)]));
const SPEC_NAMESPACES: ReadonlySet<string> = new Set([...SPEC_METHODS].map((method) => method.split('/')[0] ?? method));

/** Methods defined by official extensions: outside every revision, named without a vendor prefix. */
const EXTENSION_METHODS: ReadonlySet<string> = new Set(Object.values(SKILLS_METHODS));

/** Why `method` cannot be a custom method, as one sentence; undefined when it can. */
export function customMethodRefusal(method: string): string | undefined {
  if (EXTENSION_METHODS.has(method)) return undefined;
  if (SPEC_METHODS.has(method) || method === 'initialize' || method === 'ping') return `${method} is a method of the MCP specification; a custom method may not replace it`;
  const slash = method.indexOf('/');
  if (slash === -1) return `${method} has no namespace: name a custom method <prefix>/<name>, e.g. com.example/${method}`;
  const prefix = method.slice(0, slash);
  const labels = prefix.split('.');
  if (!labels.every((label) => LABEL.test(label)) || !method.slice(slash + 1).split('/').every((segment) => SEGMENT.test(segment))) {
    return `${method} is not a valid custom method name: use <prefix>/<name>, where the prefix is dot-separated labels (letters, digits, hyphens) and the name is /-separated segments (letters, digits, '-', '_', '.')`;
  }
  if (SPEC_NAMESPACES.has(prefix)) return `${method} is in the ${prefix}/ namespace of the MCP specification; use a vendor prefix such as com.example/`;
  if (labels.some((label) => RESERVED_LABELS.has(label.toLowerCase()))) return `${method} uses a prefix reserved for the protocol's own extensions (a label "mcp" or "modelcontextprotocol")`;
  return undefined;
}

/** Throws `InvalidArgumentError` when `method` cannot be a custom method (see `customMethodRefusal`). */
export function assertCustomMethodName(method: string): void {
  const refusal = customMethodRefusal(method);
  if (refusal !== undefined) throw new InvalidArgumentError(refusal);
}

/** Where a custom method's opt-in `id` is declared in `version`'s capabilities: `extensions` (2026-07-28+) or `experimental`. */
export function customOptInPath(version: string, id: string): readonly string[] {
  return hasFeature(version, 'extensions') ? ['extensions', id] : ['experimental', id];
}

/** The opt-in id of a spec for `method`, or undefined when it needs none. */
export function optInOf(method: string, spec: { readonly optIn?: string | false }): string | undefined {
  return spec.optIn === false ? undefined : (spec.optIn ?? method);
}

/**
 * `capabilities` with every id in `ids` declared for `version` (as `{}` unless already
 * declared); the input is not changed.
 */
export function declareCustomOptIns<C extends object>(capabilities: C, ids: Iterable<string>, version: string): C {
  let out = capabilities;
  for (const id of ids) {
    const [group = 'experimental'] = customOptInPath(version, id);
    const existing = (out as Record<string, unknown>)[group];
    const entries = typeof existing === 'object' && existing !== null ? (existing as Record<string, unknown>) : {};
    if (entries[id] !== undefined) continue;
    out = { ...out, [group]: { ...entries, [id]: {} } };
  }
  return out;
}

/**
 * Validates `value` with `schema` and hands the outcome to `done`: at once for a synchronous
 * schema, after the promise for an asynchronous one.
 */
export function validateCustom(schema: CustomSchema, value: unknown, done: (validation: CustomValidation) => void): void {
  let outcome: CustomSchemaResult<unknown> | Promise<CustomSchemaResult<unknown>>;
  try {
    outcome = schema['~standard'].validate(value);
  } catch (error) {
    done({ ok: false, message: error instanceof Error ? error.message : String(error) });
    return;
  }
  if (outcome instanceof Promise) {
    outcome.then(
      (result) => done(toValidation(result)),
      (error: unknown) => done({ ok: false, message: error instanceof Error ? error.message : String(error) }),
    );
  } else {
    done(toValidation(outcome));
  }
}

/** `validateCustom` as a promise. */
export function validateCustomAsync(schema: CustomSchema, value: unknown): Promise<CustomValidation> {
  return new Promise((resolve) => validateCustom(schema, value, resolve));
}

function toValidation(result: CustomSchemaResult<unknown>): CustomValidation {
  if (result.issues === undefined) return { ok: true, value: result.value };
  const issues = result.issues.slice(0, 5).map((issue) => {
    const path = (issue.path ?? []).map((step) => String(typeof step === 'object' ? step.key : step)).join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  return { ok: false, message: issues.join('; ') || 'invalid value' };
}

/** `params` without `_meta`, the part a custom schema validates. */
export function withoutMeta(params: JsonObject | undefined): JsonObject {
  if (params === undefined) return {};
  if (!('_meta' in params)) return params;
  const { _meta: _ignored, ...rest } = params;
  return rest;
}

/** Custom params checked before sending (`_meta` set aside and kept); rejects with `InvalidArgumentError`. */
export async function checkCustomParams(method: string, schema: CustomSchema, params: JsonObject | undefined): Promise<JsonObject> {
  const validation = await validateCustomAsync(schema, withoutMeta(params));
  if (!validation.ok) throw new InvalidArgumentError(`Invalid params for ${method}: ${validation.message}`);
  const meta = params?._meta;
  return meta === undefined ? (validation.value as JsonObject) : { ...(validation.value as JsonObject), _meta: meta };
}

/**
 * The spec of one custom request or notification from the options a client's or server's
 * `request()` / `notify()` takes (`params`, `result`, `optIn` beside the call's own options).
 */
export function customSpecOf(options: { readonly params?: unknown; readonly result?: unknown; readonly optIn?: string | false }): CustomRequestSpec {
  return {
    ...(options.params !== undefined ? { params: options.params as CustomSchema } : {}),
    ...(options.result !== undefined ? { result: options.result as CustomSchema } : {}),
    ...(options.optIn !== undefined ? { optIn: options.optIn } : {}),
  };
}

/**
 * The custom methods and notifications one side answers: their specs, keyed by name. A
 * server shares one table among its connections' sessions (`SessionOptions.customMethods`);
 * handlers stay in the session's handler maps. Registering checks the name.
 */
export class CustomMethodTable {
  readonly #requests = new Map<string, CustomRequestSpec>();
  readonly #notifications = new Map<string, CustomNotificationSpec>();

  /** Adds (or replaces) a custom request this side answers. Throws `InvalidArgumentError` for a name that cannot be custom. */
  defineRequest(method: string, spec: CustomRequestSpec): void {
    assertCustomMethodName(method);
    if (this.#notifications.has(method)) throw new InvalidArgumentError(`${method} is already registered as a custom notification`);
    if (spec.optIn !== undefined && spec.optIn !== false) assertOptInId(spec.optIn);
    this.#requests.set(method, spec);
  }

  /** Adds (or replaces) a custom notification this side handles. Throws `InvalidArgumentError` for a name that cannot be custom. */
  defineNotification(method: string, spec: CustomNotificationSpec): void {
    assertCustomMethodName(method);
    if (this.#requests.has(method)) throw new InvalidArgumentError(`${method} is already registered as a custom request`);
    if (spec.optIn !== undefined && spec.optIn !== false) assertOptInId(spec.optIn);
    this.#notifications.set(method, spec);
  }

  /** Removes a registration of either kind. */
  remove(method: string): void {
    this.#requests.delete(method);
    this.#notifications.delete(method);
  }

  /** The registration of the custom request `method`, if any. */
  request(method: string): CustomRequestSpec | undefined {
    return this.#requests.get(method);
  }

  /** The registration of the custom notification `method`, if any. */
  notification(method: string): CustomNotificationSpec | undefined {
    return this.#notifications.get(method);
  }

  /** The opt-in ids this side declares (each once). */
  optIns(): string[] {
    if (this.#requests.size === 0 && this.#notifications.size === 0) return []; // every handshake asks: most sides have none
    const ids = new Set<string>();
    for (const [method, spec] of [...this.#requests, ...this.#notifications]) {
      const id = optInOf(method, spec);
      if (id !== undefined) ids.add(id);
    }
    return [...ids];
  }
}

/**
 * An opt-in id follows the extension id rule: the `_meta` key grammar with a mandatory prefix (MCP
 * 2026-07-28 basic/versioning).
 */
function assertOptInId(id: string): void {
  const slash = id.lastIndexOf('/');
  const labels = slash === -1 ? [] : id.slice(0, slash).split('.');
  if (slash === -1 || !labels.every((label) => LABEL.test(label)) || !SEGMENT.test(id.slice(slash + 1))) {
    throw new InvalidArgumentError(`${id} is not a valid opt-in id: use <prefix>/<name>, e.g. com.example/search`);
  }
}
