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
/** Who a message or content is for or from: `user` or `assistant` (exported as `ContentRole`). */
export type Role = 'user' | 'assistant';

/** Base of every result. */
export type Result = { _meta?: Meta };
/** Base of paginated list results; no `nextCursor` means the last page. */
export type PaginatedResult = Result & { nextCursor?: Cursor };

/* ---------- Initialization ---------- */

/** An icon for a tool, resource, prompt or implementation: `src`, `mimeType`, `sizes`, `theme`. */
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

/** What a client declares in `initialize`: `roots`, `sampling`, `elicitation`, `tasks`, `experimental`, `extensions`. */
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

/** What a server declares in its `InitializeResult`: tools, resources, prompts, completions, logging, tasks, experimental, extensions. */
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

/** Params of `initialize`: the client's `protocolVersion`, `capabilities` and `clientInfo`. */
export type InitializeRequestParams = {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  _meta?: RequestMeta;
};

/** Result of `initialize`: the negotiated `protocolVersion`, the server's `capabilities` and `serverInfo`, and optional `instructions`. */
export type InitializeResult = Result & {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  /** Usage hints for the model, e.g. for a system prompt. */
  instructions?: string;
};

/* ---------- Utilities ---------- */

/** Params of `notifications/progress`: the `progressToken`, `progress`, optional `total` and `message`. */
export type ProgressNotificationParams = {
  progressToken: ProgressToken;
  /** Increases with every notification. */
  progress: number;
  total?: number;
  message?: string;
  _meta?: Meta;
};

/** Params of `notifications/cancelled`: the `requestId` (or task) being cancelled and an optional `reason`. */
export type CancelledNotificationParams = {
  /** Absent only when cancelling something other than a request id (tasks use `tasks/cancel`). */
  requestId?: RequestId;
  reason?: string;
  _meta?: Meta;
};

/** Params of `notifications/message`: the `level`, optional `logger` and the `data` logged. */
export type LoggingMessageNotificationParams = {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
  _meta?: Meta;
};

/* ---------- Content ---------- */

/** Hints about a content block or resource for the client: `audience`, `priority`, `lastModified`. */
export type Annotations = {
  audience?: Role[];
  /** 0 (least important) to 1 (effectively required). */
  priority?: number;
  /** ISO 8601 timestamp. */
  lastModified?: string;
};

/** A text content block. */
export type TextContent = { type: 'text'; text: string; annotations?: Annotations; _meta?: Meta };
/** `data` is base64. */
export type ImageContent = { type: 'image'; data: string; mimeType: string; annotations?: Annotations; _meta?: Meta };
/** `data` is base64. */
export type AudioContent = { type: 'audio'; data: string; mimeType: string; annotations?: Annotations; _meta?: Meta };

/** The contents of a text resource. */
export type TextResourceContents = { uri: string; mimeType?: string; text: string; _meta?: Meta };
/** `blob` is base64. */
export type BlobResourceContents = { uri: string; mimeType?: string; blob: string; _meta?: Meta };
/** The contents of a resource: text or base64 blob, with its uri and mimeType. */
export type ResourceContents = TextResourceContents | BlobResourceContents;

/** A content block that carries a resource's contents inline. */
export type EmbeddedResource = { type: 'resource'; resource: ResourceContents; annotations?: Annotations; _meta?: Meta };
/** A link to a resource; it need not appear in `resources/list`. */
export type ResourceLink = Resource & { type: 'resource_link' };

/** A block of content in a tool result or prompt message: text, image, audio, a resource link or an embedded resource. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/* ---------- Resources ---------- */

/** A resource as listed by `resources/list`: uri, name, title, description, mimeType, size. */
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

/** A resource template as listed by `resources/templates/list`: an RFC 6570 `uriTemplate` and metadata. */
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

/** One page of `resources/list`. */
export type ListResourcesResult = PaginatedResult & { resources: Resource[] };
/** One page of `resources/templates/list`. */
export type ListResourceTemplatesResult = PaginatedResult & { resourceTemplates: ResourceTemplate[] };
/** Result of `resources/read`: the resource's `contents` (text or blob). */
export type ReadResourceResult = Result & { contents: ResourceContents[] };

/* ---------- Prompts ---------- */

/** One argument of a prompt: name, title, description, whether it is required. */
export type PromptArgument = { name: string; title?: string; description?: string; required?: boolean };

/** A prompt as listed by `prompts/list`: name, title, description and arguments. */
export type Prompt = {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
};

/** One message of a prompt: a `role` and a content block. */
export type PromptMessage = { role: Role; content: ContentBlock };
/** One page of `prompts/list`. */
export type ListPromptsResult = PaginatedResult & { prompts: Prompt[] };
/** Result of `prompts/get`: an optional `description` and the prompt's `messages`. */
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

/** Whether a tool may run as a task: `forbidden`, `optional` or `required`. */
export type TaskSupport = 'forbidden' | 'optional' | 'required';
/** How a tool runs: `taskSupport` for task-augmented calls. */
export type ToolExecution = { taskSupport?: TaskSupport };

/** A tool as listed by `tools/list`: name, title, description, `inputSchema`, `outputSchema`, annotations, execution. */
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

/** One page of `tools/list`. */
export type ListToolsResult = PaginatedResult & { tools: Tool[] };

/** Params of `tools/call`: the tool `name`, its `arguments`, and optionally `task` to run it as a task. */
export type CallToolRequestParams = {
  name: string;
  arguments?: { [key: string]: unknown };
  /** Run as a task (needs the server's `tasks.requests.tools.call`). */
  task?: TaskMetadata;
  _meta?: RequestMeta;
};

/** Result of `tools/call`: `content` blocks, optional `structuredContent` (checked against the tool's `outputSchema`) and `isError` for tool errors. */
export type CallToolResult = Result & {
  content: ContentBlock[];
  /** Conforms to the tool's `outputSchema` when it has one. */
  structuredContent?: { [key: string]: unknown };
  /** A tool-level failure the model can see and react to. */
  isError?: boolean;
};

/* ---------- Sampling ---------- */

/** A sampling content block in which the model calls a tool. */
export type ToolUseContent = { type: 'tool_use'; id: string; name: string; input: { [key: string]: unknown }; _meta?: Meta };

/** A sampling content block carrying the result of a tool the model called. */
export type ToolResultContent = {
  type: 'tool_result';
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
  _meta?: Meta;
};

/** A content block allowed in sampling messages: text, image, audio, tool use or tool result. */
export type SamplingMessageContentBlock = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

/** One message of a sampling conversation: a `role` and content. */
export type SamplingMessage = {
  role: Role;
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  _meta?: Meta;
};

/** A hint for model selection in sampling: a (partial) model `name`. */
export type ModelHint = { name?: string };

/** Each priority is 0 to 1. */
export type ModelPreferences = {
  hints?: ModelHint[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
};

/** How the model may use the tools offered in a sampling request: `auto`, `required` or `none`. */
export type ToolChoice = { mode?: 'auto' | 'required' | 'none' };

/** Params of `sampling/createMessage`: the messages, model preferences, system prompt, `maxTokens`, and (2025-11-25) tools. */
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

/** Result of `sampling/createMessage`: the model's message, the `model` used and the `stopReason`. */
export type CreateMessageResult = Result & {
  role: Role;
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  model: string;
  /** `endTurn`, `stopSequence`, `maxTokens`, `toolUse`, or a provider-specific string. */
  stopReason?: string;
};

/* ---------- Completion ---------- */

/** A reference to a prompt by name, for `completion/complete`. */
export type PromptReference = { type: 'ref/prompt'; name: string; title?: string };
/** A reference to a resource template by URI, for `completion/complete`. */
export type ResourceTemplateReference = { type: 'ref/resource'; uri: string };

/** Params of `completion/complete`: the prompt or resource-template reference, the argument being completed and the others already given. */
export type CompleteRequestParams = {
  ref: PromptReference | ResourceTemplateReference;
  argument: { name: string; value: string };
  context?: { arguments?: { [key: string]: string } };
  _meta?: RequestMeta;
};

/** Result of `completion/complete`: up to 100 `values`, with `total` and `hasMore`. */
export type CompleteResult = Result & {
  /** At most 100 values. */
  completion: { values: string[]; total?: number; hasMore?: boolean };
};

/* ---------- Roots ---------- */

/** A `file://` root the client exposes, with an optional name. */
export type Root = { uri: string; name?: string; _meta?: Meta };
/** Result of `roots/list`: the client's `file://` roots. */
export type ListRootsResult = Result & { roots: Root[] };

/* ---------- Elicitation ---------- */

type Described = { title?: string; description?: string };

/** An elicitation form field holding a string, with optional length bounds and format. */
export type StringSchema = Described & {
  type: 'string';
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  default?: string;
};
/** An elicitation form field holding a number or an integer, with optional bounds. */
export type NumberSchema = Described & { type: 'number' | 'integer'; minimum?: number; maximum?: number; default?: number };
/** An elicitation form field holding a boolean. */
export type BooleanSchema = Described & { type: 'boolean'; default?: boolean };
/** One option of a titled enum field: a `const` value and its `title`. */
export type TitledOption = { const: string; title: string };
/** A single-select elicitation field with plain string options. */
export type UntitledSingleSelectEnumSchema = Described & { type: 'string'; enum: string[]; default?: string };
/** A single-select elicitation field whose options have titles. */
export type TitledSingleSelectEnumSchema = Described & { type: 'string'; oneOf: TitledOption[]; default?: string };
type MultiSelect = Described & { type: 'array'; minItems?: number; maxItems?: number; default?: string[] };
/** A multi-select elicitation field with plain string options. */
export type UntitledMultiSelectEnumSchema = MultiSelect & { items: { type: 'string'; enum: string[] } };
/** A multi-select elicitation field whose options have titles. */
export type TitledMultiSelectEnumSchema = MultiSelect & { items: { anyOf: TitledOption[] } };
/** The 2025-06-18 enum with display names in `enumNames`. */
export type LegacyTitledEnumSchema = Described & { type: 'string'; enum: string[]; enumNames?: string[]; default?: string };
/** An elicitation form field choosing from a list: single or multi select, titled or not. */
export type EnumSchema =
  | UntitledSingleSelectEnumSchema
  | TitledSingleSelectEnumSchema
  | UntitledMultiSelectEnumSchema
  | TitledMultiSelectEnumSchema
  | LegacyTitledEnumSchema;
/** Any field of an elicitation form: string, number, boolean or enum. */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;

/** Params of a form-mode `elicitation/create`: a `message` and the `requestedSchema` of flat primitive fields. */
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

/** Params of a URL-mode `elicitation/create`: a `message`, the `url` to open and an `elicitationId`. */
export type ElicitRequestURLParams = {
  mode: 'url';
  message: string;
  elicitationId: string;
  url: string;
  task?: TaskMetadata;
  _meta?: RequestMeta;
};

/** Params of `elicitation/create`: form mode or URL mode. */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams;

/** Result of `elicitation/create`: `accept` (with `content` in form mode), `decline` or `cancel`. */
export type ElicitResult = Result & {
  action: 'accept' | 'decline' | 'cancel';
  /** Submitted values; only with `accept` in form mode. */
  content?: { [key: string]: string | number | boolean | string[] };
};

/* ---------- Tasks (experimental) ---------- */

/** The status of a task: see {@link TASK_STATUSES}. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The `task` param: requested lifetime in ms. */
export type TaskMetadata = { ttl?: number };

/** A task: its `taskId`, `status`, timestamps, `ttl` and `pollInterval`. */
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

/** The answer to a task-augmented request: the created `task`, to be polled with `tasks/get`. */
export type CreateTaskResult = Result & { task: Task };
/** Result of `tasks/get`: the task's current state. */
export type GetTaskResult = Result & Task;
/** Result of `tasks/cancel`: the task in its final state. */
export type CancelTaskResult = Result & Task;
/** One page of `tasks/list`. */
export type ListTasksResult = PaginatedResult & { tasks: Task[] };
