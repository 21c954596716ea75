/**
 * Protocol revision 2024-11-05 (V1): the first published revision. stdio and HTTP+SSE,
 * no batching, no audio, no tool annotations, no `completions` capability (although
 * `completion/complete` exists), no progress `message`.
 *
 * Later revisions import these building blocks and extend them.
 */
import * as z from 'zod/mini';
import { deferred } from './blocks/deferred.js';
import type { Revision } from './types.js';
import { LEGACY_ERA_FEATURES } from './blocks/era-features.js';
import {
  CapabilityFlag,
  ExperimentalCapabilities,
  LoggingLevel,
  NotificationParams,
  PaginatedRequestParams,
  PaginatedResult,
  ProgressToken,
  RequestId,
  RequestParams,
  RequiredValue,
  Result,
  Role,
  notification,
  request,
} from './blocks/base.js';
import { jsonRpcEnvelope, methodTable } from './blocks/jsonrpc.js';

export const VERSION = '2024-11-05';

/* ---------- Initialization ---------- */

export const Implementation = deferred(() => z.looseObject({ name: z.string(), version: z.string() }));

export const ClientCapabilities = deferred(() => z.looseObject({
  experimental: z.optional(ExperimentalCapabilities),
  roots: z.optional(z.looseObject({ listChanged: z.optional(z.boolean()) })),
  sampling: z.optional(CapabilityFlag),
}));

export const ServerCapabilities = deferred(() => z.looseObject({
  experimental: z.optional(ExperimentalCapabilities),
  logging: z.optional(CapabilityFlag),
  prompts: z.optional(z.looseObject({ listChanged: z.optional(z.boolean()) })),
  resources: z.optional(z.looseObject({ subscribe: z.optional(z.boolean()), listChanged: z.optional(z.boolean()) })),
  tools: z.optional(z.looseObject({ listChanged: z.optional(z.boolean()) })),
}));

export const InitializeRequestParams = deferred(() => z.extend(RequestParams, {
  protocolVersion: z.string(),
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
}));

export const InitializeResult = deferred(() => z.extend(Result, {
  protocolVersion: z.string(),
  capabilities: ServerCapabilities,
  serverInfo: Implementation,
  instructions: z.optional(z.string()),
}));

/* ---------- Utilities ---------- */

export const CancelledNotificationParams = deferred(() => z.extend(NotificationParams, {
  requestId: RequestId,
  reason: z.optional(z.string()),
}));

export const ProgressNotificationParams = deferred(() => z.extend(NotificationParams, {
  progressToken: ProgressToken,
  progress: z.number(),
  total: z.optional(z.number()),
}));

export const SetLevelRequestParams = deferred(() => z.extend(RequestParams, { level: LoggingLevel }));

export const LoggingMessageNotificationParams = deferred(() => z.extend(NotificationParams, {
  level: LoggingLevel,
  logger: z.optional(z.string()),
  data: RequiredValue,
}));

/* ---------- Content ---------- */

/** `priority` is 0 (least important) to 1 (effectively required). */
export const Priority = deferred(() => z.number().check(z.gte(0), z.lte(1)));

export const Annotations = deferred(() => z.looseObject({
  audience: z.optional(z.array(Role)),
  priority: z.optional(Priority),
}));

export const TextContent = deferred(() => z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  annotations: z.optional(Annotations),
}));

export const ImageContent = deferred(() => z.looseObject({
  type: z.literal('image'),
  /** Base64-encoded image data. */
  data: z.string(),
  mimeType: z.string(),
  annotations: z.optional(Annotations),
}));

export const ResourceContents = deferred(() => z.looseObject({ uri: z.string(), mimeType: z.optional(z.string()) }));
export const TextResourceContents = deferred(() => z.extend(ResourceContents, { text: z.string() }));
export const BlobResourceContents = deferred(() => z.extend(ResourceContents, { blob: z.string() }));
export const AnyResourceContents = deferred(() => z.union([TextResourceContents, BlobResourceContents]));

export const EmbeddedResource = deferred(() => z.looseObject({
  type: z.literal('resource'),
  resource: AnyResourceContents,
  annotations: z.optional(Annotations),
}));

/** What a tool result or prompt message may hold in this revision. */
export const ContentBlock = deferred(() => z.discriminatedUnion('type', [TextContent, ImageContent, EmbeddedResource]));

/* ---------- Resources ---------- */

export const Resource = deferred(() => z.looseObject({
  uri: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  mimeType: z.optional(z.string()),
  annotations: z.optional(Annotations),
  size: z.optional(z.number()),
}));

export const ResourceTemplate = deferred(() => z.looseObject({
  uriTemplate: z.string(),
  name: z.string(),
  description: z.optional(z.string()),
  mimeType: z.optional(z.string()),
  annotations: z.optional(Annotations),
}));

export const ListResourcesResult = deferred(() => z.extend(PaginatedResult, { resources: z.array(Resource) }));
export const ListResourceTemplatesResult = deferred(() => z.extend(PaginatedResult, { resourceTemplates: z.array(ResourceTemplate) }));
/** Params of `resources/read`, `resources/subscribe` and `resources/unsubscribe`. */
export const ResourceRequestParams = deferred(() => z.extend(RequestParams, { uri: z.string() }));
export const ReadResourceResult = deferred(() => z.extend(Result, { contents: z.array(AnyResourceContents) }));
export const ResourceUpdatedNotificationParams = deferred(() => z.extend(NotificationParams, { uri: z.string() }));

/* ---------- Prompts ---------- */

export const PromptArgument = deferred(() => z.looseObject({
  name: z.string(),
  description: z.optional(z.string()),
  required: z.optional(z.boolean()),
}));

export const Prompt = deferred(() => z.looseObject({
  name: z.string(),
  description: z.optional(z.string()),
  arguments: z.optional(z.array(PromptArgument)),
}));

export const PromptMessage = deferred(() => z.looseObject({ role: Role, content: ContentBlock }));

export const ListPromptsResult = deferred(() => z.extend(PaginatedResult, { prompts: z.array(Prompt) }));

export const GetPromptRequestParams = deferred(() => z.extend(RequestParams, {
  name: z.string(),
  arguments: z.optional(z.record(z.string(), z.string())),
}));

export const GetPromptResult = deferred(() => z.extend(Result, {
  description: z.optional(z.string()),
  messages: z.array(PromptMessage),
}));

/* ---------- Tools ---------- */

/** A JSON Schema object describing a tool's arguments. */
export const ToolInputSchema = deferred(() => z.looseObject({
  type: z.literal('object'),
  properties: z.optional(z.record(z.string(), z.looseObject({}))),
  required: z.optional(z.array(z.string())),
}));

export const Tool = deferred(() => z.looseObject({
  name: z.string(),
  description: z.optional(z.string()),
  inputSchema: ToolInputSchema,
}));

export const ListToolsResult = deferred(() => z.extend(PaginatedResult, { tools: z.array(Tool) }));

export const CallToolRequestParams = deferred(() => z.extend(RequestParams, {
  name: z.string(),
  arguments: z.optional(z.record(z.string(), z.unknown())),
}));

export const CallToolResult = deferred(() => z.extend(Result, {
  content: z.array(ContentBlock),
  isError: z.optional(z.boolean()),
}));

/* ---------- Sampling ---------- */

export const SamplingContent = deferred(() => z.discriminatedUnion('type', [TextContent, ImageContent]));

export const SamplingMessage = deferred(() => z.looseObject({ role: Role, content: SamplingContent }));

export const ModelHint = deferred(() => z.looseObject({ name: z.optional(z.string()) }));

export const ModelPreferences = deferred(() => z.looseObject({
  hints: z.optional(z.array(ModelHint)),
  costPriority: z.optional(Priority),
  speedPriority: z.optional(Priority),
  intelligencePriority: z.optional(Priority),
}));

export const IncludeContext = deferred(() => z.enum(['none', 'thisServer', 'allServers']));

export const CreateMessageRequestParams = deferred(() => z.extend(RequestParams, {
  messages: z.array(SamplingMessage),
  modelPreferences: z.optional(ModelPreferences),
  systemPrompt: z.optional(z.string()),
  includeContext: z.optional(IncludeContext),
  temperature: z.optional(z.number()),
  maxTokens: z.number(),
  stopSequences: z.optional(z.array(z.string())),
  metadata: z.optional(z.looseObject({})),
}));

/** `stopReason` is open: `endTurn`, `stopSequence`, `maxTokens` or any provider string. */
export const StopReason = deferred(() => z.string());

export const CreateMessageResult = deferred(() => z.extend(Result, {
  role: Role,
  content: SamplingContent,
  model: z.string(),
  stopReason: z.optional(StopReason),
}));

/* ---------- Completion ---------- */

export const PromptReference = deferred(() => z.looseObject({ type: z.literal('ref/prompt'), name: z.string() }));
export const ResourceReference = deferred(() => z.looseObject({ type: z.literal('ref/resource'), uri: z.string() }));

export const CompletionArgument = deferred(() => z.looseObject({ name: z.string(), value: z.string() }));

export const CompleteRequestParams = deferred(() => z.extend(RequestParams, {
  ref: z.discriminatedUnion('type', [PromptReference, ResourceReference]),
  argument: CompletionArgument,
}));

export const CompleteResult = deferred(() => z.extend(Result, {
  completion: z.looseObject({
    /** At most 100 values. */
    values: z.array(z.string()).check(z.maxLength(100)),
    total: z.optional(z.number()),
    hasMore: z.optional(z.boolean()),
  }),
}));

/* ---------- Roots ---------- */

export const Root = deferred(() => z.looseObject({ uri: z.string(), name: z.optional(z.string()) }));
export const ListRootsResult = deferred(() => z.extend(Result, { roots: z.array(Root) }));

/* ---------- The method tables ---------- */

export const requests = methodTable({
  initialize: request('clientToServer', InitializeRequestParams, InitializeResult),
  ping: request('both', RequestParams, Result),
  'resources/list': request('clientToServer', PaginatedRequestParams, ListResourcesResult),
  'resources/templates/list': request('clientToServer', PaginatedRequestParams, ListResourceTemplatesResult),
  'resources/read': request('clientToServer', ResourceRequestParams, ReadResourceResult),
  'resources/subscribe': request('clientToServer', ResourceRequestParams, Result),
  'resources/unsubscribe': request('clientToServer', ResourceRequestParams, Result),
  'prompts/list': request('clientToServer', PaginatedRequestParams, ListPromptsResult),
  'prompts/get': request('clientToServer', GetPromptRequestParams, GetPromptResult),
  'tools/list': request('clientToServer', PaginatedRequestParams, ListToolsResult),
  'tools/call': request('clientToServer', CallToolRequestParams, CallToolResult),
  'logging/setLevel': request('clientToServer', SetLevelRequestParams, Result),
  'completion/complete': request('clientToServer', CompleteRequestParams, CompleteResult),
  'sampling/createMessage': request('serverToClient', CreateMessageRequestParams, CreateMessageResult),
  'roots/list': request('serverToClient', RequestParams, ListRootsResult),
} as const);

export const notifications = methodTable({
  'notifications/initialized': notification('clientToServer', NotificationParams),
  'notifications/cancelled': notification('both', CancelledNotificationParams),
  'notifications/progress': notification('both', ProgressNotificationParams),
  'notifications/message': notification('serverToClient', LoggingMessageNotificationParams),
  'notifications/resources/updated': notification('serverToClient', ResourceUpdatedNotificationParams),
  'notifications/resources/list_changed': notification('serverToClient', NotificationParams),
  'notifications/tools/list_changed': notification('serverToClient', NotificationParams),
  'notifications/prompts/list_changed': notification('serverToClient', NotificationParams),
  'notifications/roots/list_changed': notification('clientToServer', NotificationParams),
} as const);

export const envelope = jsonRpcEnvelope({ requests, notifications, errorId: 'required' });

export const revision_2024_11_05: Revision = {
  version: VERSION,
  era: 'legacy',
  features: {
    batching: false,
    toolAnnotations: false,
    progressMessage: false,
    completionsCapability: false,
    title: false,
    structuredOutput: false,
    elicitation: false,
    validationAsToolError: false,
    icons: false,
    tasks: false,
    urlElicitation: false,
    samplingTools: false,
    reservedMetaPrefix: 'any-label',
    protocolVersionHeader: false,
    ssePriming: false,
    ...LEGACY_ERA_FEATURES,
  },
  requests,
  notifications,
  schemas: {
    Implementation,
    ClientCapabilities,
    ServerCapabilities,
    InitializeRequestParams,
    InitializeResult,
    Tool,
    CallToolResult,
    ContentBlock,
    Resource,
    ResourceTemplate,
    Prompt,
    PromptMessage,
    SamplingMessage,
    ResourceContents: AnyResourceContents,
    Root,
    LoggingLevel,
    ...envelope,
  },
};
