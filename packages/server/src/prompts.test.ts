import { ErrorCode, LEGACY_PROTOCOL_VERSIONS, type JsonObject } from '@statemcp/protocol';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { McpServer } from './mcp-server.js';
import { flush, initializedClient } from './test-harness.js';

const INFO = { name: 'prompts-server', version: '1.0.0' };

function promptServer() {
  const server = new McpServer(INFO);
  server.registerPrompt('test_simple_prompt', { description: 'A simple prompt' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      title: 'With arguments',
      description: 'A prompt with arguments',
      argsSchema: { arg1: z.string().describe('First argument'), arg2: z.string().describe('Second argument'), arg3: z.string().optional() },
      complete: { arg1: (value) => Array.from({ length: 150 }, (_, i) => `${value}${i}`) },
    },
    ({ arg1, arg2 }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }] }),
  );
  server.registerPrompt('listed_args', { argsSchema: [{ name: 'topic', title: 'Topic', description: 'What about', required: true }] }, (args) => ({
    messages: [{ role: 'assistant', content: { type: 'text', text: `About ${args.topic ?? ''}` } }],
  }));
  return server;
}

describe('McpServer', () => {
  describe('#registerPrompt', () => {
    it.each(LEGACY_PROTOCOL_VERSIONS)('lists prompts with their arguments at %s', async (version) => {
      const test = await initializedClient(promptServer(), { version });
      const { prompts } = await test.client.request('prompts/list');
      const withArgs = (prompts as JsonObject[])[1];
      expect(withArgs?.arguments).toEqual([
        { name: 'arg1', description: 'First argument', required: true },
        { name: 'arg2', description: 'Second argument', required: true },
        { name: 'arg3', required: false },
      ]);
      expect(withArgs?.title === undefined).toBe(version < '2025-06-18');
      const listed = (prompts as JsonObject[])[2]?.arguments as JsonObject[];
      expect(listed[0]?.title === undefined).toBe(version < '2025-06-18');
    });

    it('gets a prompt with validated arguments', async () => {
      const test = await initializedClient(promptServer());
      await expect(test.client.request('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'testValue1', arg2: 'testValue2' } })).resolves.toEqual({
        messages: [{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='testValue1', arg2='testValue2'" } }],
      });
    });

    it.each([
      ['an unknown prompt', { name: 'nope' }],
      ['a missing required argument (schema)', { name: 'test_prompt_with_arguments', arguments: { arg1: 'x' } }],
      ['a missing required argument (list)', { name: 'listed_args', arguments: {} }],
    ])('answers %s with -32602', async (_label, params) => {
      const test = await initializedClient(promptServer());
      await expect(test.client.request('prompts/get', params)).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });

    it('accepts a zod object, any Standard Schema with a JSON Schema converter, and a JSON Schema object', async () => {
      const server = new McpServer(INFO);
      server.registerPrompt('zod_object', { argsSchema: z.object({ city: z.string().describe('Where'), units: z.enum(['c', 'f']).optional() }) }, ({ city, units }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `${city} in ${units ?? 'c'}` } }],
      }));
      const custom = {
        '~standard': {
          version: 1 as const,
          vendor: 'custom',
          validate: (value: unknown) => {
            const topic = (value as { topic?: unknown }).topic;
            return typeof topic === 'string' ? { value: { topic: topic.toUpperCase() } } : { issues: [{ message: 'topic is required', path: ['topic'] }] };
          },
          types: undefined as unknown as { input: unknown; output: { topic: string } },
          jsonSchema: { input: () => ({ type: 'object', properties: { topic: { type: 'string', title: 'Topic' } }, required: ['topic'] }), output: () => ({ type: 'object' }) },
        },
      };
      server.registerPrompt('standard', { argsSchema: custom }, ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: topic } }] }));
      server.registerPrompt('json', { argsSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO code' } }, required: ['code'] } }, (args) => ({
        messages: [{ role: 'user', content: { type: 'text', text: String(args.code) } }],
      }));
      const test = await initializedClient(server);
      const { prompts } = await test.client.request('prompts/list');
      expect((prompts as JsonObject[]).map((prompt) => prompt.arguments)).toEqual([
        [
          { name: 'city', description: 'Where', required: true },
          { name: 'units', required: false },
        ],
        [{ name: 'topic', title: 'Topic', required: true }],
        [{ name: 'code', description: 'ISO code', required: true }],
      ]);
      const text = async (name: string, args: JsonObject) => ((await test.client.request('prompts/get', { name, arguments: args })).messages as { content: { text: string } }[])[0]?.content.text;
      await expect(text('zod_object', { city: 'Oslo', units: 'f' })).resolves.toBe('Oslo in f');
      await expect(text('standard', { topic: 'tides' })).resolves.toBe('TIDES');
      await expect(text('json', { code: 'NOK' })).resolves.toBe('NOK');
      await expect(test.client.request('prompts/get', { name: 'zod_object', arguments: { city: 'Oslo', units: 'k' } })).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: /Invalid arguments for prompt zod_object: units/ });
      await expect(test.client.request('prompts/get', { name: 'standard', arguments: {} })).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: /topic: topic is required/ });
      await expect(test.client.request('prompts/get', { name: 'json', arguments: { code: 'nok' } })).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: /Invalid arguments for prompt json/ });
    });

    it('refuses a zod 3 schema and a schema that does not describe an object at registration', () => {
      const server = new McpServer(INFO);
      expect(() => server.registerPrompt('z3', { argsSchema: { a: z3.string() } as never }, () => ({ messages: [] }))).toThrow(/zod 4 is required/);
      expect(() => server.registerPrompt('str', { argsSchema: z.string() as never }, () => ({ messages: [] }))).toThrow(/must describe an object/);
    });

    it('infers handler arguments from a zod object', () => {
      const server = new McpServer(INFO);
      server.registerPrompt('typed', { argsSchema: z.object({ a: z.string(), b: z.string().optional() }) }, (args) => {
        expectTypeOf(args).toEqualTypeOf<{ a: string; b?: string | undefined }>();
        return { messages: [] };
      });
    });

    it('answers prompts/list on a server without prompts with -32601', async () => {
      const server = new McpServer(INFO);
      server.registerTool('t', {}, () => ({ content: [] }));
      const test = await initializedClient(server, { session: { strictCapabilities: false } });
      await expect(test.client.request('prompts/list')).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    });
  });

  describe('#update', () => {
    it('replaces config and handler, renames in place, and sends one list_changed per tick', async () => {
      const server = promptServer();
      const test = await initializedClient(server);
      const handle = server.registerPrompt('draft', { description: 'old' }, () => ({ messages: [] }));
      await flush();
      handle.update(
        { name: 'final', description: 'new', argsSchema: { topic: z.string() }, complete: { topic: (value) => [`${value}!`] } },
        ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `About ${topic}` } }] }),
      );
      handle.disable();
      handle.enable();
      await flush();
      expect(test.notifications('notifications/prompts/list_changed')).toHaveLength(2);
      expect(handle.name).toBe('final');
      const { prompts } = await test.client.request('prompts/list');
      expect((prompts as JsonObject[]).map((p) => p.name)).toEqual(['test_simple_prompt', 'test_prompt_with_arguments', 'listed_args', 'final']);
      expect((prompts as JsonObject[])[3]).toEqual({ name: 'final', description: 'new', arguments: [{ name: 'topic', required: true }] });
      await expect(test.client.request('prompts/get', { name: 'final', arguments: { topic: 'x' } })).resolves.toEqual({
        messages: [{ role: 'user', content: { type: 'text', text: 'About x' } }],
      });
      await expect(test.client.request('prompts/get', { name: 'final', arguments: {} })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
      await expect(test.client.request('prompts/get', { name: 'draft' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
      await expect(test.client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'final' }, argument: { name: 'topic', value: 'a' } })).resolves.toEqual({
        completion: { values: ['a!'] },
      });
      handle.remove();
      await expect(test.client.request('prompts/get', { name: 'final', arguments: { topic: 'x' } })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });

    it('refuses a name already registered, changing nothing', async () => {
      const server = promptServer();
      const handle = server.registerPrompt('mine', { description: 'kept' }, () => ({ messages: [] }));
      expect(() => handle.update({ name: 'listed_args', description: 'lost' })).toThrow(/already registered/);
      const test = await initializedClient(server);
      const { prompts } = await test.client.request('prompts/list');
      expect((prompts as JsonObject[])[3]).toEqual({ name: 'mine', description: 'kept' });
    });
  });

  describe('completion/complete', () => {
    it('caps values at 100 and reports total and hasMore', async () => {
      const test = await initializedClient(promptServer());
      const { completion } = await test.client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'v' } });
      const page = completion as { values: string[]; total: number; hasMore: boolean };
      expect(page.values).toHaveLength(100);
      expect(page.total).toBe(150);
      expect(page.hasMore).toBe(true);
    });

    it('answers an argument without completer with no values and an unknown prompt with -32602', async () => {
      const test = await initializedClient(promptServer());
      await expect(test.client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg2', value: '' } })).resolves.toEqual({
        completion: { values: [] },
      });
      await expect(test.client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } })).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      });
    });

    it('passes resolved context arguments to the completer (2025-06-18+)', async () => {
      const server = new McpServer(INFO);
      server.registerPrompt('p', { argsSchema: { a: z.string(), b: z.string() }, complete: { b: (value, { arguments: resolved }) => [`${resolved.a ?? '?'}-${value}`] } }, () => ({ messages: [] }));
      const test = await initializedClient(server);
      await expect(test.client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'b', value: 'x' }, context: { arguments: { a: 'A' } } })).resolves.toEqual({
        completion: { values: ['A-x'] },
      });
    });

    it('works at 2024-11-05, which has completion/complete but no completions capability', async () => {
      const test = await initializedClient(promptServer(), { version: '2024-11-05' });
      expect(test.client.peer?.capabilities.completions).toBeUndefined();
      await expect(test.client.request('completion/complete', { ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg2', value: '' } })).resolves.toEqual({
        completion: { values: [] },
      });
    });
  });
});
