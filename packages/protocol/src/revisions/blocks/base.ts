/**
 * Building blocks shared by every legacy revision: ids, `_meta`, the base shapes of params
 * and results, pagination, logging levels and roles. Every object schema is loose: unknown
 * keys are kept so newer peers can add fields without breaking older ones.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { deferred } from './deferred.js';
import type { Direction, NotificationSpec, RequestSpec } from '../types.js';

// The wire schemas use zod/mini (the same zod core as the classic API, without its methods, so a
// browser bundle keeps only the functions it calls). zod/mini sets no locale: without one every
// issue reads "Invalid input". English is set here, as zod's classic API does on its first schema,
// unless the application chose a locale already.
if (z.config().localeError === undefined) z.config(en());

/** A JSON-RPC request id as it appears inside params: a string or an integer. */
export const RequestId = deferred(() => z.union([z.string(), z.int()]));

/** `_meta.progressToken`: a string or an integer, unique among the sender's active requests. */
export const ProgressToken = deferred(() => z.union([z.string(), z.int()]));

/** An opaque pagination cursor. */
export const Cursor = deferred(() => z.string());

/** `_meta` on results, notifications and data objects: an open map. */
export const Meta = deferred(() => z.looseObject({}));

/** `_meta` on request params: an open map whose one protocol key is `progressToken`. */
export const RequestMeta = deferred(() => z.looseObject({ progressToken: z.optional(ProgressToken) }));

/** Base of every request's `params`. */
export const RequestParams = deferred(() => z.looseObject({ _meta: z.optional(RequestMeta) }));

/** Base of every notification's `params`. */
export const NotificationParams = deferred(() => z.looseObject({ _meta: z.optional(Meta) }));

/** Base of every result; also the empty result (`ping`, `resources/subscribe`, …). */
export const Result = deferred(() => z.looseObject({ _meta: z.optional(Meta) }));

/** Params of paginated list requests. */
export const PaginatedRequestParams = deferred(() => z.extend(RequestParams, { cursor: z.optional(Cursor) }));

/** Base of paginated list results. */
export const PaginatedResult = deferred(() => z.extend(Result, { nextCursor: z.optional(Cursor) }));

/**
 * A value that must be present but may be any JSON value (`notifications/message` `data`).
 * `z.unknown()` alone would let a missing key through.
 */
export const RequiredValue = deferred(() => z.unknown().check(z.refine((value) => value !== undefined, { message: 'Required' })));

/** Log severities, ordered least to most severe (RFC 5424). */
export const LOGGING_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

export const LoggingLevel = deferred(() => z.enum(LOGGING_LEVELS));

/** The sender or recipient of a message in a conversation. */
export const Role = deferred(() => z.enum(['user', 'assistant']));

/** An open capability flag object (`logging: {}`, `sampling: {}`, …). */
export const CapabilityFlag = deferred(() => z.looseObject({}));

/** `experimental` capabilities: non-standard features, each an object. */
export const ExperimentalCapabilities = deferred(() => z.record(z.string(), z.looseObject({})));

/** Builds a request entry for a revision table. */
export function request<P extends z.ZodMiniType, R extends z.ZodMiniType>(
  direction: Direction,
  params: P,
  result: R,
): RequestSpec & { readonly params: P; readonly result: R } {
  return { direction, params, result };
}

/** Builds a notification entry for a revision table. */
export function notification<P extends z.ZodMiniType>(direction: Direction, params: P): NotificationSpec & { readonly params: P } {
  return { direction, params };
}
