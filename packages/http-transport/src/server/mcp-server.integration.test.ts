import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { LEGACY_PROTOCOL_VERSIONS, type JsonObject } from '@statemcp/protocol';
import { type McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_NAME, Servers, buildFixtureServer, FIXTURE_TOOLS } from '../../test/mcp-fixture.js';
import { InMemoryEventStore } from './event-store.js';
import type { StreamableHttpSessionTransport } from './session-transport.js';
import { createStreamableHttpServer } from './streamable-http-server.js';
import type { ListeningServer, StreamableHttpServerOptions } from './server-options.js';
import { answerMessages, delay, initializeBody, postInit } from './test-support.js';

const running: ListeningServer[] = [];
const fixtureServers = new Servers();

afterEach(async () => {
  await Promise.all([...running.splice(0).map((server) => server.close()), fixtureServers.closeAll()]);
});

/** The shared HTTP test fixture (echo, count, ask_model, try_sampling, try_roots, gated) plus a polling tool. */
function buildMcpServer(): McpServer {
  const server = buildFixtureServer();
  server.registerTool('test_reconnection', { description: 'Closes its SSE stream mid-call (SSE polling)' }, async (_args, extra) => {
    const transport = extra.connection.session.transport as StreamableHttpSessionTransport | undefined;
    transport?.closeRequestStream(extra.requestId);
    await delay(100);
    return { content: [{ type: 'text', text: 'Reconnection test completed' }] };
  });
  return server;
}

async function start(options: Partial<StreamableHttpServerOptions> = {}) {
  const mcpServer = buildMcpServer();
  const http = createStreamableHttpServer({ connect: (transport) => mcpServer.connect(transport), ...options });
  const listening = await http.listen();
  running.push(listening);
  return { http, listening, url: listening.url.href };
}

const call = (id: number, name: string, args: JsonObject = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('Streamable HTTP with @statemcp/server McpServer', () => {
  describe('full lifecycle per legacy revision', () => {
    it.each(LEGACY_PROTOCOL_VERSIONS)('initialize → initialized → tools/list → tools/call → DELETE at %s', async (version) => {
      const { url, http } = await start();
      const init = await fetch(url, postInit(initializeBody(version)));
      const initBody = (await init.json()) as { result: { protocolVersion: string; serverInfo: { name: string } } };
      expect(initBody.result.protocolVersion).toBe(version);
      expect(initBody.result.serverInfo.name).toBe(SERVER_NAME);
      const headers = { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': version };
      expect((await fetch(url, postInit({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers))).status).toBe(202);
      const list = await answerMessages(await fetch(url, postInit({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers)));
      expect((list[0]?.result as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual([...FIXTURE_TOOLS, 'test_reconnection']);
      const echoed = await answerMessages(await fetch(url, postInit(call(2, 'echo', { text: version }), headers)));
      expect(echoed).toEqual([{ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: version }] } }]);
      expect((await fetch(url, { method: 'DELETE', headers })).status).toBe(200);
      expect((await fetch(url, postInit({ jsonrpc: '2.0', id: 3, method: 'ping' }, headers))).status).toBe(404);
      expect(http.sessions.size).toBe(0);
    });

    it.each(LEGACY_PROTOCOL_VERSIONS)('serves a request that overtakes notifications/initialized at %s', async (version) => {
      const { url } = await start({ enableJsonResponse: true });
      const init = await fetch(url, postInit(initializeBody(version)));
      await init.text();
      const headers = { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': version };
      const list = await fetch(url, postInit({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers));
      expect(list.status).toBe(200);
      expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(FIXTURE_TOOLS.length + 1);
      expect((await fetch(url, postInit({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers))).status).toBe(202);
      const echoed = await fetch(url, postInit(call(2, 'echo', { text: 'after' }), headers));
      expect(await echoed.json()).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'after' }] } });
    });

    it('answers a request before initialize with a JSON-RPC error and keeps the session usable', async () => {
      const { url } = await start({ enableJsonResponse: true });
      const init = await fetch(url, postInit(initializeBody('2025-11-25')));
      await init.text();
      const headers = { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-11-25' };
      const again = await fetch(url, postInit(initializeBody('2025-11-25', 5), headers));
      expect(await again.json()).toMatchObject({ id: 5, error: { code: expect.any(Number) as number } });
      const echoed = await fetch(url, postInit(call(6, 'echo', { text: 'still here' }), headers));
      expect(await echoed.json()).toMatchObject({ id: 6, result: { content: [{ text: 'still here' }] } });
    });

    it('does not mint a session when initialize fails', async () => {
      const { url, http } = await start({ enableJsonResponse: true });
      const bad = await fetch(url, postInit({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }));
      expect(bad.headers.get('mcp-session-id')).toBeNull();
      expect(await bad.json()).toMatchObject({ id: 1, error: { code: -32602 } });
      expect(http.sessions.size).toBe(0);
    });
  });

  describe('notifications/initialized and the next request in either order', () => {
    type Order = 'initialized first' | 'request first' | 'request in flight when initialized arrives';
    const orders: Order[] = ['initialized first', 'request first', 'request in flight when initialized arrives'];
    const cases = LEGACY_PROTOCOL_VERSIONS.flatMap((version) => orders.map((order) => ({ version, order })));

    it.each(cases)('$order at $version', async ({ version, order }) => {
      // The `gated` tool reports the server session's state when it starts and answers when
      // the test opens its gate, so the order of events is set by the test, not by timing:
      // in the third order notifications/initialized is answered while the call is pending.
      const states: string[] = [];
      let started!: () => void;
      let opened = Promise.resolve();
      let open!: () => void;
      const hooks = {
        onGatedStart: (kind: string) => {
          states.push(kind);
          started();
        },
        gate: () => opened,
      };
      const { url, http } = await fixtureServers.start({}, {}, hooks);
      const init = await fetch(url, postInit(initializeBody(version)));
      expect(init.status).toBe(200);
      await init.text();
      const sessionId = init.headers.get('mcp-session-id') ?? '';
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': version };
      const initialized = () => fetch(url, postInit({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers));
      const gatedCall = async (id: number): Promise<JsonObject[]> => {
        const response = await fetch(url, postInit(call(id, 'gated'), headers));
        expect(response.status).toBe(200);
        return answerMessages(response);
      };
      const answer = (id: number) => [{ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'opened' }] } }];
      const nextStart = () => new Promise<void>((resolve) => (started = resolve));

      switch (order) {
        case 'initialized first': {
          expect((await initialized()).status).toBe(202);
          const running1 = nextStart();
          const first = gatedCall(1);
          await running1;
          expect(await first).toEqual(answer(1));
          break;
        }
        case 'request first': {
          const running1 = nextStart();
          const first = gatedCall(1);
          await running1;
          expect(await first).toEqual(answer(1));
          expect((await initialized()).status).toBe(202);
          break;
        }
        case 'request in flight when initialized arrives': {
          opened = new Promise<void>((resolve) => (open = resolve));
          const running1 = nextStart();
          const first = gatedCall(1);
          await running1;
          expect((await initialized()).status).toBe(202);
          open();
          expect(await first).toEqual(answer(1));
          opened = Promise.resolve();
          break;
        }
      }
      // The server is lenient: a request after its InitializeResult implies initialized, so the
      // handler already runs in Operating, and a late notifications/initialized is ignored.
      expect(states).toEqual(['operating']);
      // Whatever the order, the session ends up Operating and keeps serving.
      const running2 = nextStart();
      const second = gatedCall(2);
      await running2;
      expect(await second).toEqual(answer(2));
      expect(states.at(-1)).toBe('operating');
      expect(http.sessions.ids()).toEqual([sessionId]);
    });
  });

  describe('interop with the official TypeScript SDK client (1.x)', () => {
    // With an event store every answer is a resumable SSE stream; without one (the default) a JSON body, turned into SSE by progress or sampling.
    it.each([
      ['resumable SSE answers', { eventStore: new InMemoryEventStore() }],
      ['the default answers', {}],
    ])('lists and calls tools, streams progress, answers sampling on the request stream, and terminates (%s)', async (_mode, options) => {
      const { url, http } = await start(options);
      const client = new Client({ name: 'official', version: '1.0.0' }, { capabilities: { sampling: {} } });
      client.setRequestHandler(CreateMessageRequestSchema, () => ({ model: 'test-model', role: 'assistant', content: { type: 'text', text: 'hi' } }));
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe(SERVER_NAME);
      expect((await client.listTools()).tools).toHaveLength(FIXTURE_TOOLS.length + 1);
      expect((await client.callTool({ name: 'echo', arguments: { text: 'interop' } })).content).toEqual([{ type: 'text', text: 'interop' }]);
      const progress: number[] = [];
      await client.callTool({ name: 'count', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
      expect(progress).toEqual([1, 2, 3]);
      expect((await client.callTool({ name: 'ask_model', arguments: {} })).content).toEqual([{ type: 'text', text: 'model said: hi' }]);
      await transport.terminateSession();
      expect(http.sessions.size).toBe(0);
      await client.close();
    });

    it('follows SSE polling: the client reconnects with Last-Event-ID and receives the result', async () => {
      const { url } = await start({ eventStore: new InMemoryEventStore(), retryIntervalMs: 50 });
      const client = new Client({ name: 'official', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      const result = await client.callTool({ name: 'test_reconnection', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Reconnection test completed' }]);
      await client.close();
    });

    it('works in JSON response mode', async () => {
      const { url } = await start({ enableJsonResponse: true });
      const client = new Client({ name: 'official', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await client.callTool({ name: 'echo', arguments: { text: 'json' } })).content).toEqual([{ type: 'text', text: 'json' }]);
      await client.close();
    });

    it('connects an old client over the legacy HTTP+SSE endpoint', async () => {
      const { listening, http } = await start({ legacySse: true });
      const client = new Client({ name: 'old', version: '1.0.0' }, { capabilities: { sampling: {} } });
      client.setRequestHandler(CreateMessageRequestSchema, () => ({ model: 'test-model', role: 'assistant', content: { type: 'text', text: 'old hi' } }));
      await client.connect(new SSEClientTransport(new URL('/sse', listening.url)));
      expect((await client.callTool({ name: 'echo', arguments: { text: 'legacy' } })).content).toEqual([{ type: 'text', text: 'legacy' }]);
      expect((await client.callTool({ name: 'ask_model', arguments: {} })).content).toEqual([{ type: 'text', text: 'model said: old hi' }]);
      expect(http.sessions.size).toBe(1);
      await client.close();
      for (let i = 0; i < 20 && http.sessions.size > 0; i++) await delay(10);
      expect(http.sessions.size).toBe(0);
    });
  });
});
