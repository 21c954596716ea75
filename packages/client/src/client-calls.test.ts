import { CapabilityNotSupportedError, InvalidResultError, JsonRpcError, LEGACY_PROTOCOL_VERSIONS, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { createPeer, flush } from '../test/peer.js';
import { createScriptedServer } from '../test/scripted-server.js';
import { Client } from './client.js';

/** Serves `items` in pages of `size` under `key`, with numeric cursors. */
function paged(key: string, items: JsonObject[], size: number) {
  return (params: JsonObject): JsonObject => {
    const start = typeof params.cursor === 'string' ? Number(params.cursor) : 0;
    const next = start + size;
    return { [key]: items.slice(start, next), ...(next < items.length ? { nextCursor: String(next) } : {}) };
  };
}

const tools = [1, 2, 3, 4, 5].map((n) => ({ name: `tool-${n}`, inputSchema: { type: 'object' } }));

describe('Client', () => {
  describe.each(LEGACY_PROTOCOL_VERSIONS)('at %s', (version) => {
    it('lists tools one page at a time and all of them through tools()', async () => {
      const peer = createPeer({ version });
      peer.server.setRequestHandler('tools/list', paged('tools', tools, 2));
      await peer.connect();
      const first = await peer.client.listTools();
      expect(first.tools.map((t) => t.name)).toEqual(['tool-1', 'tool-2']);
      expect(first.nextCursor).toBe('2');
      const second = await peer.client.listTools({ cursor: '2' });
      expect(second.tools.map((t) => t.name)).toEqual(['tool-3', 'tool-4']);
      const names: string[] = [];
      for await (const tool of peer.client.tools()) names.push(tool.name);
      expect(names).toEqual(tools.map((t) => t.name));
    });

    it('collects every tool, resource, template and prompt with the listAll calls, bounded by maxPages', async () => {
      const peer = createPeer({ version });
      peer.server.setRequestHandler('tools/list', paged('tools', tools, 2));
      peer.server.setRequestHandler('resources/list', paged('resources', [{ uri: 'test://a', name: 'a' }], 1));
      peer.server.setRequestHandler('resources/templates/list', paged('resourceTemplates', [{ uriTemplate: 'test://t/{id}', name: 't' }], 1));
      peer.server.setRequestHandler('prompts/list', paged('prompts', [{ name: 'p1' }, { name: 'p2' }], 1));
      await peer.connect();
      expect((await peer.client.listAllTools()).map((t) => t.name)).toEqual(tools.map((t) => t.name));
      expect((await peer.client.listAllResources()).map((r) => r.uri)).toEqual(['test://a']);
      expect((await peer.client.listAllResourceTemplates()).map((t) => t.name)).toEqual(['t']);
      expect((await peer.client.listAllPrompts({}, { maxPages: 2 })).map((p) => p.name)).toEqual(['p1', 'p2']);
      await expect(peer.client.listAllTools({}, { maxPages: 2 })).rejects.toMatchObject({ name: 'TooManyPagesError', code: 'TOO_MANY_PAGES', method: 'tools/list', maxPages: 2 });
      const names: string[] = [];
      await expect(
        (async () => {
          for await (const tool of peer.client.tools({}, { maxPages: 1 })) names.push(tool.name);
        })(),
      ).rejects.toMatchObject({ name: 'TooManyPagesError' });
      expect(names).toEqual(['tool-1', 'tool-2']);
    });

    it('calls a tool and returns its content', async () => {
      const peer = createPeer({ version });
      peer.server.setRequestHandler('tools/call', (params) => ({ content: [{ type: 'text', text: `sum=${Number((params.arguments as JsonObject).a) + 2}` }] }));
      await peer.connect();
      await expect(peer.client.callTool({ name: 'add', arguments: { a: 1 } })).resolves.toEqual({ content: [{ type: 'text', text: 'sum=3' }] });
    });

    it('lists and reads resources and templates, page by page', async () => {
      const peer = createPeer({ version });
      const resources = [1, 2, 3].map((n) => ({ uri: `test://r/${n}`, name: `r${n}` }));
      peer.server.setRequestHandler('resources/list', paged('resources', resources, 2));
      peer.server.setRequestHandler('resources/templates/list', paged('resourceTemplates', [{ uriTemplate: 'test://t/{id}', name: 't' }], 1));
      peer.server.setRequestHandler('resources/read', (params) => ({ contents: [{ uri: String(params.uri), mimeType: 'text/plain', text: 'hello' }] }));
      await peer.connect();
      expect((await peer.client.listResources()).resources).toHaveLength(2);
      const uris: string[] = [];
      for await (const resource of peer.client.resources()) uris.push(resource.uri);
      expect(uris).toEqual(resources.map((r) => r.uri));
      expect((await peer.client.listResourceTemplates()).resourceTemplates[0]?.uriTemplate).toBe('test://t/{id}');
      const templates: string[] = [];
      for await (const template of peer.client.resourceTemplates()) templates.push(template.name);
      expect(templates).toEqual(['t']);
      await expect(peer.client.readResource({ uri: 'test://r/1' })).resolves.toEqual({ contents: [{ uri: 'test://r/1', mimeType: 'text/plain', text: 'hello' }] });
    });

    it('subscribes to a resource and hears about its updates', async () => {
      const peer = createPeer({ version });
      const subscribed: string[] = [];
      peer.server.setRequestHandler('resources/subscribe', (params) => (subscribed.push(String(params.uri)), {}));
      peer.server.setRequestHandler('resources/unsubscribe', (params) => (subscribed.splice(subscribed.indexOf(String(params.uri)), 1), {}));
      await peer.connect();
      const updates: string[] = [];
      peer.client.onResourceUpdated((uri) => updates.push(uri));
      await peer.client.subscribeResource({ uri: 'test://watched' });
      expect(subscribed).toEqual(['test://watched']);
      await peer.server.notify('notifications/resources/updated', { uri: 'test://watched' });
      await flush();
      expect(updates).toEqual(['test://watched']);
      await peer.client.unsubscribeResource({ uri: 'test://watched' });
      expect(subscribed).toEqual([]);
    });

    it('lists prompts and gets one with arguments', async () => {
      const peer = createPeer({ version });
      peer.server.setRequestHandler('prompts/list', paged('prompts', [{ name: 'greet', arguments: [{ name: 'who', required: true }] }, { name: 'bye' }], 1));
      peer.server.setRequestHandler('prompts/get', (params) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `Hello ${String((params.arguments as JsonObject).who)}` } }],
      }));
      await peer.connect();
      const names: string[] = [];
      for await (const prompt of peer.client.prompts()) names.push(prompt.name);
      expect(names).toEqual(['greet', 'bye']);
      expect((await peer.client.listPrompts()).nextCursor).toBe('1');
      const prompt = await peer.client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hello Ada' });
    });

    it('completes an argument, sets the log level and hears log messages', async () => {
      const peer = createPeer({ version });
      let level: unknown;
      peer.server.setRequestHandler('completion/complete', () => ({ completion: { values: ['alpha', 'beta'], hasMore: false } }));
      peer.server.setRequestHandler('logging/setLevel', (params) => ((level = params.level), {}));
      await peer.connect();
      const result = await peer.client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'a' } });
      expect(result.completion.values).toEqual(['alpha', 'beta']);
      const messages: unknown[] = [];
      peer.client.onLoggingMessage((message) => messages.push(message));
      await peer.client.setLoggingLevel('warning');
      expect(level).toBe('warning');
      await peer.server.notify('notifications/message', { level: 'error', logger: 'db', data: { detail: 'down' } });
      await flush();
      expect(messages).toEqual([{ level: 'error', logger: 'db', data: { detail: 'down' } }]);
    });

    it('calls list_changed listeners until they unsubscribe', async () => {
      const peer = createPeer({ version, serverCapabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true } } });
      await peer.connect();
      const heard: string[] = [];
      const stopTools = peer.client.onToolsListChanged(() => heard.push('tools'));
      peer.client.onResourcesListChanged(() => heard.push('resources'));
      peer.client.onPromptsListChanged(() => heard.push('prompts'));
      await peer.server.notify('notifications/tools/list_changed');
      await peer.server.notify('notifications/resources/list_changed');
      await peer.server.notify('notifications/prompts/list_changed');
      await flush();
      stopTools();
      await peer.server.notify('notifications/tools/list_changed');
      await flush();
      expect(heard).toEqual(['tools', 'resources', 'prompts']);
    });

    it('keeps calling the other listeners when one throws', async () => {
      const peer = createPeer({ version, serverCapabilities: { tools: { listChanged: true } } });
      await peer.connect();
      const heard: string[] = [];
      peer.client.onToolsListChanged(() => {
        throw new Error('listener bug');
      });
      peer.client.onToolsListChanged(() => heard.push('second'));
      await peer.server.notify('notifications/tools/list_changed');
      await flush();
      expect(heard).toEqual(['second']);
      expect(peer.client.state.kind).toBe('operating');
    });

    it('pings the server', async () => {
      const peer = createPeer({ version });
      await peer.connect();
      await expect(peer.client.ping()).resolves.toBe(0);
    });
  });

  describe('capability checks', () => {
    it('refuses prompts calls with CapabilityNotSupportedError when the server has no prompts, sending nothing', async () => {
      const server = await createScriptedServer({ capabilities: { tools: {} } });
      const client = new Client({ name: 'c', version: '1' });
      await client.connect(server.clientSide);
      await expect(client.listPrompts()).rejects.toBeInstanceOf(CapabilityNotSupportedError);
      await expect(client.getPrompt({ name: 'x' })).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED', capability: 'prompts' });
      const iterated = async () => {
        for await (const _prompt of client.prompts()) expect.unreachable();
      };
      await expect(iterated()).rejects.toBeInstanceOf(CapabilityNotSupportedError);
      expect(server.requests('prompts/list')).toHaveLength(0);
    });

    it.each([
      ['resources', () => ({}), (c: Client) => c.listResources()],
      ['resources', () => ({}), (c: Client) => c.readResource({ uri: 'test://x' })],
      ['resources.subscribe', () => ({ resources: {} }), (c: Client) => c.subscribeResource({ uri: 'test://x' })],
      ['tools', () => ({}), (c: Client) => c.callTool({ name: 'x' })],
      ['logging', () => ({}), (c: Client) => c.setLoggingLevel('info')],
      ['completions', () => ({}), (c: Client) => c.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } })],
    ])('refuses a call that needs %s when the server did not declare it', async (capability, capabilities, call) => {
      const peer = createPeer({ serverCapabilities: capabilities() });
      await peer.connect();
      await expect(call(peer.client)).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED', capability });
    });

    it('allows completion/complete at 2024-11-05, which has no completions capability', async () => {
      const peer = createPeer({ version: '2024-11-05', serverCapabilities: { prompts: {} } });
      peer.server.setRequestHandler('completion/complete', () => ({ completion: { values: ['x'] } }));
      await peer.connect();
      await expect(peer.client.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } })).resolves.toMatchObject({
        completion: { values: ['x'] },
      });
    });

    it('sends the call anyway with strictCapabilities false and surfaces the server error', async () => {
      const peer = createPeer({ serverCapabilities: { tools: {} }, client: { strictCapabilities: false } });
      await peer.connect();
      const error = await peer.client.listPrompts().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JsonRpcError);
      expect(error).toMatchObject({ code: -32601 });
    });
  });

  describe('#tools', () => {
    it('stops with InvalidResultError when the server repeats a cursor', async () => {
      const server = await createScriptedServer({ answer: (method) => (method === 'tools/list' ? { tools: [{ name: 'a', inputSchema: { type: 'object' } }], nextCursor: 'same' } : undefined) });
      const client = new Client({ name: 'c', version: '1' });
      await client.connect(server.clientSide);
      const seen: string[] = [];
      const iterate = async () => {
        for await (const tool of client.tools()) seen.push(tool.name);
      };
      await expect(iterate()).rejects.toBeInstanceOf(InvalidResultError);
      expect(seen).toEqual(['a', 'a']);
      expect(server.requests('tools/list')).toHaveLength(2);
    });

    it('fetches the next page only when the previous one is used up', async () => {
      const peer = createPeer();
      let pages = 0;
      const serve = paged('tools', tools, 2);
      peer.server.setRequestHandler('tools/list', (params) => (pages++, serve(params)));
      await peer.connect();
      for await (const tool of peer.client.tools()) {
        if (tool.name === 'tool-2') break;
      }
      expect(pages).toBe(1);
    });
  });

  describe('#callTool', () => {
    const outputTool = {
      name: 'weather',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
    };

    async function weatherPeer(result: JsonObject) {
      const peer = createPeer({ version: '2025-06-18' });
      peer.server.setRequestHandler('tools/list', () => ({ tools: [outputTool] }));
      peer.server.setRequestHandler('tools/call', () => result);
      await peer.connect();
      return peer;
    }

    it('accepts structuredContent that matches the listed outputSchema', async () => {
      const peer = await weatherPeer({ content: [], structuredContent: { celsius: 21.5 } });
      await peer.client.listTools();
      await expect(peer.client.callTool({ name: 'weather' })).resolves.toMatchObject({ structuredContent: { celsius: 21.5 } });
    });

    it('rejects structuredContent that breaks the listed outputSchema', async () => {
      const peer = await weatherPeer({ content: [], structuredContent: { celsius: 'warm' } });
      await peer.client.listTools();
      const error = await peer.client.callTool({ name: 'weather' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidResultError);
      expect((error as Error).message).toContain('/celsius');
    });

    it('rejects a successful result without structuredContent when the tool has an outputSchema', async () => {
      const peer = await weatherPeer({ content: [{ type: 'text', text: '21.5' }] });
      for await (const _tool of peer.client.tools()) {
        // a listing through the iterator remembers schemas too
      }
      await expect(peer.client.callTool({ name: 'weather' })).rejects.toBeInstanceOf(InvalidResultError);
    });

    it('does not check error results, unlisted tools, or calls that opt out', async () => {
      const failing = await weatherPeer({ content: [{ type: 'text', text: 'boom' }], isError: true });
      await failing.client.listTools();
      await expect(failing.client.callTool({ name: 'weather' })).resolves.toMatchObject({ isError: true });

      const unlisted = await weatherPeer({ content: [], structuredContent: { celsius: 'warm' } });
      await expect(unlisted.client.callTool({ name: 'weather' })).resolves.toBeDefined();

      const optedOut = await weatherPeer({ content: [], structuredContent: { celsius: 'warm' } });
      await optedOut.client.listTools();
      await expect(optedOut.client.callTool({ name: 'weather' }, { validateOutput: false })).resolves.toBeDefined();
    });

    it('forgets output schemas when the server says its tool list changed', async () => {
      const peer = createPeer({ version: '2025-06-18', serverCapabilities: { tools: { listChanged: true } } });
      peer.server.setRequestHandler('tools/list', () => ({ tools: [outputTool] }));
      peer.server.setRequestHandler('tools/call', () => ({ content: [], structuredContent: { fahrenheit: 70 } }));
      await peer.connect();
      await peer.client.listTools();
      await expect(peer.client.callTool({ name: 'weather' })).rejects.toBeInstanceOf(InvalidResultError);
      await peer.server.notify('notifications/tools/list_changed');
      await flush();
      await expect(peer.client.callTool({ name: 'weather' })).resolves.toMatchObject({ structuredContent: { fahrenheit: 70 } });
    });

    it('rejects a result that does not fit the negotiated revision with InvalidResultError', async () => {
      const peer = createPeer();
      peer.server.setRequestHandler('tools/call', () => ({ content: 'not an array' }));
      await peer.connect();
      await expect(peer.client.callTool({ name: 'x' })).rejects.toMatchObject({ code: 'INVALID_RESULT' });
    });

    it('passes a server error reply through as a JsonRpcError with its code', async () => {
      const peer = createPeer();
      peer.server.setRequestHandler('tools/call', () => {
        throw new JsonRpcError(-32602, 'Unknown tool: nope');
      });
      await peer.connect();
      await expect(peer.client.callTool({ name: 'nope' })).rejects.toMatchObject({ code: -32602, message: 'Unknown tool: nope' });
    });
  });
});
