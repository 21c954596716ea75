/**
 * `subscriptions/listen` over stateless Streamable HTTP on real 127.0.0.1 sockets: the listen
 * POST is answered with an SSE stream whose first event is the acknowledgement, change
 * notifications arrive on it tagged with the subscription id, closing the stream on the client
 * cancels it on the server (no session, no `notifications/cancelled` POST), the server's
 * close ends it with the graceful result, and a stream whose response broke is sent again.
 */
import { Client, type ListenNotification } from '@statemcp/client';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { Servers, recordingFetch } from '../../test/mcp-fixture.js';
import { StreamableHttpClientTransport } from '../client/streamable-http.js';

const servers = new Servers();
afterEach(() => servers.closeAll());

function next(stream: { onNotification(listener: (notification: ListenNotification) => void): () => void }): Promise<ListenNotification> {
  return new Promise((resolve) => {
    const remove = stream.onNotification((notification) => {
      remove();
      resolve(notification);
    });
  });
}

describe('subscriptions/listen over Streamable HTTP (2026-07-28)', () => {
  it('streams tagged change notifications on the POST, and closing the stream cancels it on the server', async () => {
    const { mcp, url } = await servers.start();
    const { fetch, exchanges } = recordingFetch();
    const client = new Client({ name: 'listen-http', version: '1.0.0' }, { era: 'modern' });
    await client.connect(new StreamableHttpClientTransport(url, { fetch }));
    const stream = await client.listen({ toolsListChanged: true, promptsListChanged: true });
    expect(stream.acknowledged).toEqual({ toolsListChanged: true });
    const listen = exchanges.find((exchange) => exchange.rpc === 'subscriptions/listen');
    expect(listen?.headers['mcp-method']).toBe('subscriptions/listen');
    expect(listen?.headers['mcp-session-id']).toBeUndefined();

    const arriving = next(stream);
    mcp.registerTool('added', {}, () => ({ content: [] }));
    const notification = await arriving;
    expect(notification.method).toBe('notifications/tools/list_changed');
    expect(notification.params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': stream.id });

    const [live] = mcp.server.subscriptions.live;
    expect(live?.id).toBe(stream.id);
    await stream.close();
    await live?.connection.closed;
    expect(mcp.server.subscriptions.live).toEqual([]);
    expect(exchanges.some((exchange) => exchange.rpc === 'notifications/cancelled')).toBe(false);
    await client.close();
  });

  it('ends with the graceful result when the server closes', async () => {
    const { mcp, url } = await servers.start();
    const client = new Client({ name: 'listen-http', version: '1.0.0' }, { era: 'modern' });
    await client.connect(new StreamableHttpClientTransport(url));
    const stream = await client.listen({ toolsListChanged: true });
    await mcp.close();
    expect(await stream.ended).toEqual({ reason: 'server' });
    await client.close();
  });

  it('sends the listen again when its response stream breaks after the acknowledgement, and it carries on', async () => {
    const { mcp, url } = await servers.start();
    const client = new Client({ name: 'listen-http', version: '1.0.0' }, { era: 'modern' });
    await client.connect(new StreamableHttpClientTransport(url));
    const stream = await client.listen({ toolsListChanged: true });
    const firstId = stream.id;
    const resumed = new Promise((resolve) => stream.onResumed(resolve));
    // The server side of the listen goes away without its graceful result (as a restarted instance's would).
    const [live] = mcp.server.subscriptions.live;
    await live?.connection.terminate();
    expect(await resumed).toEqual({ toolsListChanged: true });
    expect(stream.id).not.toBe(firstId);
    const arriving = next(stream);
    mcp.registerTool('added', {}, () => ({ content: [] }));
    expect((await arriving).params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': stream.id });
    await client.close();
  });

  it("opens the client's own stream for onToolsListChanged in era 'auto', and client.close() ends it on the server", async () => {
    const { mcp, url } = await servers.start();
    const { fetch, exchanges } = recordingFetch();
    const client = new Client({ name: 'list-watcher', version: '1.0.0' });
    const changed = new Promise<void>((resolve) => client.onToolsListChanged(resolve));
    await client.connect(new StreamableHttpClientTransport(url, { fetch }));
    expect(client.era).toBe('modern');
    expect(exchanges.filter((exchange) => exchange.rpc === 'subscriptions/listen')).toHaveLength(1);
    const [live] = mcp.server.subscriptions.live;
    expect(live?.filter).toEqual({ toolsListChanged: true });

    mcp.registerTool('added', {}, () => ({ content: [] }));
    await changed;
    await client.close();
    await live?.connection.closed;
    expect(mcp.server.subscriptions.live).toEqual([]);
  });

  it("sends the client's own stream again when its response breaks, and the listener keeps hearing changes", async () => {
    const { mcp, url } = await servers.start();
    const client = new Client({ name: 'list-watcher', version: '1.0.0' });
    let changes = 0;
    client.onToolsListChanged(() => changes++);
    await client.connect(new StreamableHttpClientTransport(url));
    const [first] = mcp.server.subscriptions.live;
    await first?.connection.terminate(); // as a restarted instance's would
    await vi.waitFor(
      () => {
        const live = mcp.server.subscriptions.live;
        expect(live).toHaveLength(1);
        expect(live[0]?.id).not.toBe(first?.id);
      },
      { timeout: 10_000 },
    );

    mcp.registerTool('added', {}, () => ({ content: [] }));
    await vi.waitFor(() => expect(changes).toBe(1), { timeout: 10_000 });
    await client.close();
  });
});
