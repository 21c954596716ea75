/**
 * @statemcp/client — an MCP client on the lifecycle state machine of `@statemcp/protocol`:
 * the handshake, typed calls with auto-paginating lists, tool output validation, handlers
 * for sampling, elicitation and roots, and listeners for the server's notifications.
 */

export { Client } from './client.js';
export { ToolTask } from './tool-task.js';
export type { TaskChannel } from './tool-task.js';
export { applyFormDefaults } from './elicitation.js';
export type { ListChangedOptions } from './list-refresh.js';
export type { ListenEnd, ListenHandle, ListenNotification, ListenOptions, SubscriptionFilter, TaskWatch } from './listen.js';
export type { ResponseCacheEvent, ResponseCacheOptions, ResponseCacheStats } from './response-cache.js';
export { typedClient } from './typed-client.js';
export type { CallError, CallOutcome, CallParams, PromptCallError, ResourceCallError, ToolCallError, ToolResultFor, TypedCall, TypedClient } from './typed-client.js';
export type { TypedCallToolResult } from './typed-results.js';
export type { DefinitionsOf, HasDefinitions, McpDefinitions, PromptTypes, ResourceTypes, ToolTypes, UriTemplateVariables } from '@statemcp/protocol';

export type {
  CallOptions,
  CallToolOptions,
  ClientOptions,
  ConnectOptions,
  ElicitationHandler,
  ElicitationSettings,
  HandlerContext,
  ListChangedHandlers,
  ListOptions,
  TypedCallToolOptions,
  SamplingHandler,
  SamplingSettings,
} from './options.js';

export type { CustomCallOptions, CustomNotificationHandler, CustomNotifyOptions, CustomRequestHandler } from './custom-methods.js';
export type { CustomNotificationSpec, CustomRequestSpec, CustomSchema, InferCustom } from '@statemcp/protocol';

export type { CallToolParams, GetPromptParams, ListParams, ResourceParams } from './types.js';
export type { TraceContext, TraceContextProvider } from '@statemcp/protocol';
export type { Middleware, MiddlewareContext, MiddlewareNext, NotificationMiddlewareContext, RequestMiddlewareContext } from '@statemcp/protocol';

// Wire types of the newest legacy revision, re-exported for convenience.
export type {
  BlobResourceContents,
  CallToolResult,
  ClientCapabilities,
  CompleteRequestParams,
  CompleteResult,
  ContentBlock,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  GetPromptResult,
  Implementation,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LoggingLevel,
  LoggingMessageNotificationParams,
  Prompt,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  TextResourceContents,
  Tool,
} from './types.js';

// The errors a client's calls reject with, re-exported so `instanceof` checks need one import.
export {
  AlreadyConnectedError,
  CapabilityNotSupportedError,
  ConnectionClosedError,
  InputRoundsExceededError,
  InvalidArgumentError,
  InvalidResultError,
  InvalidStateError,
  JsonRpcError,
  McpError,
  RequestCancelledError,
  RequestTimeoutError,
  TooManyPagesError,
  ToolOutputError,
  UnsupportedProtocolVersionError,
} from '@statemcp/protocol';
