/**
 * `client.listen` in the 2026-07-28 era against the official TypeScript SDK v2 server
 * (`createMcpHandler`): its `subscriptions/listen` stream is acknowledged, its change events
 * (`handler.notify`) arrive tagged with our subscription id, and closing our stream closes the
 * POST (the handler's stream ends; no `notifications/cancelled` is posted).
 */
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { Client, type ListenNotification } from '@statemcp/client';
import { describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from './streamable-http.js';

const URL_ = 'http://127.0.0.1:9/mcp';

function next(stream: { onNotification(listener: (notification: ListenNotification) => void): () => void }): Promise<ListenNotification> {
  return new Promise((resolve) => {
    const remove = stream.onNotification((notification) => {
      remove();
      resolve(notification);
    });
  });
}

describe('client.listen against the official v2 server (Streamable HTTP, 2026-07-28)', () => {
  it('is acknowledged, receives tagged change events, and closes its POST when closed', async () => {
    const handler = createMcpHandler(() => {
      const mcp = new McpServer({ name: 'official-v2', version: '2.4.0' }, { capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } } });
      mcp.registerTool('noop', { description: 'Does nothing' }, () => ({ content: [] }));
      mcp.registerResource('notes', 'test://notes', {}, (uri) => ({ contents: [{ uri: uri.href, text: 'notes' }] }));
      return mcp;
    });
    const methods: string[] = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      methods.push(request.headers.get('mcp-method') ?? request.method);
      return handler.fetch(request);
    };
    const client = new Client({ name: 'statemcp', version: '1' }, { era: 'modern' });
    await client.connect(new StreamableHttpClientTransport(URL_, { fetch }));
    const stream = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['test://notes'] });
    expect(stream.acknowledged).toMatchObject({ toolsListChanged: true, resourceSubscriptions: ['test://notes'] });

    let arriving = next(stream);
    handler.notify.toolsChanged();
    let notification = await arriving;
    expect(notification.method).toBe('notifications/tools/list_changed');
    expect(notification.params._meta).toMatchObject({ 'io.modelcontextprotocol/subscriptionId': stream.id });

    arriving = next(stream);
    handler.notify.resourceUpdated('test://notes');
    notification = await arriving;
    expect(notification).toMatchObject({ method: 'notifications/resources/updated', params: { uri: 'test://notes' } });

    await stream.close();
    expect(await stream.ended).toEqual({ reason: 'closed' });
    expect(methods).not.toContain('notifications/cancelled');
    await client.close();
    await handler.close();
  });
});
