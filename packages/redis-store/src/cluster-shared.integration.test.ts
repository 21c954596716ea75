/**
 * Two instances of one `McpServer` over one real Redis (scale-out, issue 15), on 127.0.0.1
 * sockets: resource subscriptions in Redis sets with changes routed over pub/sub, a task of the
 * tasks extension in the `RedisTaskStore` cancelled and answered from the instance that does not
 * run it, and a legacy HTTP+SSE session taking its POSTs on the other instance.
 */
import { Client, type ListenNotification, type ToolTask } from '@statemcp/client';
import { createStreamableHttpServer, type ListeningServer } from '@statemcp/http-transport/server';
import { SseClientTransport, StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { SimulatedClock, TASKS_EXTENSION_ID, withExtension } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { describe, expect, it } from 'vitest';

import { connectRedisStores, type RedisStores } from './redis-stores.js';
import { redisForFile } from './test-redis-file.js';
import { uniquePrefix } from './test-redis-server.js';

const NOTES = 'file:///notes.md';
const TASKS = withExtension({}, TASKS_EXTENSION_ID);

const redis = redisForFile();
const { cleanups } = redis;

interface Instance {
  readonly mcp: McpServer;
  readonly listening: ListeningServer;
  readonly stores: RedisStores;
  /** Task ids whose handler saw its abort signal fire. */
  readonly aborted: string[];
}


async function instance(id: string, prefix: string): Promise<Instance> {
  const stores = await connectRedisStores({ url: redis.url, keyPrefix: prefix });
  const mcp = new McpServer(
    { name: `redis-${id}`, version: '1.0.0' },
    { cluster: { instanceId: id, bus: stores.bus, subscriptions: stores.subscriptions }, taskExtension: { store: stores.tasks, pollIntervalMs: 20 } },
  );
  const aborted: string[] = [];
  mcp.registerResource('notes', NOTES, {}, (uri) => ({ contents: [{ uri, text: 'notes' }] }));
  mcp.registerTool('touch', {}, async () => {
    await mcp.notifyResourceUpdated(NOTES);
    return { content: [{ type: 'text', text: `touched on ${id}` }] };
  });
  mcp.registerTool('wait_for_cancel', { execution: { taskSupport: 'required' } }, async (_args, extra) => {
    await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve(), { once: true }));
    aborted.push(extra.task?.taskId ?? '?');
    return { content: [{ type: 'text', text: 'stopped' }] };
  });
  mcp.registerTool('ask_name', { execution: { taskSupport: 'required' } }, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.['name'])} from ${id}` }] };
  });
  const http = createStreamableHttpServer({
    connect: (transport) => mcp.connect(transport),
    eventStore: stores.events,
    legacySse: true,
    cluster: { instanceId: id, sessions: stores.sessions, bus: stores.bus },
  });
  const listening = await http.listen();
  cleanups.push(async () => {
    await listening.close();
    await stores.close();
  });
  return { mcp, listening, stores, aborted };
}

async function pair(): Promise<{ a: Instance; b: Instance }> {
  const prefix = uniquePrefix();
  return { a: await instance('a', prefix), b: await instance('b', prefix) };
}

async function connect(url: URL, era: 'legacy' | 'modern', options: ConstructorParameters<typeof Client>[1] = {}): Promise<Client> {
  const client = new Client({ name: `redis-${era}`, version: '1.0.0' }, { era, ...options });
  await client.connect(new StreamableHttpClientTransport(url));
  cleanups.push(() => client.close());
  return client;
}

async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('resource subscriptions over Redis', () => {
  it('notifies a session on A and a listen stream on A of a change reported on B; ended subscribers leave the sets', async () => {
    const { a, b } = await pair();
    const session = await connect(a.listening.url, 'legacy');
    const updates: string[] = [];
    session.onResourceUpdated((uri) => updates.push(uri));
    await session.subscribeResource({ uri: NOTES });
    const listener = await connect(a.listening.url, 'modern');
    const stream = await listener.listen({ resourceSubscriptions: [NOTES] });
    const pushed = new Promise<ListenNotification>((resolve) => stream.onNotification(resolve));
    expect(await b.stores.subscriptions.subscribers(`resource:${NOTES}`)).toHaveLength(2);

    const toucher = await connect(b.listening.url, 'legacy');
    expect((await toucher.callTool({ name: 'touch' })).content).toEqual([{ type: 'text', text: 'touched on b' }]);
    expect((await pushed).params).toMatchObject({ uri: NOTES, _meta: { 'io.modelcontextprotocol/subscriptionId': stream.id } });
    await eventually(() => updates.length === 1);

    await stream.close();
    await session.close();
    await eventually(async () => (await b.stores.subscriptions.subscribers(`resource:${NOTES}`)).length === 0);
  });
});

describe('tasks over Redis', () => {
  it('cancels on B a task running on A (its handler aborts, the stored task ends cancelled) and answers input on B', async () => {
    const { a, b } = await pair();
    const creator = await connect(a.listening.url, 'modern', { capabilities: { ...TASKS, elicitation: {} }, clock: new SimulatedClock() });
    const other = await connect(b.listening.url, 'modern', { capabilities: { ...TASKS, elicitation: {} }, onElicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) });
    const stop = new AbortController();
    const start = async (name: string): Promise<{ taskId: string; call: Promise<unknown> }> => {
      let created!: (task: ToolTask) => void;
      const handle = new Promise<ToolTask>((resolve) => (created = resolve));
      const call = creator.callTool({ name }, { onTask: created, signal: stop.signal }).catch((error: unknown) => error);
      return { taskId: (await handle).taskId, call };
    };

    const waiting = await start('wait_for_cancel');
    expect((await other.task(waiting.taskId).get()).status).toBe('working');
    await other.task(waiting.taskId).cancel();
    expect(a.aborted).toEqual([waiting.taskId]);
    expect((await b.stores.tasks.get(waiting.taskId))?.task.status).toBe('cancelled');

    const asking = await start('ask_name');
    expect((await other.task(asking.taskId).result()).content).toEqual([{ type: 'text', text: 'hello Ada from a' }]);
    expect((await b.stores.tasks.get(asking.taskId))?.task.status).toBe('completed');
    stop.abort();
    await Promise.all([waiting.call, asking.call]);
  });
});

describe('legacy HTTP+SSE over Redis', () => {
  it('relays to A, which holds the stream, the POSTs that reach B', async () => {
    const { a, b } = await pair();
    const toB: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if ((init?.method ?? 'GET') === 'POST') url.port = String(b.listening.port);
      return fetch(url, init);
    };
    const client = new Client({ name: 'legacy-sse', version: '1.0.0' }, { era: 'legacy' });
    await client.connect(new SseClientTransport(new URL('/sse', a.listening.url), { fetch: toB }));
    cleanups.push(() => client.close());
    expect(a.mcp.connections).toHaveLength(1);
    expect(b.mcp.connections).toHaveLength(0);
    expect((await client.callTool({ name: 'touch' })).content).toEqual([{ type: 'text', text: 'touched on a' }]);
  });
});
