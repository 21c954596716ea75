/**
 * Typed tool results: `structuredContent` checked with the Standard Schema a caller gives
 * (`callTool(params, { outputSchema })`), after the server's declared `outputSchema` was
 * checked (2025-06-18, "Tools: output schema": clients SHOULD validate structured results).
 */
import { ToolOutputError, type CustomSchema } from '@statemcp/protocol';
import { validateCustomAsync } from '@statemcp/protocol/internal';
import type { CallToolResult } from './types.js';

/**
 * A tool result whose `structuredContent` has the type `Out`, or a tool execution error
 * (`isError: true`, nothing checked): narrow on `isError`.
 */
export type TypedCallToolResult<Out> = (Omit<CallToolResult, 'structuredContent' | 'isError'> & { readonly isError?: false; readonly structuredContent: Out }) | (CallToolResult & { readonly isError: true });

/**
 * Checks a successful result's `structuredContent` with `schema`; the result returned carries
 * the schema's output (a zod transform applies). Throws `ToolOutputError` on a mismatch.
 */
export async function checkStructured<Out>(tool: string, result: CallToolResult, schema: CustomSchema<Out>): Promise<TypedCallToolResult<Out>> {
  if (result.isError === true) return result as CallToolResult & { isError: true };
  const structured = result.structuredContent;
  if (structured === undefined) throw new ToolOutputError(tool, undefined, 'no structuredContent');
  const checked = await validateCustomAsync(schema, structured);
  if (!checked.ok) throw new ToolOutputError(tool, structured, checked.message);
  return { ...result, structuredContent: checked.value as Out } as TypedCallToolResult<Out>;
}
