/**
 * The 2026-07-28 era over WebSocket on 127.0.0.1: our `Client` discovers our `McpServer` (no
 * handshake) and its `client.listen` streams share the socket, told apart by subscription id;
 * the server's close ends them with the graceful result.
 */
import { Client, type ListenHandle, type ListenNotification } from '@statemcp/client';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';

import { WebSocketClientTransport, createWebSocketServer, type WebSocketMcpServer } from './index.js';

let running: WebSocketMcpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

function next(stream: ListenHandle): Promise<ListenNotification> {
  return new Promise((resolve) => {
    const remove = stream.onNotification((notification) => {
      remove();
      resolve(notification);
    });
  });
}

describe('listen over WebSocket in the 2026-07-28 era', () => {
  it('tags each stream by its id on one socket, and ends them when the server closes', async () => {
    const mcp = new McpServer({ name: 'ws-listen', version: '1.0.0' });
    mcp.registerTool('echo', {}, () => ({ content: [{ type: 'text', text: 'echo' }] }));
    mcp.registerResource('notes', 'test://notes', {}, (uri) => ({ contents: [{ uri, text: 'notes' }] }));
    running = await createWebSocketServer({
      port: 0,
      connect: async (transport) => {
        await mcp.connect(transport);
      },
    });
    const client = new Client({ name: 'ws-listen-client', version: '1.0.0' }, { era: 'auto' });
    await client.connect(new WebSocketClientTransport(running.url));
    expect(client.era).toBe('modern');
    expect((await client.callTool({ name: 'echo', arguments: {} })).content).toEqual([{ type: 'text', text: 'echo' }]);

    const tools = await client.listen({ toolsListChanged: true });
    const notes = await client.listen({ resourceSubscriptions: ['test://notes'] });
    const toTools = next(tools);
    const toNotes = next(notes);
    mcp.registerTool('extra', {}, () => ({ content: [] }));
    await mcp.notifyResourceUpdated('test://notes');
    expect((await toTools).params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': tools.id });
    expect(await toNotes).toMatchObject({ method: 'notifications/resources/updated', params: { uri: 'test://notes', _meta: { 'io.modelcontextprotocol/subscriptionId': notes.id } } });

    await mcp.close();
    expect(await tools.ended).toEqual({ reason: 'server' });
    expect(await notes.ended).toEqual({ reason: 'server' });
    await client.close();
  });
});
