/**
 * Protocol revision 2025-11-25 (V4), extending 2025-06-18 with: icons and richer
 * `Implementation` metadata, URL-mode elicitation (+ `notifications/elicitation/complete`
 * and the -32042 error), tool use in sampling, tool `execution` hints, JSON Schema
 * `$schema`, richer elicitation enums and defaults, and experimental tasks.
 * An error response may omit `id` when the request's id could not be read.
 */
import * as z from 'zod/mini';
import { deferred, deferredShape } from './blocks/deferred.js';
import type { Revision } from './types.js';
import * as V3 from './v2025-06-18.js';
import {
  LoggingLevel,
  Meta,
  NotificationParams,
  PaginatedRequestParams,
  PaginatedResult,
  RequestId,
  RequestParams,
  Result,
  notification,
  request,
} from './blocks/base.js';
import { ElicitContentV4, RequestedSchemaV4 } from './blocks/elicitation.js';
import { jsonRpcEnvelope, methodTable } from './blocks/jsonrpc.js';
import {
  CreateTaskResult,
  GetTaskPayloadResult,
  ListTasksResult,
  Task,
  TaskIdRequestParams,
  TaskMetadata,
  TaskResult,
  TaskStatus,
  TaskStatusNotificationParams,
  taskAugmented,
} from './blocks/tasks.js';

export const VERSION = '2025-11-25';

export { CreateTaskResult, GetTaskPayloadResult, ListTasksResult, Task, TaskMetadata, TaskResult, TaskStatus, TaskStatusNotificationParams };

const meta = deferredShape(() => ({ _meta: z.optional(Meta) }));

/* ---------- Icons, initialization ---------- */

export const Icon = deferred(() => z.looseObject({
  /** A URI (https: or data:) of the icon. */
  src: z.string(),
  mimeType: z.optional(z.string()),
  /** Sizes such as `"48x48"` or `"any"`. */
  sizes: z.optional(z.array(z.string())),
  theme: z.optional(z.enum(['light', 'dark'])),
}));

const icons = deferredShape(() => ({ icons: z.optional(z.array(Icon)) }));

export const Implementation = deferred(() => z.extend(V3.Implementation, {
  ...icons,
  description: z.optional(z.string()),
  websiteUrl: z.optional(z.string()),
}));

const flag = deferred(() => z.optional(z.looseObject({})));

export const ClientCapabilities = deferred(() => z.extend(V3.ClientCapabilities, {
  sampling: z.optional(z.looseObject({ context: flag, tools: flag })),
  /** `{}` means form mode only. */
  elicitation: z.optional(z.looseObject({ form: flag, url: flag })),
  tasks: z.optional(z
    .looseObject({
      list: flag,
      cancel: flag,
      requests: z.optional(z
        .looseObject({
          sampling: z.optional(z.looseObject({ createMessage: flag })),
          elicitation: z.optional(z.looseObject({ create: flag })),
        })),
    })),
}));

export const ServerCapabilities = deferred(() => z.extend(V3.ServerCapabilities, {
  tasks: z.optional(z
    .looseObject({
      list: flag,
      cancel: flag,
      requests: z.optional(z.looseObject({ tools: z.optional(z.looseObject({ call: flag })) })),
    })),
}));

export const InitializeRequestParams = deferred(() => z.extend(V3.InitializeRequestParams, {
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
}));

export const InitializeResult = deferred(() => z.extend(V3.InitializeResult, { capabilities: ServerCapabilities, serverInfo: Implementation }));

/* ---------- Utilities ---------- */

/** `requestId` became optional: task-augmented requests are cancelled with `tasks/cancel`. */
export const CancelledNotificationParams = deferred(() => z.extend(V3.CancelledNotificationParams, { requestId: z.optional(RequestId) }));
export const ProgressNotificationParams = V3.ProgressNotificationParams;
export const SetLevelRequestParams = V3.SetLevelRequestParams;
export const LoggingMessageNotificationParams = V3.LoggingMessageNotificationParams;

/* ---------- Content ---------- */

export const Annotations = V3.Annotations;
export const TextContent = V3.TextContent;
export const ImageContent = V3.ImageContent;
export const AudioContent = V3.AudioContent;
export const ResourceContents = V3.ResourceContents;
export const TextResourceContents = V3.TextResourceContents;
export const BlobResourceContents = V3.BlobResourceContents;
export const AnyResourceContents = V3.AnyResourceContents;
export const EmbeddedResource = V3.EmbeddedResource;

export const Resource = deferred(() => z.extend(V3.Resource, icons));
export const ResourceLink = deferred(() => z.extend(Resource, { type: z.literal('resource_link') }));

export const ContentBlock = deferred(() => z.discriminatedUnion('type', [TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource]));

/* ---------- Resources ---------- */

export const ResourceTemplate = deferred(() => z.extend(V3.ResourceTemplate, icons));
export const ListResourcesResult = deferred(() => z.extend(PaginatedResult, { resources: z.array(Resource) }));
export const ListResourceTemplatesResult = deferred(() => z.extend(PaginatedResult, { resourceTemplates: z.array(ResourceTemplate) }));
export const ResourceRequestParams = V3.ResourceRequestParams;
export const ReadResourceResult = V3.ReadResourceResult;
export const ResourceUpdatedNotificationParams = V3.ResourceUpdatedNotificationParams;

/* ---------- Prompts ---------- */

export const PromptArgument = V3.PromptArgument;
export const Prompt = deferred(() => z.extend(V3.Prompt, icons));
export const PromptMessage = deferred(() => z.extend(V3.PromptMessage, { content: ContentBlock }));
export const ListPromptsResult = deferred(() => z.extend(PaginatedResult, { prompts: z.array(Prompt) }));
export const GetPromptRequestParams = V3.GetPromptRequestParams;
export const GetPromptResult = deferred(() => z.extend(V3.GetPromptResult, { messages: z.array(PromptMessage) }));

/* ---------- Tools ---------- */

export const ToolAnnotations = V3.ToolAnnotations;
export const ToolInputSchema = deferred(() => z.extend(V3.ToolInputSchema, { $schema: z.optional(z.string()) }));
export const ToolOutputSchema = ToolInputSchema;

export const TaskSupport = deferred(() => z.enum(['forbidden', 'optional', 'required']));
/** How a tool may be executed; `taskSupport` defaults to `"forbidden"`. */
export const ToolExecution = deferred(() => z.looseObject({ taskSupport: z.optional(TaskSupport) }));

export const Tool = deferred(() => z.extend(V3.Tool, {
  ...icons,
  inputSchema: ToolInputSchema,
  outputSchema: z.optional(ToolOutputSchema),
  execution: z.optional(ToolExecution),
}));
export const ListToolsResult = deferred(() => z.extend(PaginatedResult, { tools: z.array(Tool) }));
export const CallToolRequestParams = deferred(() => z.extend(V3.CallToolRequestParams, taskAugmented));
export const CallToolResult = deferred(() => z.extend(V3.CallToolResult, { content: z.array(ContentBlock) }));

/* ---------- Sampling ---------- */

export const ToolUseContent = deferred(() => z.looseObject({
  type: z.literal('tool_use'),
  /** Identifies this call; matched by `ToolResultContent.toolUseId`. */
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  ...meta,
}));

export const ToolResultContent = deferred(() => z.looseObject({
  type: z.literal('tool_result'),
  toolUseId: z.string(),
  content: z.array(ContentBlock),
  structuredContent: z.optional(z.record(z.string(), z.unknown())),
  isError: z.optional(z.boolean()),
  ...meta,
}));

export const SamplingMessageContentBlock = deferred(() => z.discriminatedUnion('type', [
  TextContent,
  ImageContent,
  AudioContent,
  ToolUseContent,
  ToolResultContent,
]));

/** One content block, or several. */
export const SamplingContent = deferred(() => z.union([SamplingMessageContentBlock, z.array(SamplingMessageContentBlock)]));

export const SamplingMessage = deferred(() => z.extend(V3.SamplingMessage, { content: SamplingContent, ...meta }));
export const ModelHint = V3.ModelHint;
export const ModelPreferences = V3.ModelPreferences;
export const ToolChoice = deferred(() => z.looseObject({ mode: z.optional(z.enum(['auto', 'required', 'none'])) }));

export const CreateMessageRequestParams = deferred(() => z.extend(V3.CreateMessageRequestParams, {
  messages: z.array(SamplingMessage),
  /** Tools the model may call; needs the client's `sampling.tools` capability. */
  tools: z.optional(z.array(Tool)),
  toolChoice: z.optional(ToolChoice),
  ...taskAugmented,
}));

/** `stopReason` is open: `endTurn`, `stopSequence`, `maxTokens`, `toolUse` or any provider string. */
export const CreateMessageResult = deferred(() => z.extend(V3.CreateMessageResult, { content: SamplingContent }));

/* ---------- Completion, roots ---------- */

export const PromptReference = V3.PromptReference;
export const ResourceTemplateReference = V3.ResourceTemplateReference;
export const CompleteRequestParams = V3.CompleteRequestParams;
export const CompleteResult = V3.CompleteResult;
export const Root = V3.Root;
export const ListRootsResult = V3.ListRootsResult;

/* ---------- Elicitation ---------- */

export const ElicitRequestFormParams = deferred(() => z.extend(RequestParams, {
  mode: z.optional(z.literal('form')),
  message: z.string(),
  requestedSchema: RequestedSchemaV4,
  ...taskAugmented,
}));

export const ElicitRequestURLParams = deferred(() => z.extend(RequestParams, {
  mode: z.literal('url'),
  message: z.string(),
  /** Unique id of this elicitation, echoed by `notifications/elicitation/complete`. */
  elicitationId: z.string(),
  url: z.string(),
  ...taskAugmented,
}));

export const ElicitRequestParams = deferred(() => z.union([ElicitRequestURLParams, ElicitRequestFormParams]));

export const ElicitResult = deferred(() => z.extend(V3.ElicitResult, { content: z.optional(ElicitContentV4) }));

export const ElicitationCompleteNotificationParams = deferred(() => z.extend(NotificationParams, { elicitationId: z.string() }));

/** `error.data` of the -32042 URL_ELICITATION_REQUIRED error. */
export const UrlElicitationRequiredErrorData = deferred(() => z.looseObject({ elicitations: z.array(ElicitRequestURLParams) }));
export const URL_ELICITATION_REQUIRED = -32042;

/* ---------- The method tables ---------- */

/** A task-augmentable request answers either normally or with a `CreateTaskResult` (built at first use, like the rest). */
function orTask<R extends z.ZodMiniType>(result: R) {
  return deferred(() => z.union([result, CreateTaskResult]));
}

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
  'tools/call': request('clientToServer', CallToolRequestParams, orTask(CallToolResult)),
  'logging/setLevel': request('clientToServer', SetLevelRequestParams, Result),
  'completion/complete': request('clientToServer', CompleteRequestParams, CompleteResult),
  'sampling/createMessage': request('serverToClient', CreateMessageRequestParams, orTask(CreateMessageResult)),
  'elicitation/create': request('serverToClient', ElicitRequestParams, orTask(ElicitResult)),
  'roots/list': request('serverToClient', RequestParams, ListRootsResult),
  'tasks/get': request('both', TaskIdRequestParams, TaskResult),
  'tasks/result': request('both', TaskIdRequestParams, GetTaskPayloadResult),
  'tasks/list': request('both', PaginatedRequestParams, ListTasksResult),
  'tasks/cancel': request('both', TaskIdRequestParams, TaskResult),
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
  'notifications/elicitation/complete': notification('serverToClient', ElicitationCompleteNotificationParams),
  'notifications/tasks/status': notification('both', TaskStatusNotificationParams),
} as const);

export const envelope = jsonRpcEnvelope({
  requests,
  notifications,
  errorId: 'optional',
  errorData: { [URL_ELICITATION_REQUIRED]: UrlElicitationRequiredErrorData },
});

export const revision_2025_11_25: Revision = {
  version: VERSION,
  era: 'legacy',
  // What changed since 2025-06-18: SEP-1303 tool errors, icons, core tasks, URL elicitation, sampling tools,
  // the second-label `_meta` prefix rule, SSE priming.
  features: {
    ...V3.revision_2025_06_18.features,
    validationAsToolError: true,
    icons: true,
    tasks: true,
    urlElicitation: true,
    samplingTools: true,
    reservedMetaPrefix: 'second-label',
    ssePriming: true,
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
    Task,
    CreateTaskResult,
  },
};
