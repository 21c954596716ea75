/**
 * Protocol revision 2025-03-26 (V2), extending 2024-11-05 with: JSON-RPC batching (the
 * only revision that has it), audio content, tool annotations, the `completions` server
 * capability, and an optional progress `message`.
 */
import * as z from 'zod/mini';
import { deferred } from './blocks/deferred.js';
import type { Revision } from './types.js';
import * as V1 from './v2024-11-05.js';
import { LoggingLevel, NotificationParams, PaginatedRequestParams, PaginatedResult, RequestParams, Result, notification, request } from './blocks/base.js';
import { jsonRpcEnvelope, methodTable } from './blocks/jsonrpc.js';

export const VERSION = '2025-03-26';

/* ---------- Initialization ---------- */

export const Implementation = V1.Implementation;
export const ClientCapabilities = V1.ClientCapabilities;

export const ServerCapabilities = deferred(() => z.extend(V1.ServerCapabilities, {
  /** Present if the server offers argument completion (`completion/complete`). */
  completions: z.optional(z.looseObject({})),
}));

export const InitializeRequestParams = V1.InitializeRequestParams;
export const InitializeResult = deferred(() => z.extend(V1.InitializeResult, { capabilities: ServerCapabilities }));

/* ---------- Utilities ---------- */

export const CancelledNotificationParams = V1.CancelledNotificationParams;
export const ProgressNotificationParams = deferred(() => z.extend(V1.ProgressNotificationParams, { message: z.optional(z.string()) }));
export const SetLevelRequestParams = V1.SetLevelRequestParams;
export const LoggingMessageNotificationParams = V1.LoggingMessageNotificationParams;

/* ---------- Content ---------- */

export const Annotations = V1.Annotations;
export const TextContent = V1.TextContent;
export const ImageContent = V1.ImageContent;

export const AudioContent = deferred(() => z.looseObject({
  type: z.literal('audio'),
  /** Base64-encoded audio data. */
  data: z.string(),
  mimeType: z.string(),
  annotations: z.optional(Annotations),
}));

export const ResourceContents = V1.ResourceContents;
export const TextResourceContents = V1.TextResourceContents;
export const BlobResourceContents = V1.BlobResourceContents;
export const AnyResourceContents = V1.AnyResourceContents;
export const EmbeddedResource = V1.EmbeddedResource;

export const ContentBlock = deferred(() => z.discriminatedUnion('type', [TextContent, ImageContent, AudioContent, EmbeddedResource]));

/* ---------- Resources ---------- */

export const Resource = V1.Resource;
export const ResourceTemplate = V1.ResourceTemplate;
export const ListResourcesResult = V1.ListResourcesResult;
export const ListResourceTemplatesResult = V1.ListResourceTemplatesResult;
export const ResourceRequestParams = V1.ResourceRequestParams;
export const ReadResourceResult = V1.ReadResourceResult;
export const ResourceUpdatedNotificationParams = V1.ResourceUpdatedNotificationParams;

/* ---------- Prompts ---------- */

export const PromptArgument = V1.PromptArgument;
export const Prompt = V1.Prompt;
export const PromptMessage = deferred(() => z.extend(V1.PromptMessage, { content: ContentBlock }));
export const ListPromptsResult = V1.ListPromptsResult;
export const GetPromptRequestParams = V1.GetPromptRequestParams;
export const GetPromptResult = deferred(() => z.extend(V1.GetPromptResult, { messages: z.array(PromptMessage) }));

/* ---------- Tools ---------- */

/** Hints about a tool's behaviour. Untrusted: never base safety decisions on them. */
export const ToolAnnotations = deferred(() => z.looseObject({
  title: z.optional(z.string()),
  readOnlyHint: z.optional(z.boolean()),
  destructiveHint: z.optional(z.boolean()),
  idempotentHint: z.optional(z.boolean()),
  openWorldHint: z.optional(z.boolean()),
}));

export const ToolInputSchema = V1.ToolInputSchema;
export const Tool = deferred(() => z.extend(V1.Tool, { annotations: z.optional(ToolAnnotations) }));
export const ListToolsResult = deferred(() => z.extend(PaginatedResult, { tools: z.array(Tool) }));
export const CallToolRequestParams = V1.CallToolRequestParams;
export const CallToolResult = deferred(() => z.extend(V1.CallToolResult, { content: z.array(ContentBlock) }));

/* ---------- Sampling ---------- */

export const SamplingContent = deferred(() => z.discriminatedUnion('type', [TextContent, ImageContent, AudioContent]));
export const SamplingMessage = deferred(() => z.extend(V1.SamplingMessage, { content: SamplingContent }));
export const ModelHint = V1.ModelHint;
export const ModelPreferences = V1.ModelPreferences;
export const CreateMessageRequestParams = deferred(() => z.extend(V1.CreateMessageRequestParams, { messages: z.array(SamplingMessage) }));
export const CreateMessageResult = deferred(() => z.extend(V1.CreateMessageResult, { content: SamplingContent }));

/* ---------- Completion, roots ---------- */

export const PromptReference = V1.PromptReference;
export const ResourceReference = V1.ResourceReference;
export const CompleteRequestParams = V1.CompleteRequestParams;
export const CompleteResult = V1.CompleteResult;
export const Root = V1.Root;
export const ListRootsResult = V1.ListRootsResult;

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

/**
 * A JSON-RPC batch: a non-empty array of requests and notifications, or a non-empty array
 * of responses. `initialize` must not be part of a batch.
 */
export const JsonRpcBatch = deferred(() => z.union([
  z
    .array(z.union([envelope.JsonRpcRequest, envelope.JsonRpcNotification]))
    .check(z.minLength(1), z.refine((items) => !items.some((item) => (item as { method?: unknown }).method === 'initialize'), {
      message: 'initialize must not be part of a JSON-RPC batch',
    })),
  z.array(z.union([envelope.JsonRpcResultResponse, envelope.JsonRpcErrorResponse])).check(z.minLength(1)),
]));

export const revision_2025_03_26: Revision = {
  version: VERSION,
  era: 'legacy',
  // What changed since 2024-11-05 (MCP 2025-11-25 basic/lifecycle): batching, annotations,
  // progress messages, completions.
  features: { ...V1.revision_2024_11_05.features, batching: true, toolAnnotations: true, progressMessage: true, completionsCapability: true },
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
    JsonRpcBatch,
  },
};
