import { SimulatedClock, type JsonObject, type RequestId } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplicaSessionTransport, postRoute, replicaTag, streamWriter, taggedInstance } from './cluster-replicas.js';
import { toResponse } from './http-response.js';
import { InMemoryEventStore } from './event-store.js';
import { InMemoryMessageBus, InMemorySessionStore } from './memory-shared-state.js';
import type { StreamableHttpServer } from './server-options.js';
import { createStreamableHttpServer } from './streamable-http-server.js';
import { createServerSession, initializeBody, messagesOf, postInit, readEvents } from './test-support.js';

const URL_ = 'http://127.0.0.1/mcp';
const servers: StreamableHttpServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Three instances with replicas sharing the session store, the bus and the event store. */
function cluster(authenticated = false) {
  const sessions = new InMemorySessionStore();
  const bus = new InMemoryMessageBus();
  const eventStore = new InMemoryEventStore();
  const aborted: string[] = [];
  const instance = (instanceId: string): StreamableHttpServer => {
    const server = createStreamableHttpServer({
      eventStore,
      cluster: { instanceId, sessions, bus, replicas: true },
      ...(authenticated ? { authenticate: (request: Request) => ({ user: request.headers.get('x-user') }) } : {}),
      connect: async (transport) => {
        const session = createServerSession(transport, {
          whoami: () => ({ content: [{ type: 'text', text: instanceId }] }),
          ask: async (_args, context) => {
            await context.sendRequest('ping');
            return { content: [{ type: 'text', text: `pong received by ${instanceId}` }] };
          },
          impatient: async (_args, context) => {
            const outcome = await context.sendRequest('ping', {}, { timeoutMs: 20 }).then(
              () => 'answered',
              () => 'timed out',
            );
            return { content: [{ type: 'text', text: outcome }] };
          },
          wait: (_args, context) =>
            new Promise((resolve) => {
              context.signal.addEventListener('abort', () => {
                aborted.push(instanceId);
                resolve({ content: [{ type: 'text', text: 'cancelled' }] });
              });
            }),
        });
        await session.connect(transport);
      },
    });
    servers.push(server);
    return server;
  };
  return { sessions, bus, aborted, a: instance('a'), b: instance('b'), c: instance('c') };
}

const headersOf = (sessionId: string, extra: Record<string, string> = {}): Record<string, string> => ({ 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', ...extra });
const post = (sessionId: string, body: unknown, extra: Record<string, string> = {}): RequestInit => postInit(body, headersOf(sessionId, extra));
const call = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name } });

async function openOn(server: StreamableHttpServer, extra: Record<string, string> = {}): Promise<string> {
  const response = await server.handleFetch(new Request(URL_, postInit(initializeBody(), extra)));
  expect(response.status).toBe(200);
  const sessionId = response.headers.get('mcp-session-id') ?? '';
  expect((await server.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', method: 'notifications/initialized' }, extra)))).status).toBe(202);
  return sessionId;
}

async function resultText(response: Response, id: number): Promise<string> {
  const { events } = await readEvents(response.body, (event) => event.data.includes('"result"'));
  const result = messagesOf(events).find((message) => message['id'] === id)?.['result'] as JsonObject | undefined;
  return ((result?.['content'] as JsonObject[] | undefined)?.[0]?.['text'] as string | undefined) ?? '';
}

describe('cluster replicas: routing rules', () => {
  it('tags name their instance, whatever it contains', () => {
    for (const instance of ['a', 'pod:7.a', '@1:x:']) {
      expect(taggedInstance(`${replicaTag(instance)}12`)).toBe(instance);
      expect(streamWriter('s:1', `3.s:1.${replicaTag(instance)}uuid.4`)).toBe(instance);
    }
    expect(taggedInstance('@0:x:1')).toBeUndefined();
    expect(taggedInstance('@2:x:1')).toBeUndefined();
    expect(taggedInstance('7')).toBeUndefined();
    expect(streamWriter('s', '1.s.uuid.1')).toBeUndefined();
    expect(streamWriter('s', undefined)).toBeUndefined();
  });

  it('serves requests where they arrive, sends an answer to its tagged instance, and the rest to the owner', () => {
    expect(postRoute([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }])).toEqual({ kind: 'replica' });
    expect(postRoute([{ jsonrpc: '2.0', id: `${replicaTag('b')}3`, result: {} }])).toEqual({ kind: 'instance', instance: 'b' });
    expect(postRoute([{ jsonrpc: '2.0', id: 3, result: {} }])).toEqual({ kind: 'owner' });
    expect(postRoute([{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }])).toEqual({ kind: 'owner' });
    expect(postRoute([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', method: 'notifications/progress', params: {} }])).toEqual({ kind: 'owner' });
  });
});

describe('ReplicaSessionTransport', () => {
  it('tags the requests it sends, their progress tokens and cancellations, takes back the answers and progress, and reports undeliverable requests by their own ids', async () => {
    const undeliverable: RequestId[][] = [];
    const transport = new ReplicaSessionTransport(
      {
        sessionId: 's',
        settings: { eventStore: undefined, retryIntervalMs: undefined, keepAliveIntervalMs: 0, maxQueuedMessages: 2, maxStreamBufferBytes: 64 * 1024, stalledStreamTimeoutMs: 1000, clock: new SimulatedClock() },
      },
      replicaTag('b'),
    );
    const received: unknown[] = [];
    await transport.start({ onMessage: (message) => received.push(message), onClose: () => undefined, onUndeliverable: (ids) => undeliverable.push([...ids]) });
    await transport.send({ jsonrpc: '2.0', id: 7, method: 'ping', params: { _meta: { progressToken: 7 } } });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'gave up' } });
    const stream = toResponse(transport.openStandalone('2025-11-25', {}));
    const { events } = await readEvents(stream.body, (_event, all) => all.length === 2);
    expect(messagesOf(events)).toEqual([
      { jsonrpc: '2.0', id: '@1:b:7', method: 'ping', params: { _meta: { progressToken: '@1:b:7' } } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: '@1:b:7', reason: 'gave up' } },
    ]);
    // The client's progress and answer come back to the session with the ids it gave them; another instance's stay as they are.
    await transport.acceptPost({
      messages: [
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: '@1:b:7', progress: 1 } },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: '@1:c:7', progress: 1 } },
        { jsonrpc: '2.0', id: '@1:b:7', result: {} },
      ],
      requestIds: [],
      batch: true,
      mode: 'json',
      version: '2025-11-25',
      context: {},
      headers: {},
    });
    expect(received).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 1 } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: '@1:c:7', progress: 1 } },
      { jsonrpc: '2.0', id: 7, result: {} },
    ]);
    // Past the queue's bound the oldest request is dropped: the session hears of it by its own id.
    await transport.terminate();
    const bounded = new ReplicaSessionTransport(
      {
        sessionId: 's',
        settings: { eventStore: undefined, retryIntervalMs: undefined, keepAliveIntervalMs: 0, maxQueuedMessages: 1, maxStreamBufferBytes: 64 * 1024, stalledStreamTimeoutMs: 1000, clock: new SimulatedClock() },
      },
      replicaTag('b'),
    );
    await bounded.start({ onMessage: () => undefined, onClose: () => undefined, onUndeliverable: (ids) => undeliverable.push([...ids]) });
    await bounded.send({ jsonrpc: '2.0', id: 'x', method: 'ping' });
    await bounded.send({ jsonrpc: '2.0', id: 8, method: 'ping' });
    expect(undeliverable).toEqual([['x']]);
    await bounded.terminate();
  });
});

describe('cluster replicas', () => {
  it('serves a request of a session opened on A on B itself, without a relay', async () => {
    const { a, b, c } = cluster();
    const sessionId = await openOn(a);
    for (const [server, by] of [[b, 'b'], [c, 'c'], [a, 'a'], [b, 'b']] as const) {
      const response = await server.handleFetch(new Request(URL_, post(sessionId, call(1, 'whoami'))));
      expect(response.status).toBe(200);
      expect(await resultText(response, 1)).toBe(by);
    }
    for (const server of [a, b, c]) expect(server.cluster).toMatchObject({ relayed: 0, served: 0 });
    expect(b.cluster?.replicas).toBe(1);
    expect(c.cluster?.replicas).toBe(1);
    expect(a.cluster?.replicas).toBe(0);
    // A replica is not a session of its instance: only A runs (and lists) the session.
    expect([a.sessions.size, b.sessions.size, c.sessions.size]).toEqual([1, 0, 0]);
  });

  it("delivers the client's answer, posted on A (the owner), to the tool waiting on B; the stream resumes on C from B", async () => {
    const { a, b, c } = cluster();
    const sessionId = await openOn(a);
    const asked = await b.handleFetch(new Request(URL_, post(sessionId, call(1, 'ask'))));
    const first = await readEvents(asked.body, (event) => event.data.includes('"ping"'));
    const pingEvent = first.events.find((event) => event.data.includes('"ping"'));
    const ping = messagesOf(first.events).find((message) => message['method'] === 'ping');
    expect(taggedInstance(String(ping?.['id']))).toBe('b');

    const answered = await a.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', id: ping?.['id'] as string, result: {} })));
    expect(answered.status).toBe(202);
    expect(a.cluster).toMatchObject({ relayed: 1 });
    expect(b.cluster).toMatchObject({ served: 1 });

    // The client lost B's stream: resumed on C, the stream comes from B, which wrote it.
    const resumed = await c.handleFetch(new Request(URL_, { method: 'GET', headers: headersOf(sessionId, { accept: 'text/event-stream', 'last-event-id': pingEvent?.id ?? '' }) }));
    expect(resumed.status).toBe(200);
    expect(await resultText(resumed, 1)).toBe('pong received by b');
    expect(c.cluster).toMatchObject({ relayed: 1, served: 0 });
    expect(b.cluster).toMatchObject({ served: 2 });
  });

  it("sends what a replica says outside any request on the owner's GET stream: its cancellation of a request it gave up on", async () => {
    const { a, b } = cluster();
    const sessionId = await openOn(a);
    const standalone = await a.handleFetch(new Request(URL_, { method: 'GET', headers: headersOf(sessionId, { accept: 'text/event-stream' }) }));
    expect(standalone.status).toBe(200);
    const asked = await b.handleFetch(new Request(URL_, post(sessionId, call(1, 'impatient'))));
    const answer = messagesOf((await readEvents(asked.body, (event) => event.data.includes('"result"'))).events);
    const ping = answer.find((message) => message['method'] === 'ping');
    expect((answer.find((message) => message['id'] === 1)?.['result'] as JsonObject | undefined)?.['content']).toEqual([{ type: 'text', text: 'timed out' }]);
    const { events } = await readEvents(standalone.body, (event) => event.data.includes('notifications/cancelled'));
    const cancelled = messagesOf(events).find((message) => message['method'] === 'notifications/cancelled');
    expect((cancelled?.['params'] as JsonObject | undefined)?.['requestId']).toBe(ping?.['id']);
    expect(taggedInstance(String(ping?.['id']))).toBe('b');
  });

  it('cancels on B a request whose cancellation reaches C', async () => {
    const { a, b, c, aborted } = cluster();
    const sessionId = await openOn(a);
    const waiting = await b.handleFetch(new Request(URL_, post(sessionId, call(7, 'wait'))));
    expect(waiting.status).toBe(200);
    const cancelled = await c.handleFetch(
      new Request(URL_, post(sessionId, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'user' } })),
    );
    expect(cancelled.status).toBe(202);
    await expect.poll(() => aborted).toEqual(['b']);
    // The same request id on A's session copy ran nowhere else: nothing else was aborted.
    expect(a.cluster).toMatchObject({ served: 1 });
  });

  it('ends the session on every instance when a DELETE reaches one of them', async () => {
    const { sessions, bus, a, b, c } = cluster();
    const sessionId = await openOn(a);
    for (const server of [b, c]) expect((await server.handleFetch(new Request(URL_, post(sessionId, call(1, 'whoami'))))).status).toBe(200);
    const deleted = await c.handleFetch(new Request(URL_, { method: 'DELETE', headers: headersOf(sessionId) }));
    expect(deleted.status).toBe(200);
    expect(sessions.get(sessionId)).toBeUndefined();
    for (const server of [a, b, c]) expect((await server.handleFetch(new Request(URL_, post(sessionId, call(2, 'whoami'))))).status).toBe(404);
    // No replica outlives the session: only the instances' own channels stay subscribed.
    expect(bus.channelCount).toBe(3);
  });

  it('keeps the session alive on its owner while only a replica serves it', async () => {
    const { sessions, a, b } = cluster();
    const sessionId = await openOn(a);
    expect((await b.handleFetch(new Request(URL_, post(sessionId, call(1, 'whoami'))))).status).toBe(200);
    // The replica told the owner at its first use: the owner's session and record are there.
    expect(a.sessions.get(sessionId)).toBeDefined();
    expect(sessions.get(sessionId)?.owner).toBe('a');
  });

  it("builds no replica for another principal's request: 404, as on the owner", async () => {
    const { a, b } = cluster(true);
    const sessionId = await openOn(a, { 'x-user': 'alice' });
    const stranger = await b.handleFetch(new Request(URL_, post(sessionId, call(1, 'whoami'), { 'x-user': 'mallory' })));
    expect(stranger.status).toBe(404);
    expect(b.cluster?.replicas).toBe(0);
    const owner = await b.handleFetch(new Request(URL_, post(sessionId, call(2, 'whoami'), { 'x-user': 'alice' })));
    expect(await resultText(owner, 2)).toBe('b');
    // The replica exists now; it still refuses the other principal.
    expect((await b.handleFetch(new Request(URL_, post(sessionId, call(3, 'whoami'), { 'x-user': 'mallory' })))).status).toBe(404);
  });
});
