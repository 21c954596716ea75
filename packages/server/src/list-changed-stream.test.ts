/**
 * The client's own list-changed stream against McpServer over the in-memory transport: in the
 * 2026-07-28 era `onToolsListChanged` and the `listChanged` auto-refresh hear changes without
 * the application calling `client.listen`, through ONE `subscriptions/listen` stream the client
 * opens for exactly the lists listened to and advertised; it widens for a later listener,
 * resumes after a lost connection, closes cleanly with the client, and `autoListen: false`
 * opens none. The legacy era sends no listen.
 */
import { Client, type ClientOptions } from '@statemcp/client';
import { InMemoryTransport, SimulatedClock, type InspectEvent, type Tool } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from './index.js';
import { flush } from './test-harness.js';

function toolServer(): McpServer {
  const server = new McpServer({ name: 'changing-server', version: '1.0.0' });
  server.registerTool('first', {}, () => ({ content: [] }));
  server.registerPrompt('greet', {}, () => ({ messages: [] }));
  return server;
}

interface Connected {
  readonly client: Client;
  readonly clientSide: InMemoryTransport;
  readonly serverSide: InMemoryTransport;
}

async function attach(server: McpServer, client: Client): Promise<Connected> {
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { client, clientSide, serverSide };
}

function newClient(options: ClientOptions = {}): Client {
  return new Client({ name: 'list-watcher', version: '1.0.0' }, options);
}

/** The `subscriptions/listen` requests the client sent, as inspect saw them enter its ledger. */
function listensSent(events: readonly InspectEvent[]): unknown[] {
  return events.filter((event) => event.type === 'request.transition' && event.method === 'subscriptions/listen' && event.from === 'created' && event.to === 'created').map((event) => (event.type === 'request.transition' ? event.requestId : undefined));
}

describe("the client's own list-changed stream (2026-07-28)", () => {
  for (const era of ['auto', 'modern'] as const) {
    it(`fires onToolsListChanged for a tool registered after connect (era '${era}')`, async () => {
      const server = toolServer();
      const events: InspectEvent[] = [];
      const client = newClient({ era, inspect: (event) => events.push(event) });
      let changed = 0;
      client.onToolsListChanged(() => changed++);
      await attach(server, client);
      expect(client.era).toBe('modern');
      expect(server.server.subscriptions.live.map((live) => live.filter)).toEqual([{ toolsListChanged: true }]);
      expect(listensSent(events)).toHaveLength(1);

      server.registerTool('second', {}, () => ({ content: [] }));
      await flush();
      expect(changed).toBe(1);
      await client.close();
    });
  }

  it('feeds the listChanged auto-refresh without client.listen', async () => {
    const server = toolServer();
    const clock = new SimulatedClock();
    const refreshed: string[][] = [];
    const client = newClient({ clock, listChanged: { tools: { onChanged: (items: Tool[]) => refreshed.push(items.map((tool) => tool.name)), debounceMs: 10 } } });
    await attach(server, client);
    server.registerTool('second', {}, () => ({ content: [] }));
    await flush();
    clock.advance(10);
    await flush();
    expect(refreshed).toEqual([['first', 'second']]);
    await client.close();
  });

  it('opens no stream when nothing listens, nor for a list the server does not advertise', async () => {
    const server = new McpServer({ name: 'tools-only', version: '1.0.0' });
    server.registerTool('first', {}, () => ({ content: [] }));
    const events: InspectEvent[] = [];
    const client = newClient({ inspect: (event) => events.push(event) });
    client.onResourceUpdated(() => undefined); // not a list change
    await attach(server, client);
    client.onPromptsListChanged(() => undefined); // the server declares no prompts
    await flush();
    expect(listensSent(events)).toEqual([]);
    expect(server.server.subscriptions.live).toEqual([]);
    await client.close();
  });

  it('widens to a list whose listener is added after connect: one stream for both, the old one closed', async () => {
    const server = toolServer();
    const client = newClient();
    const seen: string[] = [];
    client.onToolsListChanged(() => seen.push('tools'));
    await attach(server, client);
    const [first] = server.server.subscriptions.live;
    client.onPromptsListChanged(() => seen.push('prompts'));
    await flush();
    expect(server.server.subscriptions.live.map((live) => live.id)).not.toContain(first?.id);
    expect(server.server.subscriptions.live.map((live) => live.filter)).toEqual([{ toolsListChanged: true, promptsListChanged: true }]);

    server.registerTool('second', {}, () => ({ content: [] }));
    server.registerPrompt('other', {}, () => ({ messages: [] }));
    await flush();
    expect(seen.sort()).toEqual(['prompts', 'tools']);
    await client.close();
  });

  it("hears a change once when the application's own stream carries it too", async () => {
    const server = toolServer();
    const client = newClient();
    let changed = 0;
    client.onToolsListChanged(() => changed++);
    await attach(server, client);
    const own = await client.listen({ toolsListChanged: true });
    const onOwn: string[] = [];
    own.onNotification(({ method }) => onOwn.push(method));
    server.registerTool('second', {}, () => ({ content: [] }));
    await flush();
    expect(onOwn).toEqual(['notifications/tools/list_changed']);
    expect(changed).toBe(1);
    await client.close();
  });

  it('opens the stream again on the next connect() after a lost connection', async () => {
    const server = toolServer();
    const client = newClient();
    let changed = 0;
    client.onToolsListChanged(() => changed++);
    const { serverSide } = await attach(server, client);
    const firstId = server.server.subscriptions.live[0]?.id;
    await serverSide.close(); // the server side went away
    await client.closed;

    await attach(server, client);
    await flush();
    const live = server.server.subscriptions.live;
    expect(live).toHaveLength(1);
    expect(live[0]?.filter).toEqual({ toolsListChanged: true });
    expect(live[0]?.id).toBeDefined();
    expect(firstId).toBeDefined();
    server.registerTool('second', {}, () => ({ content: [] }));
    await flush();
    expect(changed).toBe(1);
    await client.close();
  });

  it('closes the stream with client.close(): its request cancelled, nothing left open', async () => {
    const server = toolServer();
    const events: InspectEvent[] = [];
    const client = newClient({ inspect: (event) => events.push(event) });
    client.onToolsListChanged(() => undefined);
    await attach(server, client);
    await client.close();
    await flush();
    expect(server.server.subscriptions.live).toEqual([]);
    const listenEnd = events.filter((event) => event.type === 'request.transition' && event.method === 'subscriptions/listen').at(-1);
    expect(listenEnd).toMatchObject({ to: 'cancelled' });
    expect((await client.closed).reason).toBe('closed');
  });

  it('opens none with autoListen: false', async () => {
    const server = toolServer();
    const client = newClient({ autoListen: false });
    let changed = 0;
    client.onToolsListChanged(() => changed++);
    await attach(server, client);
    server.registerTool('second', {}, () => ({ content: [] }));
    await flush();
    expect(server.server.subscriptions.live).toEqual([]);
    expect(changed).toBe(0);
    await client.close();
  });

  it('sends no listen in the legacy era, where the connection carries list changes', async () => {
    const server = toolServer();
    const events: InspectEvent[] = [];
    const client = newClient({ era: 'legacy', inspect: (event) => events.push(event) });
    let changed = 0;
    client.onToolsListChanged(() => changed++);
    await attach(server, client);
    server.registerTool('second', {}, () => ({ content: [] }));
    await flush();
    expect(listensSent(events)).toEqual([]);
    expect(changed).toBe(1);
    await client.close();
  });
});
