import { InMemoryTransport, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { flush } from './test-harness.js';

const MODERN = '2026-07-28';

function meta(capabilities: JsonObject = {}, extra: JsonObject = {}): JsonObject {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1' },
    ...extra,
  };
}

/** A server connected to a raw peer that speaks the 2026-07-28 wire by hand. */
async function modernPeer(server: McpServer) {
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  const received: JsonObject[] = [];
  await clientTransport.start({ onMessage: (value) => received.push(value as JsonObject), onClose: () => undefined });
  await server.connect(serverTransport);
  let next = 1;
  return {
    received,
    async call(method: string, params: JsonObject = {}): Promise<JsonObject> {
      const id = next++;
      await clientTransport.send({ jsonrpc: '2.0', id, method, params: { _meta: meta(), ...params } });
      await flush();
      const response = received.find((message) => message.id === id);
      if (response === undefined) throw new Error(`no response to ${method}`);
      return response;
    },
  };
}

function fixtureServer(options: ConstructorParameters<typeof McpServer>[1] = {}): McpServer {
  const server = new McpServer({ name: 'modern-fixture', version: '1.0.0' }, { instructions: 'Be brief.', ...options });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('needs_sampling', {}, (_args, extra) => {
    extra.requireClientCapabilities({ sampling: {} });
    return { content: [{ type: 'text', text: 'sampled' }] };
  });
  server.registerTool('who', {}, (_args, extra) => ({ content: [{ type: 'text', text: JSON.stringify([extra.clientInfo?.name, extra.clientCapabilities]) }] }));
  server.registerTool('logs', {}, async (_args, extra) => {
    await extra.log('info', 'hello');
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.registerResource('static', 'test://static', { mimeType: 'text/plain', cache: { ttlMs: 60_000, cacheScope: 'public' } }, (uri) => ({
    contents: [{ uri, text: 'static' }],
  }));
  server.registerResource('plain', 'test://plain', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri, text: 'plain' }] }));
  server.registerPrompt('greet', { description: 'greets' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }));
  return server;
}

describe('McpServer in the 2026-07-28 era', () => {
  describe('server/discover', () => {
    it('reports the modern versions, capabilities (what a listen stream delivers), instructions, serverInfo and caching hints', async () => {
      const peer = await modernPeer(fixtureServer());
      const { result } = (await peer.call('server/discover')) as { result: JsonObject };
      expect(result).toMatchObject({
        resultType: 'complete',
        supportedVersions: [MODERN],
        instructions: 'Be brief.',
        ttlMs: 0,
        cacheScope: 'private',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern-fixture', version: '1.0.0' } },
      });
      const capabilities = result.capabilities as JsonObject;
      expect(capabilities.tools).toEqual({ listChanged: true });
      expect(capabilities.resources).toEqual({ subscribe: true, listChanged: true });
      expect(capabilities.tasks).toBeUndefined();
    });
  });

  describe('caching hints', () => {
    it('puts the server hints on every list and the registration hints on resources/read', async () => {
      const peer = await modernPeer(fixtureServer({ cache: { ttlMs: 5000, cacheScope: 'public' } }));
      for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
        expect(await peer.call(method)).toMatchObject({ result: { resultType: 'complete', ttlMs: 5000, cacheScope: 'public' } });
      }
      expect(await peer.call('resources/read', { uri: 'test://static' })).toMatchObject({ result: { ttlMs: 60_000, cacheScope: 'public' } });
      expect(await peer.call('resources/read', { uri: 'test://plain' })).toMatchObject({ result: { ttlMs: 5000, cacheScope: 'public' } });
    });

    it('lists tools in registration order every time', async () => {
      const peer = await modernPeer(fixtureServer());
      const names = async () => (((await peer.call('tools/list')).result as JsonObject).tools as JsonObject[]).map((tool) => tool.name);
      expect(await names()).toEqual(['echo', 'needs_sampling', 'who', 'logs']);
      expect(await names()).toEqual(['echo', 'needs_sampling', 'who', 'logs']);
    });

    it('leaves legacy results without hints or resultType', async () => {
      const { connectClient } = await import('./test-harness.js');
      const client = await connectClient(fixtureServer());
      await client.initialize();
      const result = await client.client.request('tools/list');
      expect(result.ttlMs).toBeUndefined();
      expect(result.resultType).toBeUndefined();
      expect(result._meta).toBeUndefined();
    });
  });

  describe('per-request client capabilities', () => {
    it('answers -32021 with data.requiredCapabilities when the request did not declare what the tool needs', async () => {
      const peer = await modernPeer(fixtureServer());
      expect(await peer.call('tools/call', { name: 'needs_sampling', arguments: {} })).toMatchObject({
        error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } },
      });
    });

    it('serves the tool when the request itself declares the capability, and never remembers it', async () => {
      const peer = await modernPeer(fixtureServer());
      expect(await peer.call('tools/call', { name: 'needs_sampling', arguments: {}, _meta: meta({ sampling: {} }) })).toMatchObject({
        result: { content: [{ text: 'sampled' }] },
      });
      expect(await peer.call('tools/call', { name: 'needs_sampling', arguments: {} })).toMatchObject({ error: { code: -32021 } });
    });

    it('gives handlers the clientInfo and capabilities of their own request', async () => {
      const peer = await modernPeer(fixtureServer());
      const response = await peer.call('tools/call', { name: 'who', arguments: {}, _meta: meta({ elicitation: {} }) });
      expect(response).toMatchObject({ result: { content: [{ text: JSON.stringify(['raw-modern', { elicitation: {} }]) }] } });
    });
  });

  describe('removed and changed rules', () => {
    it('answers ping, logging/setLevel and resources/subscribe with -32601', async () => {
      const peer = await modernPeer(fixtureServer());
      for (const method of ['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']) {
        expect(await peer.call(method, { level: 'info', uri: 'test://static' })).toMatchObject({ error: { code: -32601 } });
      }
    });

    it('answers an unknown resource with -32602 and data.uri', async () => {
      const peer = await modernPeer(fixtureServer());
      expect(await peer.call('resources/read', { uri: 'test://missing' })).toMatchObject({ error: { code: -32602, data: { uri: 'test://missing' } } });
    });

    it('logs only when the request asked for a level in its _meta', async () => {
      const peer = await modernPeer(fixtureServer());
      await peer.call('tools/call', { name: 'logs', arguments: {} });
      expect(peer.received.filter((message) => message.method === 'notifications/message')).toHaveLength(0);
      await peer.call('tools/call', { name: 'logs', arguments: {}, _meta: meta({}, { 'io.modelcontextprotocol/logLevel': 'error' }) });
      expect(peer.received.filter((message) => message.method === 'notifications/message')).toHaveLength(0);
      await peer.call('tools/call', { name: 'logs', arguments: {}, _meta: meta({}, { 'io.modelcontextprotocol/logLevel': 'debug' }) });
      expect(peer.received.filter((message) => message.method === 'notifications/message')).toHaveLength(1);
    });

    it('sends no list_changed outside a listen stream', async () => {
      const server = fixtureServer();
      const peer = await modernPeer(server);
      await peer.call('tools/list');
      server.registerTool('late', {}, () => ({ content: [] }));
      await flush();
      expect(peer.received.filter((message) => message.method === 'notifications/tools/list_changed')).toHaveLength(0);
    });
  });

  describe('Mcp-Param headers', () => {
    it('is checked only where the transport attached HTTP headers', async () => {
      const server = new McpServer({ name: 'h', version: '1' });
      server.registerTool('region', { inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } } }, () => ({ content: [] }));
      const peer = await modernPeer(server);
      expect(await peer.call('tools/call', { name: 'region', arguments: { region: 'eu' } })).toMatchObject({ result: { content: [] } });
    });
  });
});
