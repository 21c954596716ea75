/**
 * @statemcp/server — an MCP server as a thin role layer over the protocol package's
 * session runner: `McpServer` registers tools, resources (static and URI templates),
 * prompts and completions, and serves many connections at once; `Server` is the low-level
 * form (one handler per method). Lifecycle decisions stay in the connection state machine.
 */

export { McpServer } from './mcp-server.js';
export type { CapabilityOverrides, McpServerOptions } from './mcp-server.js';

export { Server } from './server.js';
export { RATE_LIMITED_ERROR_CODE, rateLimit } from './middleware/rate-limit.js';
export type { RateLimitOptions } from './middleware/rate-limit.js';
export { auditLog } from './middleware/audit-log.js';
export type { AuditLogOptions, AuditRecord } from './middleware/audit-log.js';
export { principalOf } from './middleware/principal.js';
export type { Middleware, MiddlewareContext, MiddlewareNext, NotificationMiddlewareContext, RequestMiddlewareContext } from '@statemcp/protocol';
export type {
  ServerNotificationContext,
  ServerNotificationHandler,
  ServerOptions,
  ServerRequestContext,
  ServerRequestHandler,
  ServerSessionOptions,
} from './server.js';

export { ServerConnection } from './server-connection.js';
export type { LoggingMessage } from './server-connection.js';

export type { InputRequestOptions, RelatedRequestOptions, RequestExtra, TaskContext } from './request-extra.js';
export type { RequestStateOptions } from './request-state.js';
export { CORE_LISTEN_FIELDS, ListenSubscriptions } from './subscriptions.js';
export type { ListenFilterField, ListenSubscription } from './subscriptions.js';
export type { ServerClusterOptions } from './shared-subscriptions.js';


export type { CustomNotificationHandler, CustomNotifyOptions, CustomRequestHandler, CustomRequestOptions } from './custom-methods.js';
export type { CustomNotificationSpec, CustomRequestSpec, CustomSchema, InferCustom } from '@statemcp/protocol';

export type { RegisteredTool, ToolInput, ToolArgs, ToolCallback, ToolConfig, ToolConfigWithOutput, ToolUpdate } from './tools.js';
export type { StructuredToolResult, ToolErrorResult, ToolResultOf } from './tool-results.js';
export type { NoDefinitions, WithPrompt, WithResource, WithTool } from './typed-definitions.js';
export { defineTool } from './tool-definitions.js';
export type { DefinedTool, ToolBuilder, ToolsDefinitions } from './tool-definitions.js';
export type { DefinitionsOf, HasDefinitions, McpDefinitions, PromptTypes, ResourceTypes, ToolTypes } from '@statemcp/protocol';
export type { RegistrationHandle } from './registry.js';
export type {
  ReadResourceCallback,
  ReadResourceTemplateCallback,
  RegisteredResource,
  RegisteredResourceTemplate,
  ResourceMetadata,
  ResourceTemplateMetadata,
  ResourceTemplateUpdate,
  ResourceUpdate,
} from './resources.js';
export type { PromptInput, PromptArgs, PromptArgsInput, PromptArgumentDefinition, PromptCallback, PromptConfig, PromptUpdate, RegisteredPrompt } from './prompts.js';
export { viewerOf, type Viewer, type Visibility } from './visibility.js';
export { ScopeChallenges } from './scope-challenges.js';
export { MAX_COMPLETION_VALUES } from './completions.js';
export { DEFAULT_CACHE_HINTS } from './caching.js';
export type { CacheHints, CacheScope } from './caching.js';
export type { Completer, CompletionContext, CompletionValues } from './completions.js';
export type { InferObject, InferObjectInput, ObjectSchemaInput, RawShape, StandardSchemaLike } from './object-schema.js';

export { UriTemplate } from './uri-template.js';
export type { UriTemplateValue } from './uri-template.js';
export type { UriTemplateMatch, UriTemplateVariables } from './uri-template-match.js';

export { TASK_TRANSITIONS } from './tasks/task-store.js';
export type { TaskStoreOptions } from './tasks/task-store.js';
export { MemoryTaskStore } from './tasks/durable-store.js';
export type { DurableTaskStore, MemoryTaskStoreOptions, StoredTask } from './tasks/durable-store.js';
export type { ExtensionTaskOptions, TaskNotifier } from './tasks/extension-tasks.js';
export { taskRequestExtra } from './tasks/task-input.js';
export { TaskJobs, TaskRetryError } from './tasks/task-executor.js';
export type { TaskAttempt, TaskAttemptOutcome, TaskExecutor, TaskJob } from './tasks/task-executor.js';
export type { TaskInputChannel } from './tasks/task-input.js';

export { LOGGING_LEVELS } from './wire-types.js';
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  ContentBlock,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  EmbeddedResource,
  GetPromptResult,
  Icon,
  ImageContent,
  Implementation,
  JsonSchemaObject,
  ListRootsResult,
  LoggingLevel,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceLink,
  ResourceTemplate,
  Root,
  SamplingMessage,
  ServerCapabilities,
  Task,
  TaskStatus,
  TaskSupport,
  TextContent,
  TextResourceContents,
  Tool,
  ToolAnnotations,
  ToolDefinition,
  ToolExecution,
} from './wire-types.js';
