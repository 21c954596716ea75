import { SimulatedClock, type InspectEvent, type JsonObject } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from './event-store.js';
import { InMemoryLivenessStore, InMemoryMessageBus, InMemorySessionStore } from './memory-shared-state.js';
import type { StreamableHttpServer } from './server-options.js';
import type { LivenessStore, MessageBus } from './shared-state.js';
import { createStreamableHttpServer } from './streamable-http-server.js';
import { createServerSession, initializeBody, messagesOf, postInit, readEvents } from './test-support.js';

const URL_ = 'http://127.0.0.1/mcp';
const TTL = 1000;
const servers: StreamableHttpServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Lets simulated time pass in small steps, running the promise chains each step starts. */
async function elapse(clock: SimulatedClock, ms: number): Promise<void> {
  for (let passed = 0; passed < ms; passed += 50) {
    clock.advance(50);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Two instances sharing in-memory stores, each reaching the bus and liveness through a switch
 * the test flips: `kill` cuts an instance off as a crash would (its subscriptions vanish, it no
 * longer beats); `hang` leaves it subscribed but silent and no longer beating.
 */
function cluster(replicas = false) {
  const clock = new SimulatedClock(1_000_000);
  const now = (): number => clock.now();
  const sessions = new InMemorySessionStore({ now });
  const liveness = new InMemoryLivenessStore({ now });
  const bus = new InMemoryMessageBus();
  const eventStore = new InMemoryEventStore();
  const silenced = new Set<string>();
  const subscriptions = new Map<string, (() => Promise<void>)[]>();
  const inspected: InspectEvent[] = [];
  const instance = (instanceId: string): StreamableHttpServer => {
    const ownBus: MessageBus = {
      publish: (channel, payload) => bus.publish(channel, payload),
      subscribe: async (channel, handler) => {
        const unsubscribe = await bus.subscribe(channel, (payload) => {
          if (!silenced.has(instanceId)) handler(payload);
        });
        subscriptions.set(instanceId, [...(subscriptions.get(instanceId) ?? []), unsubscribe]);
        return unsubscribe;
      },
    };
    const ownLiveness: LivenessStore = {
      beat: (id, ttl) => (silenced.has(instanceId) ? true : liveness.beat(id, ttl)),
      isAlive: (id) => liveness.isAlive(id),
      forget: (id) => liveness.forget(id),
    };
    const server = createStreamableHttpServer({
      eventStore,
      clock,
      cluster: { instanceId, sessions, bus: ownBus, liveness: ownLiveness, livenessTtlMs: TTL, replicas },
      connect: async (transport) => {
        const session = createServerSession(transport, {
          stream: async (_args, context) => {
            await context.sendNotification('notifications/message', { level: 'info', data: `from ${instanceId}` });
            return new Promise(() => undefined);
          },
          whoami: () => ({ content: [{ type: 'text', text: instanceId }] }),
        }, (event) => inspected.push(event));
        await session.connect(transport);
      },
    });
    servers.push(server);
    return server;
  };
  const a = instance('a');
  const b = instance('b');
  return {
    clock,
    sessions,
    liveness,
    inspected,
    a,
    b,
    kill: async (instanceId: string) => {
      silenced.add(instanceId);
      for (const unsubscribe of subscriptions.get(instanceId) ?? []) await unsubscribe();
    },
    hang: (instanceId: string) => {
      silenced.add(instanceId);
    },
  };
}

const post = (sessionId: string, body: unknown): RequestInit => postInit(body, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' });
const resume = (sessionId: string, lastEventId: string): Request =>
  new Request(URL_, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', 'last-event-id': lastEventId } });

async function openOn(server: StreamableHttpServer): Promise<string> {
  const response = await server.handleFetch(new Request(URL_, postInit(initializeBody())));
  expect(response.status).toBe(200);
  const sessionId = response.headers.get('mcp-session-id') ?? '';
  const initialized = await server.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', method: 'notifications/initialized' })));
  expect(initialized.status).toBe(202);
  return sessionId;
}

describe('cluster failover', () => {
  it('adopts the session of a killed owner on the next request: resume replays once, ends the lost request, the session goes on', async () => {
    const { sessions, a, b, kill } = cluster();
    const sessionId = await openOn(a);
    const call = await a.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'stream' } })));
    const first = await readEvents(call.body, (event) => event.data.includes('from a'));
    const primingId = first.events[0]?.id ?? '';
    expect(primingId).not.toBe('');

    await kill('a');
    // The client lost the stream; it resumes on B from the priming event.
    const resumed = await b.handleFetch(resume(sessionId, primingId));
    expect(resumed.status).toBe(200);
    const replay = await readEvents(resumed.body);
    expect(replay.ended).toBe(true);
    const messages = messagesOf(replay.events);
    expect(messages.map((message) => message['method'] ?? 'reply')).toEqual(['notifications/message', 'reply']);
    expect(messages[1]).toMatchObject({ id: 7, error: { code: -32603, data: { lostInstance: 'a' } } });
    expect((messages[1]?.['error'] as JsonObject)['message']).toContain('instance a');
    expect(sessions.get(sessionId)?.owner).toBe('b');
    expect(b.sessions.ids()).toEqual([sessionId]);

    // Resuming again repeats the same error event, never a second one.
    const again = await readEvents((await b.handleFetch(resume(sessionId, primingId))).body);
    expect(again.events.map((event) => event.id)).toEqual(replay.events.map((event) => event.id));

    const next = await b.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'whoami' } })));
    const answer = messagesOf((await readEvents(next.body)).events).find((message) => message['id'] === 8);
    expect((answer?.['result'] as JsonObject | undefined)?.['content']).toEqual([{ type: 'text', text: 'b' }]);
  });

  it("shows the adoption in the adopter's inspect stream as the sessionAdopted transition into operating", async () => {
    const { a, b, kill, inspected } = cluster();
    const sessionId = await openOn(a);
    await kill('a');
    const listed = await b.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', id: 1, method: 'tools/list' })));
    expect(listed.status).toBe(200);
    const adopted = inspected.filter((event) => event.type === 'session.transition' && event.event === 'sessionAdopted');
    expect(adopted).toEqual([expect.objectContaining({ from: 'uninitialized', to: 'operating' })]);
  });

  it('adopts once when concurrent requests find the owner dead; a later claim from the old owner fails', async () => {
    const { sessions, a, b, kill } = cluster();
    const sessionId = await openOn(a);
    await kill('a');
    const lists = await Promise.all(
      [b, b, b].map((server, index) => server.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', id: index + 1, method: 'tools/list' })))),
    );
    expect(lists.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(sessions.get(sessionId)?.owner).toBe('b');
    expect(sessions.claim(sessionId, 'a', 'c', TTL)).toBeUndefined();
  });

  it('serves a POST whose body arrived while another request adopted the session (a GET reconnect racing the next call)', async () => {
    const { sessions, a, b, kill } = cluster();
    const sessionId = await openOn(a);
    await kill('a');
    // The POST's body comes in only once another request has adopted the session on B: the POST
    // found no session here when it arrived, and the session's record names B when it is read.
    let send!: (body: string) => void;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        send = (text) => {
          controller.enqueue(new TextEncoder().encode(text));
          controller.close();
        };
      },
    });
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    const call = b.handleFetch(new Request(URL_, { method: 'POST', headers, body, duplex: 'half' }));
    // The client's standalone GET stream reconnects meanwhile, and adopts the session on B.
    const standalone = await b.handleFetch(new Request(URL_, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } }));
    expect(standalone.status).toBe(200);
    expect(sessions.get(sessionId)?.owner).toBe('b');

    send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami' } }));
    const answered = await call;
    expect(answered.status).toBe(200);
    const answer = messagesOf((await readEvents(answered.body)).events).find((message) => message['id'] === 2);
    expect((answer?.['result'] as JsonObject | undefined)?.['content']).toEqual([{ type: 'text', text: 'b' }]);
    expect(b.sessions.ids()).toEqual([sessionId]);
    await standalone.body?.cancel();
  });

  it('ends a request relayed to an owner that hangs with a 502 naming it once its liveness expires, then adopts the session', async () => {
    const { clock, a, b, hang } = cluster();
    const sessionId = await openOn(a);
    await elapse(clock, 200);
    hang('a');
    const pending = b.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', id: 1, method: 'tools/list' })));
    await elapse(clock, 3 * TTL);
    const relayed = await pending;
    expect(relayed.status).toBe(502);
    const body = (await relayed.json()) as { error: { code: number; message: string; data: unknown } };
    expect(body.error).toMatchObject({ code: -32603, data: { lostInstance: 'a' } });
    // A is known dead now: the next request adopts instead of relaying into the void.
    const next = await b.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', id: 2, method: 'tools/list' })));
    expect(next.status).toBe(200);
    expect(b.sessions.ids()).toEqual([sessionId]);
  });

  it('with replicas: a replica serves on after its owner died, the next relayed message adopts the session, and its end ends the replica', async () => {
    const { a, b, kill, sessions } = cluster(true);
    const sessionId = await openOn(a);
    const whoami = async (id: number): Promise<Response> => b.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'whoami' } })));
    expect((await whoami(1)).status).toBe(200);
    expect(b.cluster).toMatchObject({ replicas: 1, adopted: 0 });
    await kill('a');
    // Requests need no owner: the replica serves them.
    const served = await whoami(2);
    expect(messagesOf((await readEvents(served.body, (event) => event.data.includes('"result"'))).events).find((message) => message['id'] === 2)?.['result']).toMatchObject({
      content: [{ type: 'text', text: 'b' }],
    });
    expect(sessions.get(sessionId)?.owner).toBe('a');
    // A notification goes to the owner: nobody answers, so B adopts the session and delivers it.
    const notified = await b.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' })));
    expect(notified.status).toBe(202);
    expect(sessions.get(sessionId)?.owner).toBe('b');
    expect(b.cluster).toMatchObject({ adopted: 1 });
    const deleted = await b.handleFetch(new Request(URL_, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } }));
    expect(deleted.status).toBe(200);
    expect((await whoami(3)).status).toBe(404);
  });
});
