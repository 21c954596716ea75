/**
 * Checks a tool's `structuredContent` against the `outputSchema` the server listed for it
 * (2025-06-18+: clients SHOULD validate structured results). Schemas are remembered from
 * every listing and compiled once per tool, lazily, on the first call that needs them; a
 * later listing with the same schema keeps the compiled validator.
 * The JSON Schema dialect follows `$schema` (2020-12 when absent, digest §4.5); a dialect
 * the validator does not know fails the check with a clear error rather than passing.
 */
import { Validator, type SchemaDraft } from '@cfworker/json-schema';
import { InvalidResultError } from '@statemcp/protocol';
import type { CallToolResult, Tool } from './types.js';

const MAX_REPORTED_ERRORS = 5;

const DIALECTS: ReadonlyMap<string, SchemaDraft> = new Map([
  ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
  ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
  ['http://json-schema.org/draft-07/schema', '7'],
  ['http://json-schema.org/draft-04/schema', '4'],
]);

/** The draft named by a `$schema` URI (with or without a trailing `#`), 2020-12 when absent. */
export function dialectOf(schemaUri: unknown): SchemaDraft | undefined {
  if (schemaUri === undefined) return '2020-12';
  if (typeof schemaUri !== 'string') return undefined;
  const normalized = schemaUri.replace(/#$/, '');
  return DIALECTS.get(normalized) ?? DIALECTS.get(normalized.replace(/^http:/, 'https:')) ?? DIALECTS.get(normalized.replace(/^https:/, 'http:'));
}

type Check = (structured: unknown) => string | undefined;

interface Entry {
  readonly schema: Record<string, unknown>;
  /** The schema serialized, so that a listing repeating the same schema keeps its compiled check. */
  readonly key: string;
  check: Check | undefined;
}

/** Remembers output schemas by tool name and validates call results against them. */
export class ToolOutputValidator {
  readonly #entries = new Map<string, Entry>();

  /** Records the tools of one listing page (a tool without `outputSchema` forgets any old one). */
  remember(tools: readonly Tool[]): void {
    for (const tool of tools) {
      const schema = tool.outputSchema;
      if (schema === undefined) {
        this.#entries.delete(tool.name);
        continue;
      }
      const key = JSON.stringify(schema);
      if (this.#entries.get(tool.name)?.key !== key) this.#entries.set(tool.name, { schema, key, check: undefined });
    }
  }

  /** Forgets every schema (the server said its tool list changed). */
  clear(): void {
    this.#entries.clear();
  }

  /** True when a listing gave `name` an output schema. */
  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /**
   * Throws `InvalidResultError` when `result` breaks the tool's output schema: a successful
   * result must carry `structuredContent`, and it must validate. Error results
   * (`isError: true`) and tools never listed are not checked.
   */
  validate(name: string, result: CallToolResult): void {
    const entry = this.#entries.get(name);
    if (entry === undefined || result.isError === true) return;
    if (result.structuredContent === undefined) {
      throw new InvalidResultError(`Tool ${name} declares an outputSchema but its result has no structuredContent`);
    }
    entry.check ??= compile(entry.schema);
    const problem = entry.check(result.structuredContent);
    if (problem !== undefined) throw new InvalidResultError(`Tool ${name} returned structuredContent that does not match its outputSchema: ${problem}`);
  }
}

function compile(schema: Record<string, unknown>): Check {
  const draft = dialectOf(schema.$schema);
  if (draft === undefined) {
    const dialect = JSON.stringify(schema.$schema);
    return () => `unsupported JSON Schema dialect ${dialect}`;
  }
  let validator: Validator;
  try {
    validator = new Validator(schema, draft, false);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return () => `the outputSchema could not be compiled: ${reason}`;
  }
  return (structured) => {
    const outcome = validator.validate(structured);
    if (outcome.valid) return undefined;
    // The innermost errors come first; report a few, most specific first.
    const errors = outcome.errors.slice(0, MAX_REPORTED_ERRORS).map((unit) => `${unit.instanceLocation}: ${unit.error}`);
    return errors.join('; ');
  };
}
