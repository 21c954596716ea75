import { ErrorCode } from '@statemcp/protocol';
import { createAjvValidator } from '@statemcp/protocol/ajv';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { McpServer } from './mcp-server.js';
import { compileObjectSchema, isStandardSchema, type StandardSchemaLike } from './object-schema.js';
import { initializedClient } from './test-harness.js';

/** Ajv generates code for each engine and schema on first use, slow on a loaded machine. */
const AJV_TIMEOUT_MS = 30_000;

describe('compileObjectSchema', () => {
  it('compiles a zod object once into a frozen JSON Schema and validates with it', async () => {
    const compiled = compileObjectSchema(z.object({ n: z.number().default(1) }), 'input', 'test');
    expect(compiled.kind).toBe('standard');
    expect(Object.isFrozen(compiled.jsonSchema)).toBe(true);
    expect(compiled.jsonSchema).toMatchObject({ type: 'object', properties: { n: { type: 'number', default: 1 } } });
    await expect(compiled.validate({})).resolves.toEqual({ ok: true, value: { n: 1 } });
    await expect(compiled.validate({ n: 'x' })).resolves.toMatchObject({ ok: false, message: expect.stringContaining('n:') });
  });

  it("checks a zod schema's value without zod when its definition decides, with zod's output otherwise", () => {
    const compiled = compileObjectSchema({ text: z.string(), n: z.number().int().optional() }, 'input', 'test');
    const plain = { text: 'hi', n: 2 };
    // Nothing for zod to change: the value itself stands for zod's (equal) output.
    expect((compiled.check(plain) as { value: unknown }).value).toBe(plain);
    // A stripped key, a default, a transform: zod's output, as before.
    expect(compiled.check({ text: 'hi', n: 2, extra: true })).toEqual({ ok: true, value: { text: 'hi', n: 2 } });
    const shaped = compileObjectSchema({ n: z.number().default(1), tag: z.string().transform((t) => t.toUpperCase()).optional() }, 'input', 'test');
    expect(shaped.check({})).toEqual({ ok: true, value: { n: 1 } });
    expect(shaped.check({ n: 2, tag: 'a' })).toEqual({ ok: true, value: { n: 2, tag: 'A' } });
    expect(compiled.check({ text: 'hi', n: 1.5 })).toMatchObject({ ok: false, message: expect.stringContaining('n:') });
    expect(compiled.check({ text: 1 })).toMatchObject({ ok: false, message: expect.stringContaining('text:') });
  });

  it('wraps a raw shape in z.object', async () => {
    const compiled = compileObjectSchema({ a: z.string() }, 'input', 'test');
    expect(compiled.jsonSchema.required).toEqual(['a']);
    await expect(compiled.validate({ a: 1 })).resolves.toMatchObject({ ok: false });
  });

  it("converts a zod object at the first read of its JSON Schema, not at compile; other zod schemas are checked at compile", async () => {
    let shapeReads = 0;
    const compiled = compileObjectSchema(
      z.object({
        get city() {
          shapeReads += 1;
          return z.string();
        },
      }),
      'input',
      'test',
    );
    expect(shapeReads).toBe(0); // zod reads a getter shape once, at its first use
    expect(compiled.jsonSchema.required).toEqual(['city']);
    expect(shapeReads).toBe(1);
    expect(compiled.jsonSchema).toBe(compiled.jsonSchema);
    expect(Object.isFrozen(compiled.jsonSchema)).toBe(true);
    await expect(compiled.validate({ city: 'Paris' })).resolves.toEqual({ ok: true, value: { city: 'Paris' } });
    expect(() => compileObjectSchema(z.string() as never, 'input', 'Tool t inputSchema')).toThrow('Tool t inputSchema: the schema must describe an object (its JSON Schema has type "string")');
  });

  it('keeps a JSON Schema verbatim (a copy, frozen) and passes objects through', async () => {
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' as const, $defs: { x: { $anchor: 'x' } } };
    const compiled = compileObjectSchema(schema, 'input', 'test');
    expect(compiled.jsonSchema).toEqual(schema);
    expect(compiled.jsonSchema).not.toBe(schema);
    await expect(compiled.validate({ anything: true })).resolves.toEqual({ ok: true, value: { anything: true } });
    await expect(compiled.validate([])).resolves.toMatchObject({ ok: false });
  });

  it('validates values against a raw JSON Schema (2020-12 by default, $schema honoured)', async () => {
    const compiled = compileObjectSchema(
      { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city'], additionalProperties: false },
      'input',
      'test',
    );
    await expect(compiled.validate({ city: 'Paris', days: 2 })).resolves.toMatchObject({ ok: true });
    await expect(compiled.validate({ days: 0 })).resolves.toMatchObject({ ok: false, message: expect.stringMatching(/city|days/) as string });
    await expect(compiled.validate({ city: 'Paris', extra: 1 })).resolves.toMatchObject({ ok: false });
    const unknownDialect = compileObjectSchema({ $schema: 'https://example.com/x', type: 'object' }, 'input', 'test');
    await expect(unknownDialect.validate({})).resolves.toMatchObject({ ok: false, message: expect.stringMatching(/unsupported JSON Schema dialect/) as string });
  });

  it('uses a non-zod Standard Schema and its JSON Schema converter', async () => {
    const custom: StandardSchemaLike<{ ok: boolean }> & { '~standard': { jsonSchema: { input: () => Record<string, unknown>; output: () => Record<string, unknown> } } } = {
      '~standard': {
        version: 1,
        vendor: 'custom',
        validate: (value) => (typeof value === 'object' && value !== null && 'ok' in value ? { value: value as { ok: boolean } } : { issues: [{ message: 'needs ok' }] }),
        jsonSchema: { input: () => ({ type: 'object', properties: { ok: { type: 'boolean' } } }), output: () => ({ type: 'object' }) },
      },
    };
    const compiled = compileObjectSchema(custom, 'input', 'test');
    expect(compiled.jsonSchema.properties).toEqual({ ok: { type: 'boolean' } });
    await expect(compiled.validate({})).resolves.toEqual({ ok: false, message: 'needs ok' });
  });

  it.each([
    ['a non-object JSON Schema', { type: 'string' }],
    ['a shape with a non-zod value', { a: 1 }],
    ['an array', []],
  ])('refuses %s', (_label, input) => {
    expect(() => compileObjectSchema(input as never, 'input', 'test')).toThrow(TypeError);
  });

  it.each([
    ['a zod 3 object', () => z3.object({ a: z3.string() })],
    ['a raw shape of zod 3 schemas', () => ({ a: z3.string(), b: z3.number() })],
  ])('refuses %s, saying that zod 4 is required', (_label, make) => {
    expect(() => compileObjectSchema(make() as never, 'input', 'Tool t inputSchema')).toThrow(
      'Tool t inputSchema: zod 4 is required (import from `zod` ≥ 4, or from `zod/v4` in zod 3.25); this schema comes from zod 3',
    );
  });

  it('rejects a raw shape of zod 3 schemas at the type level', () => {
    const server = new McpServer({ name: 's', version: '1' });
    expect(() =>
      // @ts-expect-error zod 3 schemas have no `_zod`: a raw shape of them is not a RawShape
      server.registerTool('t', { inputSchema: { a: z3.string() } }, () => ({ content: [] })),
    ).toThrow('zod 4 is required');
  });

  it('recognizes Standard Schemas', () => {
    expect(isStandardSchema(z.string())).toBe(true);
    expect(isStandardSchema({ type: 'object' })).toBe(false);
  });
});

describe('McpServer jsonSchemaValidator option', () => {
  it('checks JSON Schema tool arguments and prompt arguments with the given engine (Ajv with formats)', async () => {
    const server = new McpServer({ name: 'ajv', version: '1' }, { jsonSchemaValidator: createAjvValidator() });
    const inputSchema = { type: 'object' as const, properties: { email: { type: 'string', format: 'email' } }, required: ['email'] };
    server.registerTool('invite', { inputSchema }, (args) => ({ content: [{ type: 'text', text: `invited ${String(args.email)}` }] }));
    server.registerPrompt('greet', { argsSchema: inputSchema }, (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `hi ${String(args.email)}` } }] }));
    const test = await initializedClient(server);
    await expect(test.client.request('tools/call', { name: 'invite', arguments: { email: 'ada@example.com' } })).resolves.toMatchObject({ content: [{ text: 'invited ada@example.com' }] });
    await expect(test.client.request('tools/call', { name: 'invite', arguments: { email: 'nobody' } })).resolves.toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Invalid arguments for tool invite: #/email: must match format "email"' }],
    });
    await expect(test.client.request('prompts/get', { name: 'greet', arguments: { email: 'nobody' } })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Invalid arguments for prompt greet: #/email: must match format "email"',
    });
  }, AJV_TIMEOUT_MS);
});
