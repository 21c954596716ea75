/**
 * @statemcp/protocol — the core of statemcp: JSON-RPC classification, MCP wire schemas per
 * revision, version negotiation, the capability table, errors, the connection and request
 * state machines, the session runner, the Transport interface and an in-memory transport.
 * It performs no I/O of its own.
 */

// JSON-RPC
export {
  ErrorCode,
  batchPolicy,
  classifyMessage,
  errorResponse,
  isJsonObject,
  isRequestId,
  parseJson,
} from './jsonrpc/messages.js';
export { isReservedMetaKey, isValidMetaKey } from './jsonrpc/meta-keys.js';
export { cloneJson } from './jsonrpc/clone-json.js';
export { batchRefusal, initializeInBatch, nestedBatch, requestIdInUse } from './jsonrpc/envelope-rules.js';
export type {
  Classified,
  JsonObject,
  JsonRpcErrorObject,
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcResultResponse,
  JsonValue,
  Parsed,
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
  SkillVerificationError,
  StatemcpError,
  TooManyPagesError,
  TransportError,
  UnsupportedProtocolVersionError,
  categoryOf,
  toWireError,
} from './errors/errors.js';
export type { RedirectRefusal, SkillVerificationFailure } from './errors/errors.js';
export { LOCAL_ERROR_CATEGORIES, LocalErrorCode, categoryOfWireCode } from './errors/categories.js';
export type { ErrorCategory } from './errors/categories.js';

// Versions and revisions
export {
  DEFAULT_HTTP_ASSUMED_VERSION,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_MODERN_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  acceptServerVersion,
  eraOf,
  isLegacyVersion,
  isModernVersion,
  negotiateServerVersion,
  proposeVersion,
} from './versions.js';
export type { LegacyProtocolVersion, ModernProtocolVersion, ProtocolEra } from './versions.js';
export { REVISIONS, getRevision, hasFeature, requireRevision, supportedVersions } from './revisions/registry.js';
export type { BooleanFeature } from './revisions/registry.js';
export type { Direction, NotificationSpec, RequestSpec, Revision, RevisionFeatures, RevisionSchemas } from './revisions/types.js';
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
export { compileJsonSchema, defaultJsonSchemaValidator, jsonSchemaDialect } from './json-schema/validator.js';
export type { JsonSchemaCheck, JsonSchemaDialect, JsonSchemaValidator } from './json-schema/validator.js';

// RFC 6570 URI templates (resource templates: matched by the server, expanded by the typed client)
export { UriTemplate } from './uri-template/uri-template.js';
export type { UriTemplateValue } from './uri-template/uri-template.js';
export type { UriTemplateMatch, UriTemplateVariables } from './uri-template/uri-template-match.js';

// Typed definitions of a server (typed client, statemcp-typegen)
export type { DefinitionsOf, HasDefinitions, McpDefinitions, PromptTypes, ResourceTypes, ToolTypes } from './typed/definitions.js';

// Capabilities
export { METHOD_CAPABILITIES, capabilityFor, capabilityName, hasCapability } from './capabilities/table.js';
export type { CapabilityRequirement } from './capabilities/table.js';
export { extensionSettings, isExtensionId, withExtension } from './capabilities/extensions.js';

// MCP Apps extension (io.modelcontextprotocol/ui): ids and shapes shared by the server and client helpers
export { APP_MIME_TYPE, LEGACY_RESOURCE_URI_META_KEY, UI_EXTENSION_ID } from './extensions/ui.js';
export type { UiExtensionSettings, UiResourceCsp, UiResourceMeta, UiResourcePermissions, UiToolMeta, UiVisibility } from './extensions/ui.js';
export { TASKS_EXTENSION_ID, TASKS_METHODS, TASKS_NOTIFICATION_METHOD, declaresTasksExtension, isCreateTaskResult } from './extensions/tasks.js';
export type { TaskCreatedResult, DetailedTask, ExtensionTask, TaskError, TaskIdParams, TaskInputRequest, TasksUpdateParams } from './extensions/tasks.js';

// Skills extension (io.modelcontextprotocol/skills): ids, limits and entry shapes; parser and digest in @statemcp/protocol/skills
export { DIRECTORY_MIME_TYPE, SKILL_FILE_NAME, SKILL_LIMITS, SKILL_MARKDOWN_MIME_TYPE, SKILLS_EXTENSION_ID, SKILLS_METHODS, isSkillDigest, skillNameProblem } from './extensions/skills.js';
export type { GetSkillResult, ListSkillsResult, SkillEntry, SkillFrontmatter, SkillResource, SkillsExtensionSettings } from './extensions/skills.js';

// State machines
export { CONNECTION_TABLE, initialConnectionState, isLive, transition } from './machines/connection.js';
export { PER_REQUEST_PEER } from './machines/connection-modern.js';
export type { ConnectionTable, ConnectionTransitionRow } from './machines/connection.js';
export { CONNECTION_EVENT_TYPES, CONNECTION_STATE_KINDS } from './machines/connection-types.js';
export type {
  CloseReason,
  ConnectionConfig,
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
export { TASK_EVENT_TYPES, TASK_STATUS_KINDS, TASK_TABLE, isTaskTerminal, taskEventBetween, taskSuccessors, taskTransition } from './machines/task.js';
export type { TaskEventType, TaskStatusKind, TaskStep, TaskTable, TaskTransitionRow } from './machines/task.js';
export { renderConnectionMermaid, renderRequestMermaid, renderTaskMermaid } from './machines/mermaid.js';

// Session runner
export { Session } from './session/session.js';
export type { DiscoverResultShape, EraPreference, NegotiateOptions, NegotiateOutcome } from './session/discovery.js';
export { SimulatedClock, systemClock } from './session/clock.js';
export { INPUT_REQUIRED_METHODS } from './session/input-rounds.js';
export { CustomMethodTable, assertCustomMethodName, customMethodRefusal, customOptInPath, declareCustomOptIns, validateCustomAsync } from './session/custom-methods.js';
export type { CustomNotificationSpec, CustomRequestSpec, CustomSchema, CustomSchemaResult, CustomValidation, InferCustom } from './session/custom-methods.js';
export type { Clock, TimerHandle, TimerOptions } from './session/clock.js';

// Scale-out: what the instances of one server share
export type { BusHandler, MessageBus, SubscriptionStore } from './cluster/shared-contracts.js';
export type { PendingRequestView, ProgressUpdate } from './session/ledger.js';
export type { Requester } from './session/handler-context.js';
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
export { isValidBaggage, isValidTraceparent, isValidTracestate, readTraceContext } from './observability/trace-context.js';
export type { TraceContext, TraceContextProvider } from './observability/trace-context.js';

// Transports
export { InMemoryTransport } from './transport/in-memory.js';
export { fromOfficialTransport, toOfficialTransport } from './transport/official-transport.js';
export type { FromOfficialTransportOptions, OfficialMessageExtra, OfficialSendOptions, OfficialTransport } from './transport/official-transport.js';
export { isAuthInfo } from './transport/auth-info.js';
export type { AuthInfo } from './transport/auth-info.js';
export { decodeHeaderValue, encodeHeaderValue } from './transport/header-values.js';
export { HEADERS_KEPT_ON_REDIRECT, MAX_REDIRECTS, guardRedirects, headersKeptOnRedirect, isRedirectStatus, redirectHop } from './transport/http-redirects.js';
export type { RedirectHop, RedirectMode } from './transport/http-redirects.js';
export { formatByteSize, readBoundedText, tooLargeError } from './transport/bounded-body.js';
export type { BoundedTextOptions } from './transport/bounded-body.js';
export type { AdoptedSession, HttpRequestInfo, InboundContext, SendOptions, Transport, TransportCloseInfo, TransportSink } from './transport/transport.js';
