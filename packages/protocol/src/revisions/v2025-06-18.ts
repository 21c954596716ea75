/**
 * Protocol revision 2025-06-18 (V3), extending 2025-03-26 with: display `title`s
 * (`BaseMetadata`), `_meta` on data objects, `lastModified` annotations, resource links,
 * structured tool output (`outputSchema` / `structuredContent`), completion `context`,
 * and form elicitation (`elicitation/create`). JSON-RPC batching is removed again.
 */
import * as z from 'zod/mini';
import { deferred, deferredShape } from './blocks/deferred.js';
import type { Revision } from './types.js';
import * as V2 from './v2025-03-26.js';
import {
  LoggingLevel,
  Meta,
  NotificationParams,
  PaginatedRequestParams,
  PaginatedResult,
  RequestParams,
  Result,
  notification,
  request,
} from './blocks/base.js';
import { ElicitAction, ElicitContentV3, RequestedSchemaV3 } from './blocks/elicitation.js';
import { jsonRpcEnvelope, methodTable } from './blocks/jsonrpc.js';

export const VERSION = '2025-06-18';

/** `_meta` as an optional member of a data object. */
const meta = deferredShape(() => ({ _meta: z.optional(Meta) }));
/** `BaseMetadata.title`: a display name; `name` stays the programmatic identifier. */
const title = deferredShape(() => ({ title: z.optional(z.string()) }));

/* ---------- Initialization ---------- */

export const Implementation = deferred(() => z.extend(V2.Implementation, title));

export const ClientCapabilities = deferred(() => z.extend(V2.ClientCapabilities, {
  /** Present if the client supports `elicitation/create`. */
  elicitation: z.optional(z.looseObject({})),
}));

export const ServerCapabilities = V2.ServerCapabilities;

export const InitializeRequestParams = deferred(() => z.extend(V2.InitializeRequestParams, {
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
}));

export const InitializeResult = deferred(() => z.extend(V2.InitializeResult, { serverInfo: Implementation }));

/* ---------- Utilities ---------- */

export const CancelledNotificationParams = V2.CancelledNotificationParams;
export const ProgressNotificationParams = V2.ProgressNotificationParams;
export const SetLevelRequestParams = V2.SetLevelRequestParams;
export const LoggingMessageNotificationParams = V2.LoggingMessageNotificationParams;

/* ---------- Content ---------- */

export const Annotations = deferred(() => z.extend(V2.Annotations, {
  /** ISO 8601 timestamp of the last modification. */
  lastModified: z.optional(z.string()),
}));

const annotated = deferredShape(() => ({ annotations: z.optional(Annotations), ...meta }));

export const TextContent = deferred(() => z.extend(V2.TextContent, annotated));
export const ImageContent = deferred(() => z.extend(V2.ImageContent, annotated));
export const AudioContent = deferred(() => z.extend(V2.AudioContent, annotated));

export const ResourceContents = deferred(() => z.extend(V2.ResourceContents, meta));
export const TextResourceContents = deferred(() => z.extend(ResourceContents, { text: z.string() }));
export const BlobResourceContents = deferred(() => z.extend(ResourceContents, { blob: z.string() }));
export const AnyResourceContents = deferred(() => z.union([TextResourceContents, BlobResourceContents]));

export const EmbeddedResource = deferred(() => z.extend(V2.EmbeddedResource, { resource: AnyResourceContents, ...annotated }));

export const Resource = deferred(() => z.extend(V2.Resource, { ...title, ...annotated }));

/** A link to a resource, returned by a tool or prompt; it need not appear in `resources/list`. */
export const ResourceLink = deferred(() => z.extend(Resource, { type: z.literal('resource_link') }));

export const ContentBlock = deferred(() => z.discriminatedUnion('type', [TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource]));

/* ---------- Resources ---------- */

export const ResourceTemplate = deferred(() => z.extend(V2.ResourceTemplate, { ...title, ...annotated }));
export const ListResourcesResult = deferred(() => z.extend(PaginatedResult, { resources: z.array(Resource) }));
export const ListResourceTemplatesResult = deferred(() => z.extend(PaginatedResult, { resourceTemplates: z.array(ResourceTemplate) }));
export const ResourceRequestParams = V2.ResourceRequestParams;
export const ReadResourceResult = deferred(() => z.extend(Result, { contents: z.array(AnyResourceContents) }));
export const ResourceUpdatedNotificationParams = V2.ResourceUpdatedNotificationParams;

/* ---------- Prompts ---------- */

export const PromptArgument = deferred(() => z.extend(V2.PromptArgument, title));
export const Prompt = deferred(() => z.extend(V2.Prompt, { ...title, arguments: z.optional(z.array(PromptArgument)), ...meta }));
export const PromptMessage = deferred(() => z.extend(V2.PromptMessage, { content: ContentBlock }));
export const ListPromptsResult = deferred(() => z.extend(PaginatedResult, { prompts: z.array(Prompt) }));
export const GetPromptRequestParams = V2.GetPromptRequestParams;
export const GetPromptResult = deferred(() => z.extend(V2.GetPromptResult, { messages: z.array(PromptMessage) }));

/* ---------- Tools ---------- */

export const ToolAnnotations = V2.ToolAnnotations;
export const ToolInputSchema = V2.ToolInputSchema;
/** A JSON Schema object describing a tool's `structuredContent`. */
export const ToolOutputSchema = V2.ToolInputSchema;

export const Tool = deferred(() => z.extend(V2.Tool, { ...title, outputSchema: z.optional(ToolOutputSchema), ...meta }));
export const ListToolsResult = deferred(() => z.extend(PaginatedResult, { tools: z.array(Tool) }));
export const CallToolRequestParams = V2.CallToolRequestParams;
export const CallToolResult = deferred(() => z.extend(V2.CallToolResult, {
  content: z.array(ContentBlock),
  /** Structured output; conforms to the tool's `outputSchema` when it has one. */
  structuredContent: z.optional(z.record(z.string(), z.unknown())),
}));

/* ---------- Sampling ---------- */

export const SamplingContent = deferred(() => z.discriminatedUnion('type', [TextContent, ImageContent, AudioContent]));
export const SamplingMessage = deferred(() => z.extend(V2.SamplingMessage, { content: SamplingContent }));
export const ModelHint = V2.ModelHint;
export const ModelPreferences = V2.ModelPreferences;
export const CreateMessageRequestParams = deferred(() => z.extend(V2.CreateMessageRequestParams, { messages: z.array(SamplingMessage) }));
export const CreateMessageResult = deferred(() => z.extend(V2.CreateMessageResult, { content: SamplingContent }));

/* ---------- Completion ---------- */

export const PromptReference = deferred(() => z.extend(V2.PromptReference, title));
/** Renamed from `ResourceReference`; the shape is unchanged. */
export const ResourceTemplateReference = V2.ResourceReference;

export const CompleteRequestParams = deferred(() => z.extend(V2.CompleteRequestParams, {
  ref: z.discriminatedUnion('type', [PromptReference, ResourceTemplateReference]),
  /** Already-resolved arguments, for context-dependent completions. */
  context: z.optional(z.looseObject({ arguments: z.optional(z.record(z.string(), z.string())) })),
}));
export const CompleteResult = V2.CompleteResult;

/* ---------- Roots ---------- */

export const Root = deferred(() => z.extend(V2.Root, meta));
export const ListRootsResult = deferred(() => z.extend(Result, { roots: z.array(Root) }));

/* ---------- Elicitation ---------- */

export const ElicitRequestParams = deferred(() => z.extend(RequestParams, {
  message: z.string(),
  requestedSchema: RequestedSchemaV3,
}));

export const ElicitResult = deferred(() => z.extend(Result, {
  action: ElicitAction,
  /** The submitted data; only with `action: "accept"`. */
  content: z.optional(ElicitContentV3),
}));

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
  'elicitation/create': request('serverToClient', ElicitRequestParams, ElicitResult),
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

export const revision_2025_06_18: Revision = {
  version: VERSION,
  era: 'legacy',
  // What changed since 2025-03-26: batching removed; titles, structured output, elicitation, the version header.
  features: { ...V2.revision_2025_03_26.features, batching: false, title: true, structuredOutput: true, elicitation: true, protocolVersionHeader: true },
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
