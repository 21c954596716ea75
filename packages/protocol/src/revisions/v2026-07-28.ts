/**
 * Protocol revision 2026-07-28 (V5), the first stateless revision (MCP 2026-07-28 basic/index). There is no
 * `initialize` handshake: every request carries its protocol version and client
 * capabilities in `params._meta`, and `server/discover` reports what the server speaks.
 * Only clients send requests; what servers used to ask (`sampling/createMessage`,
 * `roots/list`, `elicitation/create`) comes back inside an `InputRequiredResult` (MRTR).
 * Every result carries `resultType`; list and read results carry caching hints; change
 * notifications flow only on `subscriptions/listen` streams.
 *
 * Removed (MCP 2026-07-28 changelog): `initialize`, `notifications/initialized`, `ping`, `logging/setLevel`,
 * `resources/subscribe`/`unsubscribe`, server-to-client requests,
 * `notifications/roots/list_changed`, `notifications/elicitation/complete` and the URL
 * `elicitationId`, core tasks (now the `io.modelcontextprotocol/tasks` extension), and the
 * -32002 / -32042 codes. Roots, sampling and logging remain but are deprecated (MCP 2026-07-28 deprecated).
 */
import * as z from 'zod/mini';
import { deferred, deferredShape } from './blocks/deferred.js';
import type { Revision } from './types.js';
import { MODERN_ERA_FEATURES } from './blocks/era-features.js';
import * as V3 from './v2025-06-18.js';
import * as V4 from './v2025-11-25.js';
import { CapabilityFlag, NotificationParams, PaginatedRequestParams, RequestParams, notification, request } from './blocks/base.js';
import { jsonRpcEnvelope, methodTable } from './blocks/jsonrpc.js';
import { TaskStatus } from './blocks/tasks.js';
import {
  SubscriptionFilter,
  SubscriptionNotificationMeta,
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsListenResult,
  UnsupportedProtocolVersionErrorData,
  cacheable,
  inputRequiredResult,
  inputResponseFields,
  missingRequiredClientCapabilityData,
  modernRequestMeta,
  modernResultMeta,
} from './blocks/modern.js';

export const VERSION = '2026-07-28';

export { SubscriptionFilter, SubscriptionsAcknowledgedNotificationParams, SubscriptionsListenResult, UnsupportedProtocolVersionErrorData };

/* ---------- Identity and capabilities ---------- */

export const Implementation = V4.Implementation;

/** Extensions a side supports, by prefixed id (`io.modelcontextprotocol/tasks`); `{}` = no settings. */
export const Extensions = deferred(() => z.record(z.string(), z.looseObject({})));

/** Client capabilities, sent per request; core tasks moved to an extension, `roots.listChanged` is gone. */
export const ClientCapabilities = deferred(() => z.extend(z.omit(V4.ClientCapabilities, { tasks: true }), {
  roots: z.optional(CapabilityFlag),
  extensions: z.optional(Extensions),
}));

/** Server capabilities, reported by `server/discover`; core tasks moved to an extension. */
export const ServerCapabilities = deferred(() => z.extend(z.omit(V4.ServerCapabilities, { tasks: true }), { extensions: z.optional(Extensions) }));

/** The `_meta` every request carries (MCP 2026-07-28 basic/index §_meta). */
export const RequestMeta = deferred(() => modernRequestMeta(ClientCapabilities, Implementation));
/** `_meta` of results: may name the server (`io.modelcontextprotocol/serverInfo`). */
export const ResultMeta = deferred(() => modernResultMeta(Implementation));

const requestMeta = { _meta: RequestMeta };
const complete = deferredShape(() => ({ resultType: z.literal('complete'), _meta: z.optional(ResultMeta) }));

/** Base of every request's params: `_meta` is required. */
export const ModernRequestParams = deferred(() => z.extend(RequestParams, requestMeta));
/** Base of every final result (`resultType: "complete"`), also the empty result. */
export const CompleteResult = deferred(() => z.looseObject({ ...complete }));
/**
 * A final result that may be cached for `ttlMs` within `cacheScope` (MCP 2026-07-28
 * basic/utilities/caching).
 */
export const CacheableResult = deferred(() => z.extend(CompleteResult, cacheable));

/* ---------- Discovery ---------- */

/**
 * The answer of `server/discover` (MCP 2026-07-28 server/discover); the old top-level `serverInfo`
 * moved to `_meta`.
 */
export const DiscoverResult = deferred(() => z.extend(CacheableResult, {
  supportedVersions: z.array(z.string()),
  capabilities: ServerCapabilities,
  instructions: z.optional(z.string()),
}));

/* ---------- Content ---------- */

export const ContentBlock = V4.ContentBlock;
export const AnyResourceContents = V4.AnyResourceContents;

/* ---------- MRTR input requests and responses (MCP 2026-07-28 basic/patterns/mrtr) ---------- */

/** URL-mode elicitation without `elicitationId`: completion is signalled by the retry. */
export const ElicitRequestURLParams = deferred(() => z.extend(RequestParams, { mode: z.literal('url'), message: z.string(), url: z.string() }));
export const ElicitRequestFormParams = deferred(() => z.omit(V4.ElicitRequestFormParams, { task: true }));
export const ElicitRequestParams = deferred(() => z.union([ElicitRequestURLParams, ElicitRequestFormParams]));
export const CreateMessageRequestParams = deferred(() => z.omit(V4.CreateMessageRequestParams, { task: true }));
export const ElicitResult = V4.ElicitResult;
export const CreateMessageResult = V4.CreateMessageResult;
export const Root = V4.Root;
export const ListRootsResult = V4.ListRootsResult;

/** A request the server needs the client to fulfil before it retries: `method` and `params` only. */
export const InputRequest = deferred(() => z.discriminatedUnion('method', [
  z.looseObject({ method: z.literal('sampling/createMessage'), params: CreateMessageRequestParams }),
  z.looseObject({ method: z.literal('roots/list'), params: z.optional(RequestParams) }),
  z.looseObject({ method: z.literal('elicitation/create'), params: ElicitRequestParams }),
]));

/** The client's answer to one input request. */
export const InputResponse = deferred(() => z.union([CreateMessageResult, ListRootsResult, ElicitResult]));

/** `resultType: "input_required"`: retry with `inputResponses` and/or the echoed `requestState`. */
export const InputRequiredResult = deferred(() => inputRequiredResult(InputRequest));

const retry = deferredShape(() => inputResponseFields(InputResponse));

/** A result of a request that may need more input: complete, or an `InputRequiredResult` (built at first use). */
function orInputRequired<R extends z.ZodMiniType>(result: R) {
  return deferred(() => z.union([result, InputRequiredResult]));
}

/* ---------- Resources ---------- */

export const Resource = V4.Resource;
export const ResourceTemplate = V4.ResourceTemplate;
export const PaginatedParams = deferred(() => z.extend(PaginatedRequestParams, requestMeta));
const page = deferredShape(() => ({ ...cacheable, nextCursor: z.optional(z.string()) }));
export const ListResourcesResult = deferred(() => z.extend(CompleteResult, { ...page, resources: z.array(Resource) }));
export const ListResourceTemplatesResult = deferred(() => z.extend(CompleteResult, { ...page, resourceTemplates: z.array(ResourceTemplate) }));
export const ReadResourceRequestParams = deferred(() => z.extend(V4.ResourceRequestParams, { ...requestMeta, ...retry }));
export const ReadResourceResult = deferred(() => z.extend(CacheableResult, { contents: z.array(AnyResourceContents) }));

/* ---------- Prompts ---------- */

export const Prompt = V4.Prompt;
export const PromptMessage = V4.PromptMessage;
export const ListPromptsResult = deferred(() => z.extend(CompleteResult, { ...page, prompts: z.array(Prompt) }));
export const GetPromptRequestParams = deferred(() => z.extend(V4.GetPromptRequestParams, { ...requestMeta, ...retry }));
export const GetPromptResult = deferred(() => z.extend(V4.GetPromptResult, complete));

/* ---------- Tools ---------- */

/** Tools lose the core-tasks `execution` negotiation. */
export const Tool = deferred(() => z.omit(V4.Tool, { execution: true }));
export const ListToolsResult = deferred(() => z.extend(CompleteResult, { ...page, tools: z.array(Tool) }));
export const CallToolRequestParams = deferred(() => z.extend(V3.CallToolRequestParams, { ...requestMeta, ...retry }));
/** `structuredContent` may be any JSON value now, not only an object. */
export const CallToolResult = deferred(() => z.extend(V4.CallToolResult, { ...complete, structuredContent: z.optional(z.unknown()) }));

/* ---------- Completion ---------- */

export const CompleteRequestParams = deferred(() => z.extend(V4.CompleteRequestParams, requestMeta));
export const CompletionResult = deferred(() => z.extend(V4.CompleteResult, complete));

/* ---------- The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) ---------- */

const extensionTaskShape = deferredShape(() => ({
  taskId: z.string(),
  status: TaskStatus,
  statusMessage: z.optional(z.string()),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  /** Lifetime in ms from creation; `null`: unlimited. */
  ttlMs: z.nullable(z.int().check(z.nonnegative())),
  pollIntervalMs: z.optional(z.int().check(z.positive())),
}));
/** A `tools/call` the server runs as a task: the task's fields inline, `resultType: "task"`. */
export const CreateTaskResult = deferred(() => z.looseObject({ ...extensionTaskShape, resultType: z.literal('task'), _meta: z.optional(ResultMeta) }));
/** `tasks/get`: the task with its outstanding `inputRequests`, its `result` or its `error`. */
export const DetailedTaskResult = deferred(() => z.extend(CompleteResult, {
  ...extensionTaskShape,
  inputRequests: z.optional(z.record(z.string(), z.looseObject({ method: z.string(), params: z.optional(z.looseObject({})) }))),
  result: z.optional(z.looseObject({})),
  error: z.optional(z.looseObject({ code: z.int(), message: z.string(), data: z.optional(z.unknown()) })),
}));
export const TaskIdRequestParams = deferred(() => z.extend(ModernRequestParams, { taskId: z.string() }));
export const TasksUpdateRequestParams = deferred(() => z.extend(TaskIdRequestParams, { inputResponses: z.record(z.string(), z.looseObject({})) }));
/** `notifications/tasks`: the full task state (delivered on `subscriptions/listen`). */
export const TasksNotificationParams = deferred(() => z.extend(z.omit(DetailedTaskResult, { resultType: true, _meta: true }), { _meta: z.optional(SubscriptionNotificationMeta) }));

/* ---------- Subscriptions ---------- */

export const SubscriptionsListenRequestParams = deferred(() => z.extend(ModernRequestParams, { notifications: SubscriptionFilter }));

/* ---------- Notifications ---------- */

const notificationMeta = deferredShape(() => ({ _meta: z.optional(SubscriptionNotificationMeta) }));
export const ModernNotificationParams = deferred(() => z.extend(NotificationParams, notificationMeta));
/** `requestId` is required again: tasks no longer use `notifications/cancelled`. */
export const CancelledNotificationParams = deferred(() => z.extend(V3.CancelledNotificationParams, notificationMeta));
export const ProgressNotificationParams = deferred(() => z.extend(V4.ProgressNotificationParams, notificationMeta));
export const LoggingMessageNotificationParams = deferred(() => z.extend(V4.LoggingMessageNotificationParams, notificationMeta));
export const ResourceUpdatedNotificationParams = deferred(() => z.extend(V4.ResourceUpdatedNotificationParams, notificationMeta));

/* ---------- Errors ---------- */

/** `error.data` of -32021: the capabilities the client must declare for this request. */
export const MissingRequiredClientCapabilityErrorData = deferred(() => missingRequiredClientCapabilityData(ClientCapabilities));

/* ---------- The method tables ---------- */

export const requests = methodTable({
  'server/discover': request('clientToServer', ModernRequestParams, DiscoverResult),
  'completion/complete': request('clientToServer', CompleteRequestParams, CompletionResult),
  'prompts/list': request('clientToServer', PaginatedParams, ListPromptsResult),
  'prompts/get': request('clientToServer', GetPromptRequestParams, orInputRequired(GetPromptResult)),
  'resources/list': request('clientToServer', PaginatedParams, ListResourcesResult),
  'resources/templates/list': request('clientToServer', PaginatedParams, ListResourceTemplatesResult),
  'resources/read': request('clientToServer', ReadResourceRequestParams, orInputRequired(ReadResourceResult)),
  'subscriptions/listen': request('clientToServer', SubscriptionsListenRequestParams, SubscriptionsListenResult),
  'tools/list': request('clientToServer', PaginatedParams, ListToolsResult),
  'tools/call': request('clientToServer', CallToolRequestParams, deferred(() => z.union([CallToolResult, InputRequiredResult, CreateTaskResult]))),
  // the tasks extension: served only to requests that declare it (-32021 otherwise)
  'tasks/get': request('clientToServer', TaskIdRequestParams, DetailedTaskResult),
  'tasks/update': request('clientToServer', TasksUpdateRequestParams, CompleteResult),
  'tasks/cancel': request('clientToServer', TaskIdRequestParams, CompleteResult),
} as const);

export const notifications = methodTable({
  'notifications/cancelled': notification('both', CancelledNotificationParams),
  'notifications/progress': notification('serverToClient', ProgressNotificationParams),
  'notifications/message': notification('serverToClient', LoggingMessageNotificationParams),
  'notifications/resources/updated': notification('serverToClient', ResourceUpdatedNotificationParams),
  'notifications/resources/list_changed': notification('serverToClient', ModernNotificationParams),
  'notifications/tools/list_changed': notification('serverToClient', ModernNotificationParams),
  'notifications/prompts/list_changed': notification('serverToClient', ModernNotificationParams),
  'notifications/subscriptions/acknowledged': notification('serverToClient', SubscriptionsAcknowledgedNotificationParams),
  'notifications/tasks': notification('serverToClient', TasksNotificationParams),
} as const);

export const envelope = jsonRpcEnvelope({
  requests,
  notifications,
  errorId: 'optional',
  // ErrorCode.MissingRequiredClientCapability and ErrorCode.UnsupportedProtocolVersion (the
  // jsonrpc module imports the registry, so the codes are spelled out here).
  errorData: { [-32021]: MissingRequiredClientCapabilityErrorData, [-32022]: UnsupportedProtocolVersionErrorData },
});

/** There is no handshake: nothing is a valid `initialize` in this revision. */
const NoHandshake = deferred(() => z.never());

/** Tasks left the core in 2026-07-28 (an extension now): their schemas are not part of this revision. */
const { Task: _task, CreateTaskResult: _createTaskResult, ...schemasWithoutTasks } = V4.revision_2025_11_25.schemas;

export const revision_2026_07_28: Revision = {
  version: VERSION,
  era: 'modern',
  // What changed since 2025-11-25: the stateless era's rules; tasks moved to an extension; no SSE priming.
  features: { ...V4.revision_2025_11_25.features, tasks: false, ssePriming: false, ...MODERN_ERA_FEATURES },
  requests,
  notifications,
  // The 2025-11-25 building blocks without core tasks, and what changed.
  schemas: {
    ...schemasWithoutTasks,
    ClientCapabilities,
    ServerCapabilities,
    InitializeRequestParams: NoHandshake,
    InitializeResult: NoHandshake,
    Tool,
    CallToolResult,
    ...envelope,
    RequestMeta,
    DiscoverResult,
    InputRequiredResult,
    CacheableResult,
    SubscriptionFilter,
  },
};
