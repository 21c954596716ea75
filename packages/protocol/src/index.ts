/**
 * @statemcp/protocol — the core of statemcp: JSON-RPC classification, MCP wire schemas per
 * revision, version negotiation, the capability table, errors, the connection and request
 * state machines, the session runner, the Transport interface and an in-memory transport.
 * It performs no I/O of its own.
 */

// JSON-RPC
export { ErrorCode, isJsonObject, parseJson } from './jsonrpc/messages.js';

export type {
  JsonObject,
  JsonRpcErrorObject,
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcResultResponse,
  JsonValue,
  RequestId,
} from './jsonrpc/messages.js';

// Errors
export {
  AlreadyConnectedError,
  AuthRequiredError,
  CapabilityNotSupportedError,
  ConnectionClosedError,
  InvalidArgumentError,
  InputRoundsExceededError,
  InvalidResultError,
  ToolOutputError,
  InvalidStateError,
  JsonRpcError,
  McpError,
  MessageTooLargeError,
  NoReturnChannelError,
  RedirectRefusedError,
  RequestCancelledError,
  RequestTimeoutError,
  SessionChangedError,
  SessionExpiredError,
  SkillVerificationError,
  StatemcpError,
  TooManyPagesError,
  TransportError,
  UnsupportedProtocolVersionError,
  categoryOf,
} from './errors/errors.js';
export type { RedirectRefusal, SkillVerificationFailure } from './errors/errors.js';
export { LOCAL_ERROR_CATEGORIES, LocalErrorCode, categoryOfWireCode } from './errors/categories.js';
export type { ErrorCategory } from './errors/categories.js';

// Versions and revisions
export {
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_MODERN_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  DUAL_ERA_PROTOCOL_VERSIONS,
  isLegacyVersion,
  isModernVersion,
} from './versions.js';
export type { LegacyProtocolVersion, ModernProtocolVersion, ProtocolEra } from './versions.js';

export {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  RESULT_TYPES,
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
} from './revisions/blocks/modern.js';
export { RELATED_TASK_META_KEY } from './revisions/blocks/tasks.js';
export { LOGGING_LEVELS, TASK_STATUSES } from './revisions/types-latest.js';
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  BooleanSchema,
  CallToolRequestParams,
  CallToolResult,
  CancelTaskResult,
  CancelledNotificationParams,
  ClientCapabilities,
  CompleteRequestParams,
  CompleteResult,
  ContentBlock,
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateTaskResult,
  Cursor,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  EmbeddedResource,
  EnumSchema,
  GetPromptResult,
  GetTaskResult,
  Icon,
  ImageContent,
  Implementation,
  InitializeRequestParams,
  InitializeResult,
  LegacyTitledEnumSchema,
  ListPromptsResult,
  ListResourceTemplatesResult,
  ListResourcesResult,
  ListRootsResult,
  ListTasksResult,
  ListToolsResult,
  LoggingLevel,
  LoggingMessageNotificationParams,
  ModelHint,
  ModelPreferences,
  NumberSchema,
  PrimitiveSchemaDefinition,
  ProgressNotificationParams,
  ProgressToken,
  Prompt,
  PromptArgument,
  PromptMessage,
  PromptReference,
  ReadResourceResult,
  RequestMeta,
  Resource,
  ResourceContents,
  ResourceLink,
  ResourceTemplate,
  ResourceTemplateReference,
  Role as ContentRole,
  Root,
  SamplingMessage,
  SamplingMessageContentBlock,
  ServerCapabilities,
  StringSchema,
  Task,
  TaskMetadata,
  TaskStatus,
  TaskSupport,
  TextContent,
  TextResourceContents,
  TitledMultiSelectEnumSchema,
  TitledOption,
  TitledSingleSelectEnumSchema,
  Tool,
  ToolAnnotations,
  ToolChoice,
  ToolExecution,
  ToolResultContent,
  ToolSchema,
  ToolUseContent,
  UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema,
} from './revisions/types-latest.js';

// JSON Schema
export { defaultJsonSchemaValidator } from './json-schema/validator.js';
export type { JsonSchemaCheck, JsonSchemaValidator } from './json-schema/validator.js';

// RFC 6570 URI templates (resource templates: matched by the server, expanded by the typed client)
export { UriTemplate } from './uri-template/uri-template.js';
export type { UriTemplateValue } from './uri-template/uri-template.js';
export type { UriTemplateMatch, UriTemplateVariables } from './uri-template/uri-template-match.js';

// Typed definitions of a server (typed client, statemcp-typegen)
export type { DefinitionsOf, HasDefinitions, McpDefinitions, PromptTypes, ResourceTypes, ToolTypes } from './typed/definitions.js';

// Capabilities

export { extensionSettings, isExtensionId, withExtension } from './capabilities/extensions.js';

// MCP Apps extension (io.modelcontextprotocol/ui): ids and shapes shared by the server and client helpers
export { APP_MIME_TYPE, UI_EXTENSION_ID } from './extensions/ui.js';
export type { UiExtensionSettings, UiResourceCsp, UiResourceMeta, UiResourcePermissions, UiToolMeta, UiVisibility } from './extensions/ui.js';
export { TASKS_EXTENSION_ID } from './extensions/tasks.js';
export type {
  TaskCreatedResult,
  DetailedTask,
  ExtensionTask,
  TaskError,
  TaskIdParams,
  TaskInputRequest,
  TasksUpdateParams,
} from './extensions/tasks.js';

// Skills extension (io.modelcontextprotocol/skills): ids, limits and entry shapes; parser and digest in @statemcp/protocol/skills
export { SKILLS_EXTENSION_ID } from './extensions/skills.js';
export type { GetSkillResult, ListSkillsResult, SkillEntry, SkillFrontmatter, SkillResource, SkillsExtensionSettings } from './extensions/skills.js';

// State machines
export { CONNECTION_TABLE, initialConnectionState, isLive, transition } from './machines/connection.js';

export type { ConnectionTable, ConnectionTransitionRow } from './machines/connection.js';
export { CONNECTION_EVENT_TYPES, CONNECTION_STAGES, CONNECTION_STATE_KINDS, kindOfStage, stageOf } from './machines/connection-types.js';
export type {
  CloseReason,
  ConnectionConfig,
  ConnectionStage,
  InitializingPhase,
  ConnectionEffect,
  ConnectionEvent,
  ConnectionEventType,
  ConnectionState,
  ConnectionStateKind,
  ConnectionStep,
  PeerInfo,
  Role,
} from './machines/connection-types.js';
export { REQUEST_EVENT_TYPES, REQUEST_STATE_KINDS, REQUEST_TABLE, isSettled, requestTransition } from './machines/request.js';
export type { RequestEventType, RequestStateKind, RequestStep } from './machines/request.js';
export {
  TASK_EVENT_TYPES,
  TASK_STATUS_KINDS,
  TASK_TABLE,
  isTaskTerminal,
  taskEventBetween,
  taskSuccessors,
  taskTransition,
} from './machines/task.js';
export type { TaskEventType, TaskStatusKind, TaskStep, TaskTable, TaskTransitionRow } from './machines/task.js';
export { renderConnectionMermaid, renderRequestMermaid, renderTaskMermaid } from './machines/mermaid.js';

// Session runner
export { Session } from './session/session.js';
export { StatelessDispatcher } from './session/stateless-dispatcher.js';
export type { StatelessExchange } from './session/stateless-dispatcher.js';
export type { DiscoverResultShape, EraPreference, NegotiateOptions, NegotiateOutcome } from './session/discovery.js';
export { SimulatedClock, systemClock } from './session/clock.js';

export { CustomMethodTable, declareCustomOptIns } from './session/custom-methods.js';
export type { CustomNotificationSpec, CustomRequestSpec, CustomSchema, CustomSchemaResult, InferCustom } from './session/custom-methods.js';
export type { Clock, TimerHandle, TimerOptions } from './session/clock.js';

// Scale-out: what the instances of one server share
export type { BusHandler, MessageBus, SubscriptionStore } from './cluster/shared-contracts.js';
export type { ProgressUpdate } from './session/ledger.js';

export { MiddlewareStack } from './session/middleware.js';
export type { Middleware, MiddlewareContext, MiddlewareNext, NotificationMiddlewareContext, RequestMiddlewareContext } from './session/middleware.js';
export type {
  CloseInfo,
  HandlerLookup,
  InitializeParams,
  InitializeResultShape,
  NotificationContext,
  NotificationHandler,
  NotificationOptions,
  ProgressHandle,
  RequestContext,
  RequestHandler,
  RequestOptions,
  SessionOptions,
} from './session/options.js';

// Observability
export { DIAGNOSTIC_CHANNEL_NAMES } from './observability/diagnostics.js';
export type { InspectEvent, InspectListener, RequestInputRound, TaskTransitionReport } from './observability/events.js';
export { TASK_QUEUE_CHANNEL_NAME } from './observability/task-queue-events.js';
export type { TaskAttemptResult, TaskQueueDepth, TaskQueueEvent } from './observability/task-queue-events.js';

export type { TraceContext, TraceContextProvider } from './observability/trace-context.js';

// Transports
export { InMemoryTransport } from './transport/in-memory.js';
export { fromOfficialTransport, toOfficialTransport } from './transport/official-transport.js';
export type { FromOfficialTransportOptions, OfficialMessageExtra, OfficialSendOptions, OfficialTransport } from './transport/official-transport.js';
export type { AuthInfo } from './transport/auth-info.js';

export type { HttpRequestInfo, InboundContext, SendOptions, SessionExpiry, Transport, TransportCloseInfo, TransportSink } from './transport/transport.js';
