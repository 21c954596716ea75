import { ErrorCode, JsonRpcError, LEGACY_PROTOCOL_VERSIONS, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { connectClient, flush, initializedClient } from './test-harness.js';
import type { CallToolResult } from './wire-types.js';

const INFO = { name: 'tools-server', version: '1.0.0' };

/** A 2020-12 schema using keywords zod would never produce; it must come back verbatim. */
const ADDRESS_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addr', type: 'object', properties: { street: { type: 'string' } }, required: ['street'] } },
  properties: {
    home: { $ref: '#/$defs/address' },
    kind: { anyOf: [{ const: 'a' }, { const: 'b' }] },
    count: { allOf: [{ type: 'integer' }, { minimum: 0 }] },
  },
  if: { properties: { kind: { const: 'a' } } },
  then: { required: ['home'] },
  else: { required: ['count'] },
  additionalProperties: false,
} as const;

function lastResultWith(received: JsonObject[], key: string): JsonObject {
  const found = [...received].reverse().find((m) => typeof m.result === 'object' && m.result !== null && key in (m.result as JsonObject));
  return found?.result as JsonObject;
}

function richServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer(INFO, options);
  server.registerTool(
    'add',
    {
      title: 'Add',
      description: 'Adds two numbers',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: { sum: z.number() },
      annotations: { readOnlyHint: true },
      icons: [{ src: 'https://example.com/add.png' }],
      _meta: { 'com.example/x': 1 },
    },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  return server;
}

describe('McpServer', () => {
  describe('#registerTool', () => {
    it.each([
      ['2024-11-05', ['description', 'inputSchema', 'name']],
      ['2025-03-26', ['annotations', 'description', 'inputSchema', 'name']],
      ['2025-06-18', ['_meta', 'annotations', 'description', 'inputSchema', 'name', 'outputSchema', 'title']],
      ['2025-11-25', ['_meta', 'annotations', 'description', 'icons', 'inputSchema', 'name', 'outputSchema', 'title']],
    ])('lists a tool at %s with only the fields that revision has', async (version, keys) => {
      const test = await initializedClient(richServer(), { version });
      await test.client.request('tools/list');
      const tools = lastResultWith(test.received, 'tools').tools as JsonObject[];
      expect(Object.keys(tools[0] ?? {}).sort()).toEqual(keys);
    });

    it('keeps a JSON Schema inputSchema verbatim and tools/list byte-stable', async () => {
      const server = new McpServer(INFO);
      server.registerTool('json_schema_tool', { description: 'raw schema', inputSchema: ADDRESS_SCHEMA }, () => ({ content: [] }));
      const test = await initializedClient(server);
      await test.client.request('tools/list');
      const first = JSON.stringify(lastResultWith(test.received, 'tools'));
      await test.client.request('tools/list');
      expect(JSON.stringify(lastResultWith(test.received, 'tools'))).toBe(first);
      const tools = lastResultWith(test.received, 'tools').tools as JsonObject[];
      expect(JSON.stringify(tools[0]?.inputSchema)).toBe(JSON.stringify(ADDRESS_SCHEMA));
    });

    it('derives the JSON Schema from a raw zod shape once', async () => {
      const server = new McpServer(INFO);
      server.registerTool('greet', { inputSchema: { name: z.string().describe('Who'), loud: z.boolean().optional() } }, ({ name, loud }) => ({
        content: [{ type: 'text', text: loud === true ? name.toUpperCase() : name }],
      }));
      const test = await initializedClient(server);
      const { tools } = await test.client.request('tools/list');
      expect((tools as JsonObject[])[0]?.inputSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string', description: 'Who' } }, required: ['name'] });
      await expect(test.client.request('tools/call', { name: 'greet', arguments: { name: 'ada', loud: true } })).resolves.toMatchObject({ content: [{ text: 'ADA' }] });
    });

    it('refuses invalid names and duplicates', () => {
      const server = new McpServer(INFO);
      expect(() => server.registerTool('has space', {}, () => ({ content: [] }))).toThrow(TypeError);
      server.registerTool('once', {}, () => ({ content: [] }));
      expect(() => server.registerTool('once', {}, () => ({ content: [] }))).toThrow(/already registered/);
    });

    it('refuses a schema that does not describe an object', () => {
      const server = new McpServer(INFO);
      expect(() => server.registerTool('bad', { inputSchema: z.string() as never }, () => ({ content: [] }))).toThrow(/object/);
    });
  });

  describe('tools/call', () => {
    it.each(LEGACY_PROTOCOL_VERSIONS)('calls a tool with validated arguments at %s', async (version) => {
      const test = await initializedClient(richServer(), { version });
      const result = await test.client.request('tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
      expect(result.content).toEqual([{ type: 'text', text: '5' }]);
      if (version >= '2025-06-18') expect(result.structuredContent).toEqual({ sum: 5 });
      else expect(result.structuredContent).toBeUndefined();
    });

    it('gives the handler the HTTP request of the call as extra.http, and undefined without one', async () => {
      const server = new McpServer(INFO);
      server.registerTool('whoami', {}, (_args, extra) => ({
        content: [{ type: 'text', text: extra.http === undefined ? 'none' : `${extra.http.method} ${extra.http.url} ${extra.http.headers['x-user'] ?? ''}` }],
      }));
      const test = await initializedClient(server);
      const without = await test.client.request('tools/call', { name: 'whoami' });
      expect(without.content).toEqual([{ type: 'text', text: 'none' }]);
      test.clientTransport.context = {
        http: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', headers: { 'x-user': 'ada' }, remoteAddress: '127.0.0.1' },
      };
      const withRequest = await test.client.request('tools/call', { name: 'whoami' });
      expect(withRequest.content).toEqual([{ type: 'text', text: 'POST http://127.0.0.1:3000/mcp ada' }]);
    });

    it('answers an unknown tool with -32602', async () => {
      const test = await initializedClient(richServer());
      await expect(test.client.request('tools/call', { name: 'nope' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });

    it('reports invalid arguments as an isError result from 2025-11-25 on (SEP-1303)', async () => {
      const test = await initializedClient(richServer(), { version: '2025-11-25' });
      const result = await test.client.request('tools/call', { name: 'add', arguments: { a: 'x', b: 1 } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('Invalid arguments for tool add');
    });

    it.each(['2024-11-05', '2025-03-26', '2025-06-18'])('reports invalid arguments as -32602 at %s', async (version) => {
      const test = await initializedClient(richServer(), { version });
      await expect(test.client.request('tools/call', { name: 'add', arguments: { a: 'x' } })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });

    it('turns a thrown error into an isError result and keeps a thrown JsonRpcError a protocol error', async () => {
      const server = new McpServer(INFO);
      server.registerTool('fails', {}, () => {
        throw new Error('the backend is down');
      });
      server.registerTool('refuses', {}, () => {
        throw new JsonRpcError(ErrorCode.InvalidParams, 'not today');
      });
      const test = await initializedClient(server);
      await expect(test.client.request('tools/call', { name: 'fails' })).resolves.toEqual({ content: [{ type: 'text', text: 'the backend is down' }], isError: true });
      await expect(test.client.request('tools/call', { name: 'refuses' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: 'not today' });
    });

    it('answers -32603 when structuredContent breaks the outputSchema or is missing', async () => {
      const server = new McpServer(INFO);
      // The handlers' types refuse these results; a handler typed loosely (or JavaScript) can still return them.
      const wrong = (): CallToolResult => ({ content: [], structuredContent: { n: 'x' } });
      const missing = (): CallToolResult => ({ content: [] });
      server.registerTool('wrong', { outputSchema: { n: z.number() } }, wrong as never);
      server.registerTool('missing', { outputSchema: { n: z.number() } }, missing as never);
      server.registerTool('errors', { outputSchema: { n: z.number() } }, () => ({ content: [{ type: 'text', text: 'failed' }], isError: true }));
      const test = await initializedClient(server);
      await expect(test.client.request('tools/call', { name: 'wrong' })).rejects.toMatchObject({ code: ErrorCode.InternalError });
      await expect(test.client.request('tools/call', { name: 'missing' })).rejects.toMatchObject({ code: ErrorCode.InternalError });
      await expect(test.client.request('tools/call', { name: 'errors' })).resolves.toMatchObject({ isError: true });
    });

    it('answers -32603 naming the tool when a plain-JS handler returns a malformed result', async () => {
      const server = new McpServer(INFO);
      server.registerTool('typo', {}, () => ({ contents: 'oops' }) as never);
      server.registerTool('bad_content', {}, () => ({ content: 'oops' }) as never);
      server.registerTool('empty', {}, () => ({}) as never);
      const test = await initializedClient(server);
      await expect(test.client.request('tools/call', { name: 'typo' })).rejects.toMatchObject({
        code: ErrorCode.InternalError,
        message: expect.stringContaining('Tool typo returned a result with neither content nor structuredContent (its keys: contents)') as unknown,
      });
      await expect(test.client.request('tools/call', { name: 'bad_content' })).rejects.toMatchObject({
        code: ErrorCode.InternalError,
        message: expect.stringContaining('Tool bad_content returned a result that is not a valid CallToolResult') as unknown,
      });
      await expect(test.client.request('tools/call', { name: 'empty' })).rejects.toMatchObject({ code: ErrorCode.InternalError, message: expect.stringContaining('an empty object') as unknown });
    });

    it('adds the JSON text of structuredContent when the handler returns no content', async () => {
      const server = new McpServer(INFO);
      server.registerTool('data', { outputSchema: { n: z.number() } }, () => ({ structuredContent: { n: 1 } }) as never);
      const test = await initializedClient(server);
      await expect(test.client.request('tools/call', { name: 'data' })).resolves.toEqual({ content: [{ type: 'text', text: '{"n":1}' }], structuredContent: { n: 1 } });
    });

    it('answers -32603 for content the negotiated revision does not have', async () => {
      const server = new McpServer(INFO);
      server.registerTool('audio', {}, () => ({ content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] }));
      const old = await initializedClient(server, { version: '2024-11-05' });
      await expect(old.client.request('tools/call', { name: 'audio' })).rejects.toMatchObject({ code: ErrorCode.InternalError });
      const current = await initializedClient(server, { version: '2025-03-26' });
      await expect(current.client.request('tools/call', { name: 'audio' })).resolves.toMatchObject({ content: [{ type: 'audio' }] });
    });

    it('gives the handler the request id, its signal and the negotiated version', async () => {
      const server = new McpServer(INFO);
      let seen: { requestId: unknown; version: string; aborted: boolean } | undefined;
      server.registerTool('inspect', {}, (_args, extra) => {
        seen = { requestId: extra.requestId, version: extra.protocolVersion, aborted: extra.signal.aborted };
        return { content: [] };
      });
      const test = await initializedClient(server, { version: '2025-06-18' });
      await test.client.request('tools/call', { name: 'inspect' });
      expect(seen).toMatchObject({ version: '2025-06-18', aborted: false });
      expect(typeof seen?.requestId).toBe('number');
    });

    it('aborts the handler signal when the client cancels and sends no reply', async () => {
      const server = new McpServer(INFO);
      let aborted: Promise<unknown> | undefined;
      server.registerTool('slow', {}, (_args, extra) => {
        aborted = new Promise((resolve) => extra.signal.addEventListener('abort', () => resolve(extra.signal.reason)));
        return new Promise(() => {});
      });
      const test = await initializedClient(server);
      const controller = new AbortController();
      const pending = test.client.request('tools/call', { name: 'slow' }, { signal: controller.signal });
      await flush();
      controller.abort('user gave up');
      await expect(pending).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
      await expect(aborted).resolves.toMatchObject({ code: 'REQUEST_CANCELLED' });
    });

    it('sends progress only with a client token, increasing, and never after the reply', async () => {
      const server = new McpServer(INFO);
      let late: (() => Promise<void>) | undefined;
      server.registerTool('steps', {}, async (_args, extra) => {
        await extra.sendProgress(0, 100);
        await extra.sendProgress(50, 100, 'half');
        await expect(extra.sendProgress(50, 100)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
        await extra.sendProgress(100, 100);
        late = () => extra.sendProgress(101, 100);
        return { content: [] };
      });
      const test = await initializedClient(server);
      const updates: unknown[] = [];
      await test.client.request('tools/call', { name: 'steps' }, { onProgress: (update) => updates.push(update) });
      await late?.();
      await flush();
      expect(updates).toEqual([{ progress: 0, total: 100 }, { progress: 50, total: 100, message: 'half' }, { progress: 100, total: 100 }]);
      await test.client.request('tools/call', { name: 'steps' });
      await flush();
      expect(test.notifications('notifications/progress')).toHaveLength(3);
    });

    it('logs from a handler at or above the client level only', async () => {
      const server = new McpServer(INFO);
      server.registerTool('chatty', {}, async (_args, extra) => {
        await extra.log('debug', 'noise');
        await extra.log('error', { what: 'bad' }, 'db');
        return { content: [] };
      });
      const test = await initializedClient(server);
      await test.client.request('logging/setLevel', { level: 'warning' });
      await test.client.request('tools/call', { name: 'chatty' });
      await flush();
      expect(test.notifications('notifications/message').map((m) => m.params)).toEqual([{ level: 'error', data: { what: 'bad' }, logger: 'db' }]);
    });
  });

  describe('tools/list pagination', () => {
    function manyTools(pageSize: number) {
      const server = new McpServer(INFO, { pageSize });
      for (let i = 0; i < 5; i++) server.registerTool(`t${i}`, {}, () => ({ content: [] }));
      return server;
    }

    it('pages with opaque cursors until nextCursor is absent', async () => {
      const test = await initializedClient(manyTools(2));
      const names: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await test.client.request('tools/list', cursor === undefined ? {} : { cursor });
        names.push(...(page.tools as { name: string }[]).map((tool) => tool.name));
        cursor = page.nextCursor as string | undefined;
        pages++;
      } while (cursor !== undefined);
      expect(names).toEqual(['t0', 't1', 't2', 't3', 't4']);
      expect(pages).toBe(3);
    });

    it('answers a malformed or stale cursor with -32602', async () => {
      const server = manyTools(2);
      const test = await initializedClient(server);
      await expect(test.client.request('tools/list', { cursor: 'garbage!' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
      const { nextCursor } = await test.client.request('tools/list');
      server.registerTool('t5', {}, () => ({ content: [] }));
      await expect(test.client.request('tools/list', { cursor: nextCursor as string })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });
  });

  describe('capabilities', () => {
    it('declares tools only when a tool is registered; otherwise tools/list is -32601', async () => {
      const bare = new McpServer(INFO);
      const test = await connectClient(bare, { session: { strictCapabilities: false } });
      const result = await test.initialize();
      expect(result.capabilities).toEqual({ logging: {} });
      await expect(test.client.request('tools/list')).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
      const withTools = await initializedClient(richServer());
      expect(withTools.client.peer?.capabilities).toMatchObject({ tools: { listChanged: true }, logging: {} });
    });

    it('applies overrides: an object enables or merges, false removes', async () => {
      const server = new McpServer(INFO, { capabilities: { logging: false, prompts: {}, tools: { listChanged: false }, experimental: { 'x.y': {} } } });
      const test = await initializedClient(server);
      expect(test.client.peer?.capabilities).toEqual({ prompts: {}, tools: { listChanged: false }, experimental: { 'x.y': {} } });
      await expect(test.client.request('prompts/list')).resolves.toEqual({ prompts: [] });
      server.registerTool('t', {}, () => ({ content: [] }));
      const later = await initializedClient(server);
      expect(later.client.peer?.capabilities).toEqual({ prompts: {}, tools: { listChanged: false }, experimental: { 'x.y': {} } });
    });
  });

  describe('list_changed', () => {
    it('coalesces changes of one tick into one notification per operating connection', async () => {
      const server = richServer();
      const a = await initializedClient(server);
      const b = await initializedClient(server);
      const pendingHandshake = await connectClient(server);
      server.registerTool('x', {}, () => ({ content: [] }));
      const y = server.registerTool('y', {}, () => ({ content: [] }));
      y.disable();
      await flush();
      expect(a.notifications('notifications/tools/list_changed')).toHaveLength(1);
      expect(b.notifications('notifications/tools/list_changed')).toHaveLength(1);
      expect(pendingHandshake.notifications('notifications/tools/list_changed')).toHaveLength(0);
      const { tools } = await a.client.request('tools/list');
      expect((tools as { name: string }[]).map((tool) => tool.name)).toEqual(['add', 'x']);
      await expect(a.client.request('tools/call', { name: 'y' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
      y.enable();
      y.remove();
      await flush();
      expect(a.notifications('notifications/tools/list_changed')).toHaveLength(2);
    });

    it('renames a tool in place with update, refusing a taken or invalid name without changing anything', async () => {
      const server = richServer();
      const test = await initializedClient(server);
      const handle = server.registerTool('draft', { description: 'old' }, () => ({ content: [{ type: 'text', text: 'old' }] }));
      server.registerTool('last', {}, () => ({ content: [] }));
      await flush();
      handle.update({ name: 'final', description: 'new' }, () => ({ content: [{ type: 'text', text: 'new' }] }));
      expect(() => handle.update({ name: 'add' })).toThrow(/already registered/);
      expect(() => handle.update({ name: 'bad name' })).toThrow(TypeError);
      await flush();
      expect(test.notifications('notifications/tools/list_changed')).toHaveLength(2);
      expect(handle.name).toBe('final');
      const { tools } = await test.client.request('tools/list');
      expect((tools as { name: string; description?: string }[]).map((tool) => [tool.name, tool.description])).toEqual([
        ['add', 'Adds two numbers'],
        ['final', 'new'],
        ['last', undefined],
      ]);
      await expect(test.client.request('tools/call', { name: 'final' })).resolves.toEqual({ content: [{ type: 'text', text: 'new' }] });
      await expect(test.client.request('tools/call', { name: 'draft' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });

    it('sends none when the connection declared tools without listChanged', async () => {
      const server = new McpServer(INFO, { capabilities: { tools: { listChanged: false } } });
      const test = await initializedClient(server);
      server.registerTool('x', {}, () => ({ content: [] }));
      await flush();
      expect(test.notifications('notifications/tools/list_changed')).toHaveLength(0);
    });
  });
});
