/**
 * What instances of one server share besides sessions (scale-out, issue 15), over the in-memory
 * shared stores and real 127.0.0.1 sockets: a resource change on one instance reaches the
 * subscribers on another (`resources/subscribe` and `subscriptions/listen`), and only the
 * instances that have subscribers hear of it; a task of the tasks extension started on A is
 * read, answered and cancelled on B (the commands reach the handler on A); a legacy HTTP+SSE
 * session whose stream is held by A takes its POSTs on B.
 */
import { Client, type ListenNotification } from '@statemcp/client';
import { SimulatedClock, TASKS_EXTENSION_ID, withExtension } from '@statemcp/protocol';
import type { ToolTask } from '@statemcp/client';
import { afterEach, describe, expect, it } from 'vitest';

import { NOTES_URI, eventually, memoryStores, startInstance, type ClusterInstance } from '../../test/cluster-fixture.js';
import { SseClientTransport } from '../client/sse-client.js';
import { StreamableHttpClientTransport } from '../client/streamable-http.js';

const running: ClusterInstance[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await Promise.all(running.splice(0).map((instance) => instance.listening.close()));
});

async function cluster(): Promise<{ stores: ReturnType<typeof memoryStores>; a: ClusterInstance; b: ClusterInstance }> {
  const stores = memoryStores();
  const a = await startInstance('a', stores);
  const b = await startInstance('b', stores);
  running.push(a, b);
  return { stores, a, b };
}

async function connect(url: URL, era: 'legacy' | 'modern', options: ConstructorParameters<typeof Client>[1] = {}): Promise<Client> {
  const client = new Client({ name: `cluster-${era}`, version: '1.0.0' }, { era, ...options });
  clients.push(client);
  await client.connect(new StreamableHttpClientTransport(url));
  return client;
}

const TASKS = withExtension({}, TASKS_EXTENSION_ID);

describe('resource subscriptions across instances', () => {
  it('notifies a session subscribed on A of a change reported on B, and its subscription ends with the session', async () => {
    const { stores, a, b } = await cluster();
    const subscriber = await connect(a.url, 'legacy');
    const bystander = await connect(b.url, 'legacy');
    const updates: string[] = [];
    subscriber.onResourceUpdated((uri) => updates.push(uri));
    const bystanderUpdates: string[] = [];
    bystander.onResourceUpdated((uri) => bystanderUpdates.push(uri));
    await subscriber.subscribeResource({ uri: NOTES_URI });
    const [follower] = stores.subscriptions.subscribers(`resource:${NOTES_URI}`) as string[];
    expect(follower).toMatch(/@a$/);

    expect((await bystander.callTool({ name: 'touch' })).content).toEqual([{ type: 'text', text: 'touched on b' }]);
    await eventually(() => updates.length === 1);
    expect(updates).toEqual([NOTES_URI]);
    expect(bystanderUpdates).toEqual([]);

    await subscriber.close();
    await eventually(() => (stores.subscriptions.subscribers(`resource:${NOTES_URI}`) as string[]).length === 0);
  });

  it('reaches a 2026-07-28 listen stream held by A, tagged with its subscription id', async () => {
    const { stores, a, b } = await cluster();
    const listener = await connect(a.url, 'modern');
    const stream = await listener.listen({ resourceSubscriptions: [NOTES_URI] });
    expect(stream.acknowledged).toEqual({ resourceSubscriptions: [NOTES_URI] });
    const arriving = new Promise<ListenNotification>((resolve) => stream.onNotification(resolve));
    const toucher = await connect(b.url, 'modern');
    await toucher.callTool({ name: 'touch' });
    const notification = await arriving;
    expect(notification.method).toBe('notifications/resources/updated');
    expect(notification.params).toMatchObject({ uri: NOTES_URI, _meta: { 'io.modelcontextprotocol/subscriptionId': stream.id } });

    await stream.close();
    await eventually(() => (stores.subscriptions.subscribers(`resource:${NOTES_URI}`) as string[]).length === 0);
  });

  it('sends one message per instance that has subscribers, and none when nobody subscribed', async () => {
    const { stores, a, b } = await cluster();
    await b.mcp.notifyResourceUpdated(NOTES_URI);
    expect(stores.published.filter((channel) => channel.startsWith('followers:'))).toEqual([]);

    const first = await connect(a.url, 'legacy');
    const second = await connect(a.url, 'legacy');
    const received: string[] = [];
    for (const client of [first, second]) {
      client.onResourceUpdated((uri) => received.push(uri));
      await client.subscribeResource({ uri: NOTES_URI });
    }
    stores.published.length = 0;
    await b.mcp.notifyResourceUpdated(NOTES_URI);
    await eventually(() => received.length === 2);
    // Two subscribers on A: one message to A, nothing to B (which has none).
    expect(stores.published).toEqual(['followers:a']);

    // On the instance holding them, the subscribers are notified without the bus.
    stores.published.length = 0;
    await a.mcp.notifyResourceUpdated(NOTES_URI);
    await eventually(() => received.length === 4);
    expect(stores.published).toEqual([]);
  });
});

describe('tasks across instances', () => {
  it('reads and cancels on B a task running on A: the handler on A is aborted, and the task is cancelled once', async () => {
    const { stores, a, b } = await cluster();
    // A clock that never moves: the creating client does not poll the task itself.
    const creator = await connect(a.url, 'modern', { capabilities: TASKS, clock: new SimulatedClock() });
    let created!: (task: ToolTask) => void;
    const handle = new Promise<ToolTask>((resolve) => (created = resolve));
    const stop = new AbortController();
    const call = creator.callTool({ name: 'wait_for_cancel' }, { onTask: created, signal: stop.signal }).catch((error: unknown) => error);
    const { taskId } = await handle;

    const other = await connect(b.url, 'modern', { capabilities: TASKS });
    expect((await other.task(taskId).get()).status).toBe('working');
    await other.task(taskId).cancel();
    // The cancel was applied on A before B acknowledged it.
    expect(a.aborted).toEqual([taskId]);
    expect((await stores.tasks.get(taskId))?.task.status).toBe('cancelled');
    expect((await other.task(taskId).get()).status).toBe('cancelled');

    // The handler returned after the cancel and A stopped serving the task's commands.
    await eventually(async () => (await stores.bus.publish(`task:${taskId}`, '{}')) === 0);
    // The task stayed cancelled, moved by A alone, once.
    expect(a.taskChanges).toEqual([`${taskId}:cancelled`]);
    expect(b.taskChanges).toEqual([]);
    // Cancelling again on B (nothing runs it any more) acks and changes nothing.
    await other.task(taskId).cancel();
    expect((await stores.tasks.get(taskId))?.task.status).toBe('cancelled');
    expect(b.taskChanges).toEqual([]);
    // The creator's own handle waits on a clock that never moves: stop it.
    stop.abort();
    await call;
  });

  it('delivers the answer to an input request, given on B, to the handler waiting on A', async () => {
    const { a, b } = await cluster();
    const creator = await connect(a.url, 'modern', { capabilities: { ...TASKS, elicitation: {} }, clock: new SimulatedClock() });
    let created!: (task: ToolTask) => void;
    const handle = new Promise<ToolTask>((resolve) => (created = resolve));
    const stop = new AbortController();
    const call = creator.callTool({ name: 'ask_name' }, { onTask: created, signal: stop.signal }).catch((error: unknown) => error);
    const { taskId } = await handle;

    const other = await connect(b.url, 'modern', {
      capabilities: { ...TASKS, elicitation: {} },
      onElicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    const result = await other.task(taskId).result();
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada from a' }]);
    expect(a.taskChanges.map((change) => change.split(':')[1])).toEqual(['input_required', 'working', 'completed']);
    expect(b.taskChanges).toEqual([]);
    // The creator's own handle waits on a clock that never moves: stop it.
    stop.abort();
    await call;
  });
});

/** One JSON-RPC exchange of a 2025-11-25 session over plain HTTP: the reply, from a JSON or an SSE body. */
async function rpc(url: URL, sessionId: string | undefined, message: Record<string, unknown>): Promise<{ response: Response; reply: Record<string, unknown> | undefined }> {
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...message }) });
  const text = await response.text();
  if (text === '' || response.status === 202) return { response, reply: undefined };
  const json = response.headers.get('content-type')?.includes('text/event-stream') === true ? text.split('\n').find((line) => line.startsWith('data: {'))?.slice(6) : text;
  return { response, reply: json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>) };
}

describe('2025-11-25 tasks across instances', () => {
  it('polls, awaits and cancels on B a task of a session A runs (the relay carries tasks/get, tasks/result, tasks/cancel)', async () => {
    const { a, b } = await cluster();
    const init = await rpc(a.url, undefined, { id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const sessionId = init.response.headers.get('mcp-session-id') ?? '';
    await rpc(b.url, sessionId, { method: 'notifications/initialized' });
    const created = await rpc(b.url, sessionId, { id: 1, method: 'tools/call', params: { name: 'wait_for_cancel', task: { ttl: 60_000 } } });
    const { taskId } = (created.reply?.['result'] as { task: { taskId: string; status: string } }).task;
    const polled = await rpc(b.url, sessionId, { id: 2, method: 'tasks/get', params: { taskId } });
    expect(polled.reply?.['result']).toMatchObject({ taskId, status: 'working' });

    const awaited = rpc(b.url, sessionId, { id: 3, method: 'tasks/result', params: { taskId } });
    const cancelled = await rpc(b.url, sessionId, { id: 4, method: 'tasks/cancel', params: { taskId } });
    expect(cancelled.reply?.['result']).toMatchObject({ taskId, status: 'cancelled' });
    await eventually(() => a.aborted.includes(taskId));
    // tasks/result was waiting on A: the cancelled task has no result.
    expect((await awaited).reply?.['error']).toMatchObject({ code: -32602 });
    expect(b.mcp.connections).toHaveLength(0);
  });
});

describe('legacy HTTP+SSE across instances', () => {
  it('relays the POSTs of a session whose stream A holds from B, and its answers arrive on the stream', async () => {
    const { stores, a, b } = await cluster();
    // A load balancer without stickiness: the GET went to A, every POST goes to B.
    const toB: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if ((init?.method ?? 'GET') === 'POST') url.port = String(b.listening.port);
      return fetch(url, init);
    };
    const client = new Client({ name: 'legacy-sse', version: '1.0.0' }, { era: 'legacy' });
    clients.push(client);
    await client.connect(new SseClientTransport(a.sseUrl, { fetch: toB }));
    expect(a.mcp.connections).toHaveLength(1);
    expect(b.mcp.connections).toHaveLength(0);
    const [sessionId = ''] = a.http.sessions.ids();
    expect((await stores.sessions.get(sessionId))?.owner).toBe('a');
    expect((await client.callTool({ name: 'touch' })).content).toEqual([{ type: 'text', text: 'touched on a' }]);
    const updates: string[] = [];
    client.onResourceUpdated((uri) => updates.push(uri));
    await client.subscribeResource({ uri: NOTES_URI });
    await b.mcp.notifyResourceUpdated(NOTES_URI);
    await eventually(() => updates.length === 1);
    await client.close();
    await eventually(async () => (await stores.sessions.get(sessionId)) === undefined);
  });
});
