/**
 * The 2026-07-28 era over stdio with a real child process: our `Client` discovers our
 * `McpServer` (no handshake), and `client.listen` streams share the one pipe, told apart by
 * their subscription id — a process is not a session. A closed stream is cancelled on the
 * wire; the server's close ends the others with the graceful result. When the server process
 * dies and the client connects to a new one, the open streams are re-sent and carry on.
 */
import { fileURLToPath } from 'node:url';
import { Client, type ListenHandle, type ListenNotification } from '@statemcp/client';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '../src/index.js';
import { node, sourceFixture } from './support/paths.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const listenServer = await sourceFixture('listen-server.mjs');
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.terminate()));
});

function serverProcess(): StdioClientTransport {
  return new StdioClientTransport({ command: node, args: [listenServer], cwd: packageRoot });
}

async function connect(): Promise<Client> {
  // A slow start on a busy machine must not make discovery fall back to the handshake.
  const client = new Client({ name: 'statemcp-stdio-listen', version: '0.0.0' }, { era: 'auto', discoveryTimeoutMs: 60_000 });
  clients.push(client);
  await client.connect(serverProcess());
  return client;
}

function collect(stream: ListenHandle): ListenNotification[] {
  const seen: ListenNotification[] = [];
  stream.onNotification((notification) => seen.push(notification));
  return seen;
}

function next(stream: ListenHandle): Promise<ListenNotification> {
  return new Promise((resolve) => {
    const remove = stream.onNotification((notification) => {
      remove();
      resolve(notification);
    });
  });
}

describe('listen over stdio in the 2026-07-28 era', () => {
  it('demultiplexes two streams on one pipe by subscription id', async () => {
    const client = await connect();
    expect(client.era).toBe('modern');
    const tools = await client.listen({ toolsListChanged: true });
    const notes = await client.listen({ resourceSubscriptions: ['test://notes'], toolsListChanged: true });
    expect(notes.acknowledged).toEqual({ resourceSubscriptions: ['test://notes'], toolsListChanged: true });
    const toolsSeen = collect(tools);
    const notesSeen = collect(notes);

    const toNotes = next(notes);
    await client.callTool({ name: 'touch', arguments: { uri: 'test://notes' } });
    expect(await toNotes).toMatchObject({ method: 'notifications/resources/updated', params: { uri: 'test://notes', _meta: { 'io.modelcontextprotocol/subscriptionId': notes.id } } });

    const toBoth = Promise.all([next(tools), next(notes)]);
    await client.callTool({ name: 'add_tool', arguments: { name: 'extra' } });
    const [onTools, onNotes] = await toBoth;
    expect(onTools.params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': tools.id });
    expect(onNotes.params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': notes.id });
    expect(toolsSeen.map((notification) => notification.method)).toEqual(['notifications/tools/list_changed']);
    expect(notesSeen.map((notification) => notification.method)).toEqual(['notifications/resources/updated', 'notifications/tools/list_changed']);

    // `tools` was opened first: had its cancellation not reached the server, its copy would precede `notes`' on the pipe.
    await tools.close();
    const afterClose = next(notes);
    await client.callTool({ name: 'add_tool', arguments: { name: 'another' } });
    await afterClose;
    expect(toolsSeen).toHaveLength(1);
    await client.close();
  });

  it('ends the streams with the graceful result when the server closes', async () => {
    const client = await connect();
    const stream = await client.listen({ toolsListChanged: true });
    await client.callTool({ name: 'shutdown', arguments: {} });
    expect(await stream.ended).toEqual({ reason: 'server' });
  });

  it('re-sends the open streams to a restarted server process, and their notifications keep flowing', async () => {
    const client = await connect();
    const tools = await client.listen({ toolsListChanged: true });
    const notes = await client.listen({ resourceSubscriptions: ['test://notes'] });
    const once = await client.listen({ toolsListChanged: true }, { resume: false });
    const toolsSeen = collect(tools);

    // The server process dies: no graceful end, the connection is lost.
    await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toThrow();
    expect(['peerClosed', 'transportError']).toContain((await client.closed).reason);
    expect((await once.ended).reason).toBe('connection');

    // A new server process: both waiting streams are sent again (new requests of the new connection).
    const resumed = Promise.all([tools, notes].map((stream) => new Promise((resolve) => stream.onResumed(resolve))));
    await client.connect(serverProcess());
    expect(await resumed).toEqual([{ toolsListChanged: true }, { resourceSubscriptions: ['test://notes'] }]);

    const toTools = next(tools);
    const toNotes = next(notes);
    await client.callTool({ name: 'add_tool', arguments: { name: 'after_restart' } });
    await client.callTool({ name: 'touch', arguments: { uri: 'test://notes' } });
    expect((await toTools).params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': tools.id });
    expect(await toNotes).toMatchObject({ method: 'notifications/resources/updated', params: { uri: 'test://notes', _meta: { 'io.modelcontextprotocol/subscriptionId': notes.id } } });
    expect(toolsSeen.map((notification) => notification.method)).toEqual(['notifications/tools/list_changed']);

    // Closing the client ends them; a stream closed while it waited ends at once.
    await client.close();
    expect((await tools.ended).reason).toBe('connection');
    expect((await notes.ended).reason).toBe('connection');
  });
});
