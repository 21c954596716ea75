/**
 * Plain TypeScript types of the newest legacy revision (2025-11-25), for users of the
 * client and server packages. They mirror the zod schemas in `v2025-11-25.ts` (a test
 * checks both directions). Objects received from a peer may carry more keys than listed:
 * the schemas keep unknown keys for forward compatibility.
 */
import type { JsonObject, RequestId } from '../jsonrpc/messages.js';
import { LOGGING_LEVELS } from './blocks/base.js';
import { TASK_STATUSES } from './blocks/tasks.js';

export { LOGGING_LEVELS, TASK_STATUSES };

/* ---------- Basics ---------- */

/** A progress token: a string or an integer. */
export type ProgressToken = string | number;
/** An opaque pagination cursor. */
export type Cursor = string;
/** `_meta`: an open map reserved for protocol and extension metadata. */
export type Meta = { [key: string]: unknown };
/** `_meta` on request params; `progressToken` asks for progress notifications. */
export type RequestMeta = { progressToken?: ProgressToken; [key: string]: unknown };
/** Log severity, least to most severe: see {@link LOGGING_LEVELS}. */
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];
export type Role = 'user' | 'assistant';

/** Base of every result. */
export type Result = { _meta?: Meta };
/** Base of paginated list results; no `nextCursor` means the last page. */
export type PaginatedResult = Result & { nextCursor?: Cursor };

/* ---------- Initialization ---------- */

export type Icon = {
  /** URI of the icon (https: or data:). */
  src: string;
  mimeType?: string;
  /** Sizes such as `"48x48"` or `"any"`. */
  sizes?: string[];
  theme?: 'light' | 'dark';
};

/** Name and version of an MCP client or server. */
export type Implementation = {
  name: string;
  version: string;
  /** Display name. */
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
};

export type ClientCapabilities = {
  experimental?: { [key: string]: JsonObject };
  roots?: { listChanged?: boolean };
  sampling?: { context?: JsonObject; tools?: JsonObject };
  /** `{}` means form mode only. */
  elicitation?: { form?: JsonObject; url?: JsonObject };
  tasks?: {
    list?: JsonObject;
    cancel?: JsonObject;
    requests?: {
      sampling?: { createMessage?: JsonObject };
      elicitation?: { create?: JsonObject };
    };
  };
};

export type ServerCapabilities = {
  experimental?: { [key: string]: JsonObject };
  logging?: JsonObject;
  completions?: JsonObject;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  tasks?: {
    list?: JsonObject;
    cancel?: JsonObject;
    requests?: { tools?: { call?: JsonObject } };
  };
};

export type InitializeRequestParams = {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  _meta?: RequestMeta;
};

export type InitializeResult = Result & {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  /** Usage hints for the model, e.g. for a system prompt. */
  instructions?: string;
};

/* ---------- Utilities ---------- */

export type ProgressNotificationParams = {
  progressToken: ProgressToken;
  /** Increases with every notification. */
  progress: number;
  total?: number;
  message?: string;
  _meta?: Meta;
};

export type CancelledNotificationParams = {
  /** Absent only when cancelling something other than a request id (tasks use `tasks/cancel`). */
  requestId?: RequestId;
  reason?: string;
  _meta?: Meta;
};

export type LoggingMessageNotificationParams = {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
  _meta?: Meta;
};

/* ---------- Content ---------- */

export type Annotations = {
  audience?: Role[];
  /** 0 (least important) to 1 (effectively required). */
  priority?: number;
  /** ISO 8601 timestamp. */
  lastModified?: string;
};

export type TextContent = { type: 'text'; text: string; annotations?: Annotations; _meta?: Meta };
/** `data` is base64. */
export type ImageContent = { type: 'image'; data: string; mimeType: string; annotations?: Annotations; _meta?: Meta };
/** `data` is base64. */
export type AudioContent = { type: 'audio'; data: string; mimeType: string; annotations?: Annotations; _meta?: Meta };

export type TextResourceContents = { uri: string; mimeType?: string; text: string; _meta?: Meta };
/** `blob` is base64. */
export type BlobResourceContents = { uri: string; mimeType?: string; blob: string; _meta?: Meta };
export type ResourceContents = TextResourceContents | BlobResourceContents;

export type EmbeddedResource = { type: 'resource'; resource: ResourceContents; annotations?: Annotations; _meta?: Meta };
/** A link to a resource; it need not appear in `resources/list`. */
export type ResourceLink = Resource & { type: 'resource_link' };

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/* ---------- Resources ---------- */

export type Resource = {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  /** Size in bytes, when known. */
  size?: number;
  icons?: Icon[];
  _meta?: Meta;
};

export type ResourceTemplate = {
  /** An RFC 6570 URI template. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
};

export type ListResourcesResult = PaginatedResult & { resources: Resource[] };
export type ListResourceTemplatesResult = PaginatedResult & { resourceTemplates: ResourceTemplate[] };
export type ReadResourceResult = Result & { contents: ResourceContents[] };

/* ---------- Prompts ---------- */

export type PromptArgument = { name: string; title?: string; description?: string; required?: boolean };

export type Prompt = {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
};

export type PromptMessage = { role: Role; content: ContentBlock };
export type ListPromptsResult = PaginatedResult & { prompts: Prompt[] };
export type GetPromptResult = Result & { description?: string; messages: PromptMessage[] };

/* ---------- Tools ---------- */

/** Hints about a tool's behaviour. Untrusted: never base safety decisions on them. */
export type ToolAnnotations = {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

/** A JSON Schema object (2020-12 unless `$schema` says otherwise). */
export type ToolSchema = {
  $schema?: string;
  type: 'object';
  properties?: { [key: string]: JsonObject };
  required?: string[];
};

export type TaskSupport = 'forbidden' | 'optional' | 'required';
export type ToolExecution = { taskSupport?: TaskSupport };

export type Tool = {
  name: string;
  title?: string;
  description?: string;
  inputSchema: ToolSchema;
  outputSchema?: ToolSchema;
  execution?: ToolExecution;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Meta;
};

export type ListToolsResult = PaginatedResult & { tools: Tool[] };

export type CallToolRequestParams = {
  name: string;
  arguments?: { [key: string]: unknown };
  /** Run as a task (needs the server's `tasks.requests.tools.call`). */
  task?: TaskMetadata;
  _meta?: RequestMeta;
};

export type CallToolResult = Result & {
  content: ContentBlock[];
  /** Conforms to the tool's `outputSchema` when it has one. */
  structuredContent?: { [key: string]: unknown };
  /** A tool-level failure the model can see and react to. */
  isError?: boolean;
};

/* ---------- Sampling ---------- */

export type ToolUseContent = { type: 'tool_use'; id: string; name: string; input: { [key: string]: unknown }; _meta?: Meta };

export type ToolResultContent = {
  type: 'tool_result';
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
  _meta?: Meta;
};

export type SamplingMessageContentBlock = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

export type SamplingMessage = {
  role: Role;
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  _meta?: Meta;
};

export type ModelHint = { name?: string };

/** Each priority is 0 to 1. */
export type ModelPreferences = {
  hints?: ModelHint[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
};

export type ToolChoice = { mode?: 'auto' | 'required' | 'none' };

export type CreateMessageRequestParams = {
  messages: SamplingMessage[];
  modelPreferences?: ModelPreferences;
  systemPrompt?: string;
  /** `thisServer` / `allServers` are soft-deprecated. */
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  maxTokens: number;
  stopSequences?: string[];
  metadata?: JsonObject;
  tools?: Tool[];
  toolChoice?: ToolChoice;
  task?: TaskMetadata;
  _meta?: RequestMeta;
};

export type CreateMessageResult = Result & {
  role: Role;
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  model: string;
  /** `endTurn`, `stopSequence`, `maxTokens`, `toolUse`, or a provider-specific string. */
  stopReason?: string;
};

/* ---------- Completion ---------- */

export type PromptReference = { type: 'ref/prompt'; name: string; title?: string };
export type ResourceTemplateReference = { type: 'ref/resource'; uri: string };

export type CompleteRequestParams = {
  ref: PromptReference | ResourceTemplateReference;
  argument: { name: string; value: string };
  context?: { arguments?: { [key: string]: string } };
  _meta?: RequestMeta;
};

export type CompleteResult = Result & {
  /** At most 100 values. */
  completion: { values: string[]; total?: number; hasMore?: boolean };
};

/* ---------- Roots ---------- */

export type Root = { uri: string; name?: string; _meta?: Meta };
export type ListRootsResult = Result & { roots: Root[] };

/* ---------- Elicitation ---------- */

type Described = { title?: string; description?: string };

export type StringSchema = Described & {
  type: 'string';
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  default?: string;
};
export type NumberSchema = Described & { type: 'number' | 'integer'; minimum?: number; maximum?: number; default?: number };
export type BooleanSchema = Described & { type: 'boolean'; default?: boolean };
export type TitledOption = { const: string; title: string };
export type UntitledSingleSelectEnumSchema = Described & { type: 'string'; enum: string[]; default?: string };
export type TitledSingleSelectEnumSchema = Described & { type: 'string'; oneOf: TitledOption[]; default?: string };
type MultiSelect = Described & { type: 'array'; minItems?: number; maxItems?: number; default?: string[] };
export type UntitledMultiSelectEnumSchema = MultiSelect & { items: { type: 'string'; enum: string[] } };
export type TitledMultiSelectEnumSchema = MultiSelect & { items: { anyOf: TitledOption[] } };
/** The 2025-06-18 enum with display names in `enumNames`. */
export type LegacyTitledEnumSchema = Described & { type: 'string'; enum: string[]; enumNames?: string[]; default?: string };
export type EnumSchema =
  | UntitledSingleSelectEnumSchema
  | TitledSingleSelectEnumSchema
  | UntitledMultiSelectEnumSchema
  | TitledMultiSelectEnumSchema
  | LegacyTitledEnumSchema;
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;

export type ElicitRequestFormParams = {
  mode?: 'form';
  message: string;
  requestedSchema: {
    $schema?: string;
    type: 'object';
    properties: { [key: string]: PrimitiveSchemaDefinition };
    required?: string[];
  };
  task?: TaskMetadata;
  _meta?: RequestMeta;
};

export type ElicitRequestURLParams = {
  mode: 'url';
  message: string;
  elicitationId: string;
  url: string;
  task?: TaskMetadata;
  _meta?: RequestMeta;
};

export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams;

export type ElicitResult = Result & {
  action: 'accept' | 'decline' | 'cancel';
  /** Submitted values; only with `accept` in form mode. */
  content?: { [key: string]: string | number | boolean | string[] };
};

/* ---------- Tasks (experimental) ---------- */

export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The `task` param: requested lifetime in ms. */
export type TaskMetadata = { ttl?: number };

export type Task = {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Lifetime in ms from creation; `null` is unlimited. */
  ttl: number | null;
  /** Suggested polling interval in ms. */
  pollInterval?: number;
};

export type CreateTaskResult = Result & { task: Task };
export type GetTaskResult = Result & Task;
export type CancelTaskResult = Result & Task;
export type ListTasksResult = PaginatedResult & { tasks: Task[] };
