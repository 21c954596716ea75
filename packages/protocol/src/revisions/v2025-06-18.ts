/**
 * Protocol revision 2025-06-18 (V3), extending 2025-03-26 with: display `title`s
 * (`BaseMetadata`), `_meta` on data objects, `lastModified` annotations, resource links,
 * structured tool output (`outputSchema` / `structuredContent`), completion `context`,
 * and form elicitation (`elicitation/create`). JSON-RPC batching is removed again.
 */
import * as z from 'zod';
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
const meta = deferredShape(() => ({ _meta: Meta.optional() }));
/** `BaseMetadata.title`: a display name; `name` stays the programmatic identifier. */
const title = deferredShape(() => ({ title: z.string().optional() }));

/* ---------- Initialization ---------- */

export const Implementation = deferred(() => V2.Implementation.extend(title));

export const ClientCapabilities = deferred(() => V2.ClientCapabilities.extend({
  /** Present if the client supports `elicitation/create`. */
  elicitation: z.looseObject({}).optional(),
}));

export const ServerCapabilities = V2.ServerCapabilities;

export const InitializeRequestParams = deferred(() => V2.InitializeRequestParams.extend({
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
}));

export const InitializeResult = deferred(() => V2.InitializeResult.extend({ serverInfo: Implementation }));

/* ---------- Utilities ---------- */

export const CancelledNotificationParams = V2.CancelledNotificationParams;
export const ProgressNotificationParams = V2.ProgressNotificationParams;
export const SetLevelRequestParams = V2.SetLevelRequestParams;
export const LoggingMessageNotificationParams = V2.LoggingMessageNotificationParams;

/* ---------- Content ---------- */

export const Annotations = deferred(() => V2.Annotations.extend({
  /** ISO 8601 timestamp of the last modification. */
  lastModified: z.string().optional(),
}));

const annotated = deferredShape(() => ({ annotations: Annotations.optional(), ...meta }));

export const TextContent = deferred(() => V2.TextContent.extend(annotated));
export const ImageContent = deferred(() => V2.ImageContent.extend(annotated));
export const AudioContent = deferred(() => V2.AudioContent.extend(annotated));

export const ResourceContents = deferred(() => V2.ResourceContents.extend(meta));
export const TextResourceContents = deferred(() => ResourceContents.extend({ text: z.string() }));
export const BlobResourceContents = deferred(() => ResourceContents.extend({ blob: z.string() }));
export const AnyResourceContents = deferred(() => z.union([TextResourceContents, BlobResourceContents]));

export const EmbeddedResource = deferred(() => V2.EmbeddedResource.extend({ resource: AnyResourceContents, ...annotated }));

export const Resource = deferred(() => V2.Resource.extend({ ...title, ...annotated }));

/** A link to a resource, returned by a tool or prompt; it need not appear in `resources/list`. */
export const ResourceLink = deferred(() => Resource.extend({ type: z.literal('resource_link') }));

export const ContentBlock = deferred(() => z.discriminatedUnion('type', [TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource]));

/* ---------- Resources ---------- */

export const ResourceTemplate = deferred(() => V2.ResourceTemplate.extend({ ...title, ...annotated }));
export const ListResourcesResult = deferred(() => PaginatedResult.extend({ resources: z.array(Resource) }));
export const ListResourceTemplatesResult = deferred(() => PaginatedResult.extend({ resourceTemplates: z.array(ResourceTemplate) }));
export const ResourceRequestParams = V2.ResourceRequestParams;
export const ReadResourceResult = deferred(() => Result.extend({ contents: z.array(AnyResourceContents) }));
export const ResourceUpdatedNotificationParams = V2.ResourceUpdatedNotificationParams;

/* ---------- Prompts ---------- */

export const PromptArgument = deferred(() => V2.PromptArgument.extend(title));
export const Prompt = deferred(() => V2.Prompt.extend({ ...title, arguments: z.array(PromptArgument).optional(), ...meta }));
export const PromptMessage = deferred(() => V2.PromptMessage.extend({ content: ContentBlock }));
export const ListPromptsResult = deferred(() => PaginatedResult.extend({ prompts: z.array(Prompt) }));
export const GetPromptRequestParams = V2.GetPromptRequestParams;
export const GetPromptResult = deferred(() => V2.GetPromptResult.extend({ messages: z.array(PromptMessage) }));

/* ---------- Tools ---------- */

export const ToolAnnotations = V2.ToolAnnotations;
export const ToolInputSchema = V2.ToolInputSchema;
/** A JSON Schema object describing a tool's `structuredContent`. */
export const ToolOutputSchema = V2.ToolInputSchema;

export const Tool = deferred(() => V2.Tool.extend({ ...title, outputSchema: ToolOutputSchema.optional(), ...meta }));
export const ListToolsResult = deferred(() => PaginatedResult.extend({ tools: z.array(Tool) }));
export const CallToolRequestParams = V2.CallToolRequestParams;
export const CallToolResult = deferred(() => V2.CallToolResult.extend({
  content: z.array(ContentBlock),
  /** Structured output; conforms to the tool's `outputSchema` when it has one. */
  structuredContent: z.record(z.string(), z.unknown()).optional(),
}));

/* ---------- Sampling ---------- */

export const SamplingContent = deferred(() => z.discriminatedUnion('type', [TextContent, ImageContent, AudioContent]));
export const SamplingMessage = deferred(() => V2.SamplingMessage.extend({ content: SamplingContent }));
export const ModelHint = V2.ModelHint;
export const ModelPreferences = V2.ModelPreferences;
export const CreateMessageRequestParams = deferred(() => V2.CreateMessageRequestParams.extend({ messages: z.array(SamplingMessage) }));
export const CreateMessageResult = deferred(() => V2.CreateMessageResult.extend({ content: SamplingContent }));

/* ---------- Completion ---------- */

export const PromptReference = deferred(() => V2.PromptReference.extend(title));
/** Renamed from `ResourceReference`; the shape is unchanged. */
export const ResourceTemplateReference = V2.ResourceReference;

export const CompleteRequestParams = deferred(() => V2.CompleteRequestParams.extend({
  ref: z.discriminatedUnion('type', [PromptReference, ResourceTemplateReference]),
  /** Already-resolved arguments, for context-dependent completions. */
  context: z.looseObject({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
}));
export const CompleteResult = V2.CompleteResult;

/* ---------- Roots ---------- */

export const Root = deferred(() => V2.Root.extend(meta));
export const ListRootsResult = deferred(() => Result.extend({ roots: z.array(Root) }));

/* ---------- Elicitation ---------- */

export const ElicitRequestParams = deferred(() => RequestParams.extend({
  message: z.string(),
  requestedSchema: RequestedSchemaV3,
}));

export const ElicitResult = deferred(() => Result.extend({
  action: ElicitAction,
  /** The submitted data; only with `action: "accept"`. */
  content: ElicitContentV3.optional(),
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
