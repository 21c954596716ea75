import { InvalidResultError, ToolOutputError } from '@statemcp/protocol';
import { compileJsonSchema } from '@statemcp/protocol/internal';
import { createAjvValidator } from '@statemcp/protocol/ajv';
import { describe, expect, it } from 'vitest';
import { createScriptedServer } from '../test/scripted-server.js';
import { Client } from './client.js';
import { ToolOutputValidator } from './tool-output.js';
import type { Tool } from './types.js';

function tool(outputSchema: Record<string, unknown>): Tool {
  return { name: 't', inputSchema: { type: 'object' }, outputSchema: outputSchema as NonNullable<Tool['outputSchema']> };
}

/** Ajv generates code for each engine and schema on first use, slow on a loaded machine. */
const AJV_TIMEOUT_MS = 30_000;

describe('ToolOutputValidator', () => {
  describe('#validate', () => {
    it('checks 2020-12 keywords such as $defs and prefixItems', () => {
      const validator = new ToolOutputValidator();
      validator.remember([
        tool({
          type: 'object',
          $defs: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } },
          properties: { at: { $ref: '#/$defs/point' } },
          required: ['at'],
        }),
      ]);
      expect(() => validator.validate('t', { content: [], structuredContent: { at: [1, 2] } })).not.toThrow();
      expect(() => validator.validate('t', { content: [], structuredContent: { at: [1, 2, 3] } })).toThrow(InvalidResultError);
    });

    it('follows a draft-07 $schema', () => {
      const validator = new ToolOutputValidator();
      validator.remember([tool({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'integer' } } })]);
      expect(() => validator.validate('t', { content: [], structuredContent: { n: 1.5 } })).toThrow(/\/n/);
    });

    it('fails with a clear error for a dialect it does not know', () => {
      const validator = new ToolOutputValidator();
      validator.remember([tool({ $schema: 'https://example.com/dialect', type: 'object' })]);
      expect(() => validator.validate('t', { content: [], structuredContent: {} })).toThrow(/unsupported JSON Schema dialect/);
    });

    it('compiles a schema once, and again only when a listing changes it', () => {
      const compiled = { count: 0 };
      const validator = new ToolOutputValidator({ compile: (schema) => (compiled.count++, compileJsonSchema(schema)) });
      const before = compiled.count;
      validator.remember([tool({ type: 'object', properties: { n: { type: 'number' } } })]);
      expect(compiled.count).toBe(before);
      validator.validate('t', { content: [], structuredContent: { n: 1 } });
      validator.validate('t', { content: [], structuredContent: { n: 2 } });
      validator.remember([tool({ type: 'object', properties: { n: { type: 'number' } } })]);
      validator.validate('t', { content: [], structuredContent: { n: 3 } });
      expect(compiled.count).toBe(before + 1);
      validator.remember([tool({ type: 'object', properties: { n: { type: 'string' } } })]);
      expect(() => validator.validate('t', { content: [], structuredContent: { n: 4 } })).toThrow(InvalidResultError);
      expect(compiled.count).toBe(before + 2);
    });

    it('forgets a schema when a later listing drops it', () => {
      const validator = new ToolOutputValidator();
      validator.remember([tool({ type: 'object', required: ['x'] })]);
      expect(validator.has('t')).toBe(true);
      validator.remember([{ name: 't', inputSchema: { type: 'object' } }]);
      expect(validator.has('t')).toBe(false);
      expect(() => validator.validate('t', { content: [] })).not.toThrow();
    });
  });
});

describe('Client jsonSchemaValidator option', () => {
  it('checks structuredContent with the given engine (Ajv with formats)', async () => {
    const tools = [{ name: 'who', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] } }];
    const server = await createScriptedServer({
      capabilities: { tools: {} },
      answer: (method) => (method === 'tools/list' ? { tools } : method === 'tools/call' ? { content: [], structuredContent: { email: 'nobody' } } : undefined),
    });
    const client = new Client({ name: 'c', version: '1' }, { jsonSchemaValidator: createAjvValidator() });
    await client.connect(server.clientSide);
    await client.listTools();
    const error = await client.callTool({ name: 'who' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResultError);
    expect((error as Error).message).toMatch(/#\/email: must match format "email"/);
    await client.close();
  }, AJV_TIMEOUT_MS);
});

describe('Client#callTool with ensureOutputSchema', () => {
  it('lists the tools once, checks the declared schema, and does not list again for a tool the listing lacks', async () => {
    const tools = [{ name: 'count', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }];
    const server = await createScriptedServer({
      capabilities: { tools: {} },
      answer: (method, params) => (method === 'tools/list' ? { tools } : method === 'tools/call' ? { content: [], structuredContent: { n: params?.name === 'count' ? 'many' : 1 } } : undefined),
    });
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(server.clientSide);
    const error = await client.callTool({ name: 'count' }, { ensureOutputSchema: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolOutputError);
    expect(error).toBeInstanceOf(InvalidResultError);
    expect(error).toMatchObject({ code: 'INVALID_RESULT', tool: 'count', structuredContent: { n: 'many' } });
    await client.callTool({ name: 'hidden' }, { ensureOutputSchema: true });
    await client.callTool({ name: 'hidden' }, { ensureOutputSchema: true });
    expect(server.requests('tools/list')).toHaveLength(1);
    await client.close();
  });
});
