/**
 * The JSON-RPC envelope of one revision: request, notification, result response and error
 * response, each loose, plus their union. Requests and notifications whose method the
 * revision defines also have their params checked against the revision's table (absent
 * params are checked as `{}`); unknown methods pass, since answering them (-32601) is the
 * receiver's job, not the schema's. A result cannot be checked here: its shape depends on
 * the request it answers.
 */
import * as z from 'zod/mini';
import { deferred } from './deferred.js';
import type { NotificationSpec, RequestSpec } from '../types.js';
import { RequestId } from './base.js';

export interface JsonRpcEnvelopeOptions {
  readonly requests: Readonly<Record<string, RequestSpec>>;
  readonly notifications: Readonly<Record<string, NotificationSpec>>;
  /**
   * `required` (2024-11-05 … 2025-06-18): an error response carries the request id, or
   * `null` when it could not be read (JSON-RPC 2.0). `optional` (2025-11-25): the id is
   * omitted when it could not be read.
   */
  readonly errorId: 'required' | 'optional';
  /** Extra checks of `error.data` for specific codes (2025-11-25: -32042). */
  readonly errorData?: Readonly<Record<number, z.ZodMiniType>>;
}

export interface JsonRpcEnvelope {
  readonly JsonRpcRequest: z.ZodMiniType;
  readonly JsonRpcNotification: z.ZodMiniType;
  readonly JsonRpcResultResponse: z.ZodMiniType;
  readonly JsonRpcErrorResponse: z.ZodMiniType;
  readonly JsonRpcMessage: z.ZodMiniType;
}

const Version = deferred(() => z.literal('2.0'));
const Absent = deferred(() => z.optional(z.never()));
const ParamsObject = deferred(() => z.optional(z.looseObject({})));

function checkAgainst(
  spec: { params: z.ZodMiniType } | undefined,
  params: unknown,
  ctx: z.core.$RefinementCtx,
): void {
  if (spec === undefined) return;
  const parsed = spec.params.safeParse(params ?? {});
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: 'custom', message: issue.message, path: ['params', ...issue.path] });
  }
}

function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * A revision's method table as a frozen object without a prototype, so a method name read
 * off the wire (`constructor`, `toString`, `__proto__`) finds nothing rather than an
 * `Object.prototype` member: `requests[method]` is a spec or undefined, nothing else.
 */
export function methodTable<T extends Readonly<Record<string, RequestSpec | NotificationSpec>>>(table: T): T {
  return Object.freeze(Object.assign(Object.create(null) as T, table));
}

/** Builds the envelope schemas of one revision; each is built at its first use ({@link deferred}). */
export function jsonRpcEnvelope(options: JsonRpcEnvelopeOptions): JsonRpcEnvelope {
  const JsonRpcRequest = deferred(() =>
    z
      .looseObject({ jsonrpc: Version, id: RequestId, method: z.string().check(z.minLength(1)), params: ParamsObject, result: Absent, error: Absent }).check(z.superRefine((message, ctx) => checkAgainst(own(options.requests, message.method), message.params, ctx))),
  );

  const JsonRpcNotification = deferred(() =>
    z
      .looseObject({ jsonrpc: Version, method: z.string().check(z.minLength(1)), params: ParamsObject, id: Absent, result: Absent, error: Absent }).check(z.superRefine((message, ctx) => checkAgainst(own(options.notifications, message.method), message.params, ctx))),
  );

  const JsonRpcResultResponse = deferred(() =>
    z.looseObject({ jsonrpc: Version, id: RequestId, result: z.looseObject({ _meta: z.optional(z.looseObject({})) }), method: Absent, error: Absent }),
  );

  const errorData = options.errorData ?? {};
  const JsonRpcErrorResponse = deferred(() => {
    const ErrorObject = z.looseObject({ code: z.int(), message: z.string(), data: z.optional(z.unknown()) });
    const errorId = options.errorId === 'required' ? z.union([RequestId, z.null()]) : z.optional(RequestId);
    return z
      .looseObject({ jsonrpc: Version, id: errorId, error: ErrorObject, method: Absent, result: Absent }).check(z.superRefine((message, ctx) => {
        const schema = own(errorData, String(message.error.code));
        if (schema === undefined) return;
        const parsed = schema.safeParse(message.error.data);
        if (parsed.success) return;
        for (const issue of parsed.error.issues) {
          ctx.addIssue({ code: 'custom', message: issue.message, path: ['error', 'data', ...issue.path] });
        }
      }));
  });

  const JsonRpcMessage = deferred(() => z.union([JsonRpcRequest, JsonRpcNotification, JsonRpcResultResponse, JsonRpcErrorResponse]));
  return { JsonRpcRequest, JsonRpcNotification, JsonRpcResultResponse, JsonRpcErrorResponse, JsonRpcMessage };
}
