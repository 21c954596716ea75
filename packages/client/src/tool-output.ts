/**
 * Checks a tool's `structuredContent` against the `outputSchema` the server listed for it
 * (2025-06-18+: clients SHOULD validate structured results). Schemas are remembered from
 * every listing and compiled once per tool, lazily, on the first call that needs them; a
 * later listing with the same schema keeps the compiled validator.
 * The JSON Schema dialect follows `$schema` (2020-12 when absent, MCP 2025-11-25 basic/index §JSON
 * Schema Usage; see the
 * protocol package's `compileJsonSchema`, or the client's `jsonSchemaValidator`): an unknown dialect fails the check with a clear
 * error rather than passing.
 */
import { ToolOutputError, defaultJsonSchemaValidator, type JsonSchemaCheck, type JsonSchemaValidator } from '@statemcp/protocol';
import type { CallToolResult, Tool } from './types.js';

type Check = JsonSchemaCheck;

interface Entry {
  readonly schema: Record<string, unknown>;
  /** The schema serialized, so that a listing repeating the same schema keeps its compiled check. */
  readonly key: string;
  check: Check | undefined;
}

/** Remembers output schemas by tool name and validates call results against them. */
export class ToolOutputValidator {
  /** Built by the first listing that gives a tool an output schema. */
  #entries: Map<string, Entry> | undefined;
  /** Tools the last listings showed without an output schema. */
  readonly #without = new Set<string>();
  /** A full listing was read since the last `clear()`: a tool it did not show is not listed again. */
  #complete = false;
  readonly #validator: JsonSchemaValidator;

  /** `validator` is the client's `jsonSchemaValidator` option; it defaults to the protocol package's engine. */
  constructor(validator: JsonSchemaValidator = defaultJsonSchemaValidator) {
    this.#validator = validator;
  }

  /** Records the tools of one listing page (a tool without `outputSchema` forgets any old one). */
  remember(tools: readonly Tool[]): void {
    for (const tool of tools) {
      const schema = tool.outputSchema;
      if (schema === undefined) {
        this.#entries?.delete(tool.name);
        this.#without.add(tool.name);
        continue;
      }
      this.#without.delete(tool.name);
      const key = JSON.stringify(schema);
      const entries = (this.#entries ??= new Map());
      if (entries.get(tool.name)?.key !== key) entries.set(tool.name, { schema, key, check: undefined });
    }
  }

  /** Forgets every schema (the server said its tool list changed). */
  clear(): void {
    this.#entries?.clear();
    this.#without.clear();
    this.#complete = false;
  }

  /** Records that every page of `tools/list` was just read. */
  markComplete(): void {
    this.#complete = true;
  }

  /** Whether listing the tools could tell more about `name`: no full listing since the last change showed it. */
  needsListing(name: string): boolean {
    return !this.#complete && !this.listed(name);
  }

  /** Whether a listing since the last `clear()` showed `name` (with or without an output schema). */
  listed(name: string): boolean {
    return this.#without.has(name) || this.has(name);
  }

  /** True when a listing gave `name` an output schema. */
  has(name: string): boolean {
    return this.#entries?.has(name) === true;
  }

  /**
   * Throws `ToolOutputError` (an `InvalidResultError`) when `result` breaks the tool's output schema: a successful
   * result must carry `structuredContent`, and it must validate. Error results
   * (`isError: true`) and tools never listed are not checked.
   */
  validate(name: string, result: CallToolResult): void {
    const entry = this.#entries?.get(name);
    if (entry === undefined || result.isError === true) return;
    if (result.structuredContent === undefined) {
      throw new ToolOutputError(name, undefined, 'no structuredContent');
    }
    entry.check ??= this.#validator.compile(entry.schema);
    const problem = entry.check(result.structuredContent);
    if (problem !== undefined) throw new ToolOutputError(name, result.structuredContent, problem);
  }
}
