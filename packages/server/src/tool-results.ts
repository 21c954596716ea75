/**
 * Shaping and checking what a tool handler returns, per negotiated revision (MCP 2025-11-25
 * server/tools §Error Handling):
 * thrown errors become `isError: true` results (tool execution errors the model can see),
 * except `JsonRpcError`s, which stay protocol errors; `structuredContent` must conform to
 * the tool's output schema (otherwise -32603: the server broke its own contract, which
 * the model cannot fix); revisions before 2025-06-18 get no `structuredContent`, only its
 * JSON text; the result is checked against the revision's `CallToolResult` schema.
 *
 * A tool with an output schema may return its structured value alone: it becomes
 * `structuredContent`, and `content` gets one text block with the value serialized as JSON
 * (2025-06-18, "Tools: structured content": a tool returning structured content SHOULD also
 * return the serialized JSON in a TextContent block).
 */
import { ErrorCode, JsonRpcError, type JsonObject } from '@statemcp/protocol';
import { getRevision, hasFeature, parseUnlessPassed } from '@statemcp/protocol/internal';
import type { CompiledSchema } from './object-schema.js';
import { thenMaybe, type MaybePromise } from './sync-or-async.js';
import { completeResult } from './caching.js';
import type { CallToolResult } from './wire-types.js';

/** A `CallToolResult` whose `structuredContent` has the type the tool's output schema gives. */
export type StructuredToolResult<Out> = Omit<CallToolResult, 'structuredContent'> & { structuredContent: Out };

/** A tool execution error (`isError: true`): its `structuredContent`, if any, is not checked. */
export type ToolErrorResult = CallToolResult & { isError: true };

/**
 * What a handler of a tool with an output schema returns: a full result whose
 * `structuredContent` matches the schema, an error result, or the structured value alone. A
 * value that has `content`, `structuredContent` or `isError` at its top level would read as a
 * full result, so such a schema takes full results only.
 */
export type ToolResultOf<Out> = StructuredToolResult<Out> | ToolErrorResult | (Out extends { content: unknown } | { structuredContent: unknown } | { isError: unknown } ? never : Out);

/** True when a handler's value is a `CallToolResult` rather than a structured value alone. */
function isFullResult(value: JsonObject): boolean {
  return 'content' in value || 'structuredContent' in value || 'isError' in value;
}

/** A tool execution error result with `message` as its text. */
export function toolErrorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** The error result for something a handler threw (`JsonRpcError`s are rethrown as protocol errors). */
export function resultFromThrown(error: unknown): CallToolResult {
  if (error instanceof JsonRpcError) throw error;
  const message = error instanceof Error ? error.message : String(error);
  return toolErrorResult(message === '' ? 'Tool execution failed' : message);
}

/**
 * Checks and shapes a handler's result for `version`; throws -32603 when the server broke its
 * contract. Synchronous unless the tool's output schema validates asynchronously.
 */
export function finishToolResult(toolName: string, value: unknown, output: CompiledSchema | undefined, version: string): MaybePromise<JsonObject> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new JsonRpcError(ErrorCode.InternalError, `Tool ${toolName} returned a non-object result`);
  }
  const given = value as JsonObject;
  // The result is shaped in place below: a copy of the handler's object, made by completeResult
  // where the revision adds `resultType` (2026-07-28+), here otherwise.
  const wrapped = output !== undefined && !isFullResult(given) ? { structuredContent: given } : given;
  const completed = completeResult(wrapped, version);
  const result: JsonObject = completed === given ? { ...given } : completed;
  const structured = result.structuredContent;
  if (output === undefined || result.isError === true) return shapeToolResult(toolName, result, version);
  if (typeof structured !== 'object' || structured === null) {
    throw new JsonRpcError(ErrorCode.InternalError, `Tool ${toolName} has an outputSchema but returned no structuredContent`);
  }
  return thenMaybe(output.check(structured), (checked) => {
    if (!checked.ok) throw new JsonRpcError(ErrorCode.InternalError, `Tool ${toolName} returned structuredContent that does not match its outputSchema: ${checked.message}`);
    return shapeToolResult(toolName, result, version);
  });
}

/** The rest of {@link finishToolResult}, once `structuredContent` passed the output schema. */
function shapeToolResult(toolName: string, result: JsonObject, version: string): JsonObject {
  const structured = result.structuredContent;
  if (result.content === undefined) {
    if (structured === undefined) {
      const keys = Object.keys(result);
      throw new JsonRpcError(
        ErrorCode.InternalError,
        `Tool ${toolName} returned a result with neither content nor structuredContent (${keys.length === 0 ? 'an empty object' : `its keys: ${keys.join(', ')}`})`,
      );
    }
    result.content = [{ type: 'text', text: JSON.stringify(structured) }];
  }
  if (!hasFeature(version, 'structuredOutput') && structured !== undefined) {
    delete result.structuredContent;
    if (Array.isArray(result.content) && result.content.length === 0) result.content = [{ type: 'text', text: JSON.stringify(structured) }];
  }
  const schema = getRevision(version)?.schemas.CallToolResult;
  const parsed = schema === undefined ? undefined : parseUnlessPassed(schema, result);
  if (parsed !== undefined && !parsed.success) {
    throw new JsonRpcError(ErrorCode.InternalError, `Tool ${toolName} returned a result that is not a valid CallToolResult in protocol revision ${version}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return result;
}
