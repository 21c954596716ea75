/**
 * Protocol revision 2024-11-05 (V1): the first published revision. stdio and HTTP+SSE,
 * no batching, no audio, no tool annotations, no `completions` capability (although
 * `completion/complete` exists), no progress `message`.
 *
 * Later revisions import these building blocks and extend them.
 */
import * as z from 'zod';
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
  experimental: ExperimentalCapabilities.optional(),
  roots: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  sampling: CapabilityFlag.optional(),
}));

export const ServerCapabilities = deferred(() => z.looseObject({
  experimental: ExperimentalCapabilities.optional(),
  logging: CapabilityFlag.optional(),
  prompts: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  resources: z.looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() }).optional(),
  tools: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
}));

export const InitializeRequestParams = deferred(() => RequestParams.extend({
  protocolVersion: z.string(),
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
}));

export const InitializeResult = deferred(() => Result.extend({
  protocolVersion: z.string(),
  capabilities: ServerCapabilities,
  serverInfo: Implementation,
  instructions: z.string().optional(),
}));

/* ---------- Utilities ---------- */

export const CancelledNotificationParams = deferred(() => NotificationParams.extend({
  requestId: RequestId,
  reason: z.string().optional(),
}));

export const ProgressNotificationParams = deferred(() => NotificationParams.extend({
  progressToken: ProgressToken,
  progress: z.number(),
  total: z.number().optional(),
}));

export const SetLevelRequestParams = deferred(() => RequestParams.extend({ level: LoggingLevel }));

export const LoggingMessageNotificationParams = deferred(() => NotificationParams.extend({
  level: LoggingLevel,
  logger: z.string().optional(),
  data: RequiredValue,
}));

/* ---------- Content ---------- */

/** `priority` is 0 (least important) to 1 (effectively required). */
export const Priority = deferred(() => z.number().min(0).max(1));

export const Annotations = deferred(() => z.looseObject({
  audience: z.array(Role).optional(),
  priority: Priority.optional(),
}));

export const TextContent = deferred(() => z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  annotations: Annotations.optional(),
}));

export const ImageContent = deferred(() => z.looseObject({
  type: z.literal('image'),
  /** Base64-encoded image data. */
  data: z.string(),
  mimeType: z.string(),
  annotations: Annotations.optional(),
}));

export const ResourceContents = deferred(() => z.looseObject({ uri: z.string(), mimeType: z.string().optional() }));
export const TextResourceContents = deferred(() => ResourceContents.extend({ text: z.string() }));
export const BlobResourceContents = deferred(() => ResourceContents.extend({ blob: z.string() }));
export const AnyResourceContents = deferred(() => z.union([TextResourceContents, BlobResourceContents]));

export const EmbeddedResource = deferred(() => z.looseObject({
  type: z.literal('resource'),
  resource: AnyResourceContents,
  annotations: Annotations.optional(),
}));

/** What a tool result or prompt message may hold in this revision. */
export const ContentBlock = deferred(() => z.discriminatedUnion('type', [TextContent, ImageContent, EmbeddedResource]));

/* ---------- Resources ---------- */

export const Resource = deferred(() => z.looseObject({
  uri: z.string(),
  name: z.string(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: Annotations.optional(),
  size: z.number().optional(),
}));

export const ResourceTemplate = deferred(() => z.looseObject({
  uriTemplate: z.string(),
  name: z.string(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: Annotations.optional(),
}));

export const ListResourcesResult = deferred(() => PaginatedResult.extend({ resources: z.array(Resource) }));
export const ListResourceTemplatesResult = deferred(() => PaginatedResult.extend({ resourceTemplates: z.array(ResourceTemplate) }));
/** Params of `resources/read`, `resources/subscribe` and `resources/unsubscribe`. */
export const ResourceRequestParams = deferred(() => RequestParams.extend({ uri: z.string() }));
export const ReadResourceResult = deferred(() => Result.extend({ contents: z.array(AnyResourceContents) }));
export const ResourceUpdatedNotificationParams = deferred(() => NotificationParams.extend({ uri: z.string() }));

/* ---------- Prompts ---------- */

export const PromptArgument = deferred(() => z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  required: z.boolean().optional(),
}));

export const Prompt = deferred(() => z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  arguments: z.array(PromptArgument).optional(),
}));

export const PromptMessage = deferred(() => z.looseObject({ role: Role, content: ContentBlock }));

export const ListPromptsResult = deferred(() => PaginatedResult.extend({ prompts: z.array(Prompt) }));

export const GetPromptRequestParams = deferred(() => RequestParams.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.string()).optional(),
}));

export const GetPromptResult = deferred(() => Result.extend({
  description: z.string().optional(),
  messages: z.array(PromptMessage),
}));

/* ---------- Tools ---------- */

/** A JSON Schema object describing a tool's arguments. */
export const ToolInputSchema = deferred(() => z.looseObject({
  type: z.literal('object'),
  properties: z.record(z.string(), z.looseObject({})).optional(),
  required: z.array(z.string()).optional(),
}));

export const Tool = deferred(() => z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  inputSchema: ToolInputSchema,
}));

export const ListToolsResult = deferred(() => PaginatedResult.extend({ tools: z.array(Tool) }));

export const CallToolRequestParams = deferred(() => RequestParams.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
}));

export const CallToolResult = deferred(() => Result.extend({
  content: z.array(ContentBlock),
  isError: z.boolean().optional(),
}));

/* ---------- Sampling ---------- */

export const SamplingContent = deferred(() => z.discriminatedUnion('type', [TextContent, ImageContent]));

export const SamplingMessage = deferred(() => z.looseObject({ role: Role, content: SamplingContent }));

export const ModelHint = deferred(() => z.looseObject({ name: z.string().optional() }));

export const ModelPreferences = deferred(() => z.looseObject({
  hints: z.array(ModelHint).optional(),
  costPriority: Priority.optional(),
  speedPriority: Priority.optional(),
  intelligencePriority: Priority.optional(),
}));

export const IncludeContext = deferred(() => z.enum(['none', 'thisServer', 'allServers']));

export const CreateMessageRequestParams = deferred(() => RequestParams.extend({
  messages: z.array(SamplingMessage),
  modelPreferences: ModelPreferences.optional(),
  systemPrompt: z.string().optional(),
  includeContext: IncludeContext.optional(),
  temperature: z.number().optional(),
  maxTokens: z.number(),
  stopSequences: z.array(z.string()).optional(),
  metadata: z.looseObject({}).optional(),
}));

/** `stopReason` is open: `endTurn`, `stopSequence`, `maxTokens` or any provider string. */
export const StopReason = deferred(() => z.string());

export const CreateMessageResult = deferred(() => Result.extend({
  role: Role,
  content: SamplingContent,
  model: z.string(),
  stopReason: StopReason.optional(),
}));

/* ---------- Completion ---------- */

export const PromptReference = deferred(() => z.looseObject({ type: z.literal('ref/prompt'), name: z.string() }));
export const ResourceReference = deferred(() => z.looseObject({ type: z.literal('ref/resource'), uri: z.string() }));

export const CompletionArgument = deferred(() => z.looseObject({ name: z.string(), value: z.string() }));

export const CompleteRequestParams = deferred(() => RequestParams.extend({
  ref: z.discriminatedUnion('type', [PromptReference, ResourceReference]),
  argument: CompletionArgument,
}));

export const CompleteResult = deferred(() => Result.extend({
  completion: z.looseObject({
    /** At most 100 values. */
    values: z.array(z.string()).max(100),
    total: z.number().optional(),
    hasMore: z.boolean().optional(),
  }),
}));

/* ---------- Roots ---------- */

export const Root = deferred(() => z.looseObject({ uri: z.string(), name: z.string().optional() }));
export const ListRootsResult = deferred(() => Result.extend({ roots: z.array(Root) }));

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
