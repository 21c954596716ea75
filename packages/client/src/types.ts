/**
 * The MCP wire types the client's API speaks in: those of the newest legacy revision
 * (2025-11-25), re-exported from `@statemcp/protocol` so users import them from one place,
 * plus the params of the client's own calls. Objects received from an older server simply
 * lack the fields its revision did not have.
 */
import type { CallToolRequestParams, RequestMeta } from '@statemcp/protocol';

export type {
  BlobResourceContents,
  CallToolRequestParams,
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
  ListRootsResult,
  ListToolsResult,
  LoggingLevel,
  LoggingMessageNotificationParams,
  PrimitiveSchemaDefinition,
  Prompt,
  PromptMessage,
  ReadResourceResult,
  RequestMeta,
  Resource,
  ResourceContents,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  TextResourceContents,
  Tool,
} from '@statemcp/protocol';

/** Params of the paginated list calls (`tools/list`, `resources/list`, …). */
export interface ListParams {
  /** Where to continue: the `nextCursor` of the previous page. */
  cursor?: string;
  _meta?: RequestMeta;
}

/** Params of `resources/read`, `resources/subscribe` and `resources/unsubscribe`. */
export interface ResourceParams {
  uri: string;
  _meta?: RequestMeta;
}

/** Params of `prompts/get`. */
export interface GetPromptParams {
  name: string;
  arguments?: { [key: string]: string };
  _meta?: RequestMeta;
}

/** Params of `tools/call` (task augmentation is not offered by this client yet). */
export type CallToolParams = Omit<CallToolRequestParams, 'task'>;
