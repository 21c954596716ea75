/**
 * The MCP wire types the server uses, from `@statemcp/protocol` (newest legacy revision,
 * 2025-11-25; objects for older revisions are derived by `revision-features.ts`), plus the
 * server-side shapes of a tool definition, whose schemas may be any JSON Schema object.
 */
import type { Tool } from '@statemcp/protocol';

export { LOGGING_LEVELS } from '@statemcp/protocol';
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
  ToolExecution,
} from '@statemcp/protocol';

/** `_meta`: an open map. */
export type Meta = { [key: string]: unknown };

/**
 * A JSON Schema object with `type: "object"` (2020-12 unless `$schema` says otherwise). Any
 * other keyword (`$defs`, `$anchor`, `allOf`, `if`/`then`/`else`, …) is kept verbatim.
 */
export type JsonSchemaObject = { type: 'object'; $schema?: string; properties?: { [key: string]: unknown }; required?: string[]; [key: string]: unknown };

/** A tool as this server advertises it: the wire `Tool` with open JSON Schemas. */
export type ToolDefinition = Omit<Tool, 'inputSchema' | 'outputSchema'> & { inputSchema: JsonSchemaObject; outputSchema?: JsonSchemaObject };
