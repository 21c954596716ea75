/**
 * `client.listen(filter)` against McpServer in both eras over the in-memory transport: the same
 * call is a `subscriptions/listen` stream in the 2026-07-28 era and `resources/subscribe` plus
 * the connection's own notifications in the legacy era; streams are demultiplexed by their
 * subscription id, end when closed, when the server closes, or with the connection; and the
 * `listChanged` auto-refresh is fed by a listen stream.
 */
import { Client, type ClientOptions, type ListenNotification } from '@statemcp/client';
import { InMemoryTransport, InvalidStateError, RequestCancelledError, SimulatedClock, type Tool } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from './index.js';
import { flush } from './test-harness.js';

function fixtureServer(): McpServer {
  const server = new McpServer({ name: 'listen-server', version: '1.0.0' });
  server.registerTool('first', {}, () => ({ content: [] }));
  server.registerResource('notes', 'test://notes', {}, (uri) => ({ contents: [{ uri, text: 'notes' }] }));
  server.registerResource('other', 'test://other', {}, (uri) => ({ contents: [{ uri, text: 'other' }] }));
  return server;
}

async function connect(server: McpServer, era: 'modern' | 'legacy', options: ClientOptions = {}): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'listen-client', version: '1.0.0' }, { era, ...options });
  await client.connect(clientSide);
  return client;
}

function collect(stream: { onNotification(listener: (notification: ListenNotification) => void): () => void }): ListenNotification[] {
  const seen: ListenNotification[] = [];
  stream.onNotification((notification) => seen.push(notification));
  return seen;
}

describe('client.listen against McpServer', () => {
  for (const era of ['modern', 'legacy'] as const) {
    it(`delivers the list changes and resource updates it asked for (${era} era)`, async () => {
      const server = fixtureServer();
      const client = await connect(server, era);
      expect(client.era).toBe(era);
      const stream = await client.listen({ toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['test://notes'] });
      // No prompt is registered: the server does not declare prompts.listChanged, so it is not honoured.
      expect(stream.acknowledged).toEqual({ toolsListChanged: true, resourceSubscriptions: ['test://notes'] });
      const seen = collect(stream);
      server.registerTool('second', {}, () => ({ content: [] }));
      await server.notifyResourceUpdated('test://other');
      await server.notifyResourceUpdated('test://notes');
      await flush();
      expect(seen.map(({ method, params }) => [method, params.uri])).toEqual([
        ['notifications/tools/list_changed', undefined],
        ['notifications/resources/updated', 'test://notes'],
      ]);
      await stream.close();
      expect(await stream.ended).toEqual({ reason: 'closed' });
      server.registerTool('third', {}, () => ({ content: [] }));
      await server.notifyResourceUpdated('test://notes');
      await flush();
      expect(seen).toHaveLength(2);
      await client.close();
    });
  }

  it('tells two streams of one connection apart by subscription id (modern era)', async () => {
    const server = fixtureServer();
    const client = await connect(server, 'modern');
    const tools = await client.listen({ toolsListChanged: true });
    const notes = await client.listen({ resourceSubscriptions: ['test://notes'] });
    expect(tools.id).not.toBe(notes.id);
    const toolsSeen = collect(tools);
    const notesSeen = collect(notes);
    server.registerTool('second', {}, () => ({ content: [] }));
    await server.notifyResourceUpdated('test://notes');
    await flush();
    expect(toolsSeen.map((notification) => notification.method)).toEqual(['notifications/tools/list_changed']);
    expect(notesSeen.map((notification) => notification.params._meta)).toEqual([{ 'io.modelcontextprotocol/subscriptionId': notes.id }]);
    await client.close();
    expect((await tools.ended).reason).toBe('connection');
  });

  it('ends gracefully when the server closes, and iterates until then (modern era)', async () => {
    const server = fixtureServer();
    const client = await connect(server, 'modern');
    const stream = await client.listen({ toolsListChanged: true });
    const iterated: string[] = [];
    const reading = (async () => {
      for await (const notification of stream) iterated.push(notification.method);
    })();
    server.registerTool('second', {}, () => ({ content: [] }));
    await flush();
    await server.close();
    await reading;
    expect(iterated).toEqual(['notifications/tools/list_changed']);
    expect(await stream.ended).toEqual({ reason: 'server' });
  });

  it('closes when its signal aborts; a closed stream cancels its request on the wire (modern era)', async () => {
    const server = fixtureServer();
    const client = await connect(server, 'modern');
    const controller = new AbortController();
    const stream = await client.listen({ toolsListChanged: true }, { signal: controller.signal });
    expect(server.server.subscriptions.live).toHaveLength(1);
    controller.abort();
    expect(await stream.ended).toEqual({ reason: 'closed' });
    await flush();
    expect(server.server.subscriptions.live).toEqual([]);
    await client.close();
  });

  it('feeds the listChanged auto-refresh from a listen stream (modern era)', async () => {
    const server = fixtureServer();
    const clock = new SimulatedClock();
    const refreshed: string[][] = [];
    const client = await connect(server, 'modern', { clock, listChanged: { tools: { onChanged: (items: Tool[]) => refreshed.push(items.map((tool) => tool.name)), debounceMs: 10 } } });
    await client.listen({ toolsListChanged: true });
    server.registerTool('second', {}, () => ({ content: [] }));
    await flush();
    clock.advance(10);
    await flush();
    expect(refreshed).toEqual([['first', 'second']]);
    await client.close();
  });

  it('rejects when the stream cannot be opened (aborted before it was acknowledged)', async () => {
    const server = fixtureServer();
    const client = await connect(server, 'modern');
    await expect(client.listen({ toolsListChanged: true }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(RequestCancelledError);
    await client.close();
  });

  it('refuses to open without a live connection', async () => {
    const client = new Client({ name: 'listen-client', version: '1.0.0' });
    await expect(client.listen({ toolsListChanged: true })).rejects.toBeInstanceOf(InvalidStateError);
  });
});
