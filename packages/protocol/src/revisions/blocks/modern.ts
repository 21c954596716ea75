/**
 * Building blocks of the stateless (modern, 2026-07-28+) revisions, MCP 2026-07-28 basic/index: the reserved
 * `_meta` keys, the required per-request `_meta`, `resultType`, cacheable results, Multi
 * Round-Trip Requests (`InputRequiredResult`) and `subscriptions/listen` filters. Shapes
 * that embed capabilities or implementations are built from the revision's own schemas.
 */
import * as z from 'zod/mini';
import { deferred, deferredShape } from './deferred.js';
import { LoggingLevel, Meta, ProgressToken, RequestId } from './base.js';

/** `_meta` key of the request's protocol version (required on every modern request). */
export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
/** `_meta` key of the client capabilities relevant to one request (required; `{}` = none). */
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
/** `_meta` key of the client's self-reported `Implementation` (optional, SHOULD be sent). */
export const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo';
/** `_meta` key opting one request in to `notifications/message` at or above a level. */
export const LOG_LEVEL_META_KEY = 'io.modelcontextprotocol/logLevel';
/** `_meta` key of the server's self-reported `Implementation`, on results. */
export const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';
/** `_meta` key naming the `subscriptions/listen` request a notification belongs to. */
export const SUBSCRIPTION_ID_META_KEY = 'io.modelcontextprotocol/subscriptionId';

/** Core `resultType` values; extensions may add more (the tasks extension adds `"task"`). */
export const RESULT_TYPES = ['complete', 'input_required'] as const;

/**
 * The `_meta` every modern request carries (MCP 2026-07-28 basic/index §_meta): the protocol
 * version and client capabilities are required; client info, log level, progress token and
 * W3C trace context are optional.
 */
export function modernRequestMeta(clientCapabilities: z.ZodMiniType, implementation: z.ZodMiniType) {
  return z.looseObject({
    [PROTOCOL_VERSION_META_KEY]: z.string().check(z.minLength(1)),
    [CLIENT_CAPABILITIES_META_KEY]: clientCapabilities,
    [CLIENT_INFO_META_KEY]: z.optional(implementation),
    [LOG_LEVEL_META_KEY]: z.optional(LoggingLevel),
    progressToken: z.optional(ProgressToken),
    traceparent: z.optional(z.string()),
    tracestate: z.optional(z.string()),
    baggage: z.optional(z.string()),
  });
}

/** `_meta` on modern results: open, with the optional server `Implementation`. */
export function modernResultMeta(implementation: z.ZodMiniType) {
  return z.looseObject({ [SERVER_INFO_META_KEY]: z.optional(implementation) });
}

/** `_meta` on notifications: open, tagged with the listen request's id on a listen stream. */
export const SubscriptionNotificationMeta = deferred(() => z.looseObject({ [SUBSCRIPTION_ID_META_KEY]: z.optional(RequestId) }));

/**
 * Caching hints (MCP 2026-07-28 basic/utilities/caching): `ttlMs` is an integer ≥ 0; `cacheScope`
 * says who may share the entry.
 */
export const CacheScope = deferred(() => z.enum(['public', 'private']));
export const cacheable = deferredShape(() => ({ ttlMs: z.int().check(z.nonnegative()), cacheScope: CacheScope }));

/**
 * Which notifications a `subscriptions/listen` stream delivers (MCP 2026-07-28
 * basic/patterns/subscriptions). Omitted or `false`
 * means not subscribed; extensions add fields (the tasks extension adds `taskIds`).
 */
export const SubscriptionFilter = deferred(() => z.looseObject({
  toolsListChanged: z.optional(z.boolean()),
  promptsListChanged: z.optional(z.boolean()),
  resourcesListChanged: z.optional(z.boolean()),
  /** Resource URIs whose `notifications/resources/updated` the client wants. */
  resourceSubscriptions: z.optional(z.array(z.string())),
}));

/** Params of `notifications/subscriptions/acknowledged`: the tagged id and the honoured subset. */
export const SubscriptionsAcknowledgedNotificationParams = deferred(() => z.looseObject({
  _meta: z.looseObject({ [SUBSCRIPTION_ID_META_KEY]: RequestId }),
  notifications: SubscriptionFilter,
}));

/** The graceful end of a listen stream: `resultType: "complete"` tagged with the listen id. */
export const SubscriptionsListenResult = deferred(() => z.looseObject({
  resultType: z.literal('complete'),
  _meta: z.looseObject({ [SUBSCRIPTION_ID_META_KEY]: RequestId }),
}));

/**
 * The MRTR answer of `tools/call`, `prompts/get` and `resources/read` (MCP 2026-07-28 basic/patterns/mrtr):
 * input requests keyed by server-chosen names and/or an opaque `requestState`, at least one.
 */
export function inputRequiredResult(inputRequest: z.ZodMiniType) {
  return z
    .looseObject({
      resultType: z.literal('input_required'),
      _meta: z.optional(Meta),
      inputRequests: z.optional(z.record(z.string(), inputRequest)),
      requestState: z.optional(z.string()),
    }).check(z.refine((result) => result.inputRequests !== undefined || result.requestState !== undefined, {
      message: 'An InputRequiredResult carries inputRequests, requestState or both',
    }));
}

/** Fields a client adds when it retries a request after an `InputRequiredResult`. */
export function inputResponseFields(inputResponse: z.ZodMiniType) {
  return { inputResponses: z.optional(z.record(z.string(), inputResponse)), requestState: z.optional(z.string()) };
}

/** `error.data` of -32021 MISSING_REQUIRED_CLIENT_CAPABILITY. */
export function missingRequiredClientCapabilityData(clientCapabilities: z.ZodMiniType) {
  return z.looseObject({ requiredCapabilities: clientCapabilities });
}

/** `error.data` of -32022 UNSUPPORTED_PROTOCOL_VERSION: what the server speaks and what it was asked. */
export const UnsupportedProtocolVersionErrorData = deferred(() => z.looseObject({
  supported: z.array(z.string()),
  requested: z.string(),
}));
