/**
 * `subscriptions/listen` served by McpServer over a raw 2026-07-28 peer (MCP 2026-07-28
 * basic/patterns/subscriptions).
 */
import { InMemoryTransport, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { flush } from './test-harness.js';

const MODERN = '2026-07-28';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};

function fixtureServer(): McpServer {
  const server = new McpServer({ name: 'listen-fixture', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerPrompt('greet', {}, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }));
  server.registerResource('watched', 'test://watched', {}, (uri) => ({ contents: [{ uri, text: 'w' }] }));
  return server;
}

async function modernPeer(server: McpServer) {
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  const received: JsonObject[] = [];
  await clientTransport.start({ onMessage: (value) => received.push(value as JsonObject), onClose: () => undefined });
  await server.connect(serverTransport);
  return {
    received,
    async listen(id: string, notifications: JsonObject): Promise<void> {
      await clientTransport.send({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { _meta: meta, notifications } });
      await flush();
    },
    async cancel(id: string): Promise<void> {
      await clientTransport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'done' } });
      await flush();
    },
    /** Notifications tagged with subscription `id`, in order. */
    on(id: string): JsonObject[] {
      return received.filter((message) => 'method' in message && ((message.params as JsonObject | undefined)?._meta as JsonObject | undefined)?.[SUBSCRIPTION_ID] === id);
    },
  };
}

describe('subscriptions/listen', () => {
  it('acknowledges first with the honoured subset, then tags each change it asked for', async () => {
    const server = fixtureServer();
    const peer = await modernPeer(server);
    await peer.listen('sub-1', { toolsListChanged: true, resourcesListChanged: false, 'com.example/unknown': true });
    expect(peer.on('sub-1')).toEqual([
      { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { [SUBSCRIPTION_ID]: 'sub-1' }, notifications: { toolsListChanged: true } } },
    ]);
    server.registerTool('added', {}, () => ({ content: [] }));
    server.registerPrompt('added', {}, () => ({ messages: [] }));
    await flush();
    expect(peer.on('sub-1').map((message) => message.method)).toEqual(['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed']);
    expect(peer.received.filter((message) => message.method === 'notifications/prompts/list_changed')).toEqual([]);
    expect(peer.received.some((message) => message.id === 'sub-1')).toBe(false); // still open
  });

  it('delivers resources/updated only for the URIs in resourceSubscriptions, demultiplexed by id', async () => {
    const server = fixtureServer();
    const peer = await modernPeer(server);
    await peer.listen('a', { resourceSubscriptions: ['test://watched'] });
    await peer.listen('b', { resourceSubscriptions: ['test://other'], promptsListChanged: true });
    expect(peer.on('b')[0]?.params).toEqual({ _meta: { [SUBSCRIPTION_ID]: 'b' }, notifications: { resourceSubscriptions: ['test://other'], promptsListChanged: true } });
    await server.notifyResourceUpdated('test://watched');
    expect(peer.on('a').slice(1)).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://watched', _meta: { [SUBSCRIPTION_ID]: 'a' } } }]);
    expect(peer.on('b')).toHaveLength(1);
    expect(server.server.subscriptions.live.map((subscription) => subscription.id)).toEqual(['a', 'b']);
  });

  it('stops a stream the client cancels, without a reply', async () => {
    const server = fixtureServer();
    const peer = await modernPeer(server);
    await peer.listen('sub-1', { toolsListChanged: true });
    await peer.cancel('sub-1');
    expect(server.server.subscriptions.live).toEqual([]);
    server.registerTool('added', {}, () => ({ content: [] }));
    await flush();
    expect(peer.on('sub-1')).toHaveLength(1);
    expect(peer.received.some((message) => message.id === 'sub-1')).toBe(false);
  });

  it('ends every stream with a tagged SubscriptionsListenResult when the server closes', async () => {
    const server = fixtureServer();
    const peer = await modernPeer(server);
    await peer.listen('sub-1', { toolsListChanged: true });
    await server.close();
    const reply = peer.received.find((message) => message.id === 'sub-1');
    expect(reply?.result).toMatchObject({ resultType: 'complete', _meta: { [SUBSCRIPTION_ID]: 'sub-1' } });
  });

  it('honours a filter key an extension defines, and publishes to it', async () => {
    const server = fixtureServer();
    server.server.subscriptions.defineField({ key: 'taskIds', honour: (requested) => (Array.isArray(requested) ? requested : undefined) });
    const peer = await modernPeer(server);
    await peer.listen('sub-1', { taskIds: ['t1'] });
    const sent = await server.server.subscriptions.publish('notifications/resources/updated', { uri: 'test://t1' }, (filter) => Array.isArray(filter.taskIds) && filter.taskIds.includes('t1'));
    expect(sent).toBe(1);
    expect(peer.on('sub-1').map((message) => message.params)).toEqual([
      { _meta: { [SUBSCRIPTION_ID]: 'sub-1' }, notifications: { taskIds: ['t1'] } },
      { uri: 'test://t1', _meta: { [SUBSCRIPTION_ID]: 'sub-1' } },
    ]);
  });

  it('does not exist in the legacy era (-32601)', async () => {
    const server = fixtureServer();
    const [clientTransport, serverTransport] = InMemoryTransport.createPair();
    const received: JsonObject[] = [];
    await clientTransport.start({ onMessage: (value) => received.push(value as JsonObject), onClose: () => undefined });
    await server.connect(serverTransport);
    await clientTransport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
    await clientTransport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await clientTransport.send({ jsonrpc: '2.0', id: 2, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } });
    await flush();
    expect((received.find((message) => message.id === 2)?.error as JsonObject | undefined)?.code).toBe(-32601);
  });
});
