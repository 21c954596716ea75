/**
 * Helpers shared by the revision tests: look a method up in a revision's tables and list
 * what a schema finds wrong with a value (an empty list when it is valid), so a test says
 * `expect(issues(...)).toEqual([])` and sees every issue when it fails.
 */
import type * as z from 'zod/mini';
import type { NotificationSpec, RequestSpec, Revision } from './types.js';

type Message = { readonly [key: string]: unknown };

/** What `schema` finds wrong with `value`; empty when valid. */
export function issues(schema: z.ZodMiniType, value: unknown): readonly z.core.$ZodIssue[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues;
}

/** The table entry of request `method`; throws when the revision has none. */
export function requestSpecOf(revision: Revision, method: string): RequestSpec {
  const spec = revision.requests[method];
  if (spec === undefined) throw new Error(`${revision.version} has no request ${method}`);
  return spec;
}

/** The table entry of notification `method`; throws when the revision has none. */
export function notificationSpecOf(revision: Revision, method: string): NotificationSpec {
  const spec = revision.notifications[method];
  if (spec === undefined) throw new Error(`${revision.version} has no notification ${method}`);
  return spec;
}

/** Everything wrong with a request and its result response, as envelopes and against the method's table. */
export function exchangeIssues(revision: Revision, request: Message, response: Message): readonly z.core.$ZodIssue[] {
  const spec = requestSpecOf(revision, String(request.method));
  return [
    ...issues(revision.schemas.JsonRpcMessage, request),
    ...issues(spec.params, request.params ?? {}),
    ...issues(revision.schemas.JsonRpcMessage, response),
    ...issues(spec.result, response.result),
  ];
}

/** Everything wrong with a notification, as an envelope and against the method's table. */
export function notificationIssues(revision: Revision, message: Message): readonly z.core.$ZodIssue[] {
  return [
    ...issues(revision.schemas.JsonRpcMessage, message),
    ...issues(notificationSpecOf(revision, String(message.method)).params, message.params ?? {}),
  ];
}
