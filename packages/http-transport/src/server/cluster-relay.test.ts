import { SimulatedClock, type JsonObject } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from './event-store.js';
import { InMemoryMessageBus, InMemorySessionStore } from './memory-shared-state.js';
import type { StreamableHttpServer } from './server-options.js';
import type { SessionStore } from './shared-state.js';
import { sessionPrincipal } from './session-principal.js';
import { createStreamableHttpServer } from './streamable-http-server.js';
import { ACCEPT_BOTH, answerMessages, createServerSession, initializeBody, messagesOf, postInit, readEvents } from './test-support.js';

const URL_ = 'http://127.0.0.1/mcp';
const servers: StreamableHttpServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Two instances of one server sharing the session store, the bus and the event store, as in a cluster. */
function cluster() {
  const sessions = new InMemorySessionStore();
  const bus = new InMemoryMessageBus();
  const eventStore = new InMemoryEventStore();
  const instance = (instanceId: string): StreamableHttpServer => {
    const server = createStreamableHttpServer({
      eventStore,
      cluster: { instanceId, sessions, bus },
      connect: async (transport) => {
        const session = createServerSession(transport, {
          ask: async (_args, context) => {
            await context.sendRequest('ping');
            return { content: [{ type: 'text', text: `pong received by ${instanceId}` }] };
          },
        });
        await session.connect(transport);
      },
    });
    servers.push(server);
    return server;
  };
  return { sessions, bus, a: instance('a'), b: instance('b') };
}

const post = (sessionId: string, body: unknown, extra: Record<string, string> = {}): RequestInit =>
  postInit(body, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', ...extra });

async function openOn(server: StreamableHttpServer): Promise<string> {
  const response = await server.handleFetch(new Request(URL_, postInit(initializeBody())));
  expect(response.status).toBe(200);
  const sessionId = response.headers.get('mcp-session-id') ?? '';
  expect(sessionId).not.toBe('');
  return sessionId;
}

describe('cluster relay', () => {
  it('serves a session opened on A from B: POST, a server-to-client request answered on B, resume, DELETE', async () => {
    const { sessions, bus, a, b } = cluster();
    const sessionId = await openOn(a);
    expect(sessions.get(sessionId)).toMatchObject({ sessionId, owner: 'a', protocolVersion: '2025-11-25', clientCapabilities: {} });
    expect(a.sessions.size).toBe(1);
    expect(b.sessions.size).toBe(0);

    const initialized = await b.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', method: 'notifications/initialized' })));
    expect(initialized.status).toBe(202);

    const call = await b.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask' } })));
    expect(call.status).toBe(200);
    expect(call.headers.get('content-type')).toContain('text/event-stream');
    const reader = call.body;
    const first = await readEvents(reader, (event) => event.data.includes('"ping"'));
    const ping = messagesOf(first.events).find((message) => message['method'] === 'ping');
    expect(ping).toBeDefined();
    const pingEventId = first.events.find((event) => event.data.includes('"ping"'))?.id ?? '';

    // The client's answer goes to B; the request waiting on A completes.
    const answered = await b.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', id: ping?.['id'] as number, result: {} })));
    expect(answered.status).toBe(202);

    // The client lost the stream: it resumes on B from the ping's event id and gets A's result.
    const resumed = await b.handleFetch(
      new Request(URL_, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', 'last-event-id': pingEventId } }),
    );
    expect(resumed.status).toBe(200);
    const rest = await readEvents(resumed.body, (event) => event.data.includes('"result"'));
    const result = messagesOf(rest.events).find((message) => message['id'] === 1);
    expect((result?.['result'] as JsonObject | undefined)?.['content']).toEqual([{ type: 'text', text: 'pong received by a' }]);

    const deleted = await b.handleFetch(new Request(URL_, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } }));
    expect(deleted.status).toBe(200);
    expect(a.sessions.size).toBe(0);
    expect(sessions.get(sessionId)).toBeUndefined();
    // Only the two instances' own channels stay subscribed: no session or relay channel is left.
    expect(bus.channelCount).toBe(2);
    expect(b.cluster).toMatchObject({ relayed: 5, served: 0, adopted: 0 });
    expect(a.cluster).toMatchObject({ relayed: 0, served: 5, adopted: 0 });
    for (const server of [a, b]) {
      const after = await server.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', id: 2, method: 'tools/list' })));
      expect(after.status).toBe(404);
    }
  });

  it('answers a DELETE once the shared record is gone, and ends the relay even when the record cannot be deleted', async () => {
    const { SharedStoreUnavailableError } = await import('./shared-state.js');
    const memory = new InMemorySessionStore();
    const bus = new InMemoryMessageBus();
    const errors: unknown[] = [];
    // The store's delete waits for the test (a slow Redis), then succeeds or fails as set.
    let deleteCalled: () => void = () => undefined;
    let release: (outcome: 'delete' | 'fail') => void = () => undefined;
    const nextDelete = (): Promise<void> => new Promise<void>((resolve) => (deleteCalled = resolve));
    const sessions: SessionStore = {
      put: (record, ttlMs) => memory.put(record, ttlMs),
      get: (sessionId) => memory.get(sessionId),
      touch: (sessionId, ttlMs) => memory.touch(sessionId, ttlMs),
      delete: (sessionId) => {
        deleteCalled();
        return new Promise<boolean>((resolve, reject) => {
          release = (outcome) => (outcome === 'delete' ? resolve(memory.delete(sessionId)) : reject(new SharedStoreUnavailableError('sessions', 'down')));
        });
      },
    };
    const instance = (instanceId: string): StreamableHttpServer => {
      const server = createStreamableHttpServer({
        cluster: { instanceId, sessions, bus },
        onError: (error) => errors.push(error),
        connect: (transport) => createServerSession(transport).connect(transport),
      });
      servers.push(server);
      return server;
    };
    const a = instance('a');
    const b = instance('b');
    const deleteOn = (server: StreamableHttpServer, sessionId: string): Promise<Response> =>
      server.handleFetch(new Request(URL_, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } }));

    // Relayed from B: A's answer waits for the record's deletion.
    const first = await openOn(a);
    let called = nextDelete();
    let answered = false;
    const deleted = deleteOn(b, first).then((response) => {
      answered = true;
      return response;
    });
    await called;
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    expect(memory.get(first)).toBeDefined();
    release('delete');
    expect((await deleted).status).toBe(200);
    expect(memory.get(first)).toBeUndefined();

    // A store that cannot delete: the DELETE still ends the session (200), the error is reported,
    // and no subscription for the session is left behind.
    const second = await openOn(a);
    called = nextDelete();
    const refused = deleteOn(a, second);
    await called;
    release('fail');
    expect((await refused).status).toBe(200);
    expect(errors).toEqual([expect.any(SharedStoreUnavailableError)]);
    expect(a.sessions.size).toBe(0);
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(bus.channelCount).toBe(2);
  });

  it('writes a relayed answer that arrived whole with its length, in one piece', async () => {
    const { a, b } = cluster();
    const sessionId = await openOn(a);
    const listening = await b.listen();
    try {
      const response = await fetch(listening.url, post(sessionId, { jsonrpc: '2.0', id: 1, method: 'tools/list' }));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      // Head, priming event, answer and end came in one message: no chunked encoding on the way out.
      expect(response.headers.get('transfer-encoding')).toBeNull();
      const text = await response.text();
      expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
      const events = await readEvents(new Response(text).body);
      expect(messagesOf(events.events).find((message) => message['id'] === 1)?.['result']).toMatchObject({ tools: [{ name: 'ask' }] });
      expect(b.cluster).toMatchObject({ relayed: 1 });
      expect(a.cluster).toMatchObject({ served: 1 });
    } finally {
      await listening.close();
    }
  });

  it('serves a 2026-07-28 request where it arrives, even naming a session another instance runs', async () => {
    const { a, b } = cluster();
    const sessionId = await openOn(a);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
    const headers = { accept: ACCEPT_BOTH, 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list', 'mcp-session-id': sessionId };
    const response = await b.handleFetch(new Request(URL_, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }) }));
    expect(response.status).toBe(200);
    expect((await answerMessages(response)).find((message) => message['id'] === 1)?.['result']).toMatchObject({ tools: [{ name: 'ask' }] });
    expect(b.cluster).toMatchObject({ relayed: 0, served: 0 });
    expect(a.cluster).toMatchObject({ relayed: 0, served: 0 });
  });

  it('answers 404 on every instance for a session no instance runs', async () => {
    const { a, b } = cluster();
    for (const server of [a, b]) {
      const response = await server.handleFetch(new Request(URL_, post('unknown', { jsonrpc: '2.0', id: 1, method: 'tools/list' })));
      expect(response.status).toBe(404);
    }
  });

  it('answers 503 with a typed cause while the shared session store is unreachable', async () => {
    const errors: unknown[] = [];
    const { SharedStoreUnavailableError } = await import('./shared-state.js');
    const server = createStreamableHttpServer({
      cluster: {
        instanceId: 'a',
        bus: new InMemoryMessageBus(),
        sessions: {
          put: () => Promise.reject(new SharedStoreUnavailableError('sessions', 'down')),
          get: () => Promise.reject(new SharedStoreUnavailableError('sessions', 'down')),
          touch: () => false,
          delete: () => false,
        },
      },
      onError: (error) => errors.push(error),
      connect: (transport) => createServerSession(transport).connect(transport),
    });
    servers.push(server);
    const opened = await server.handleFetch(new Request(URL_, postInit(initializeBody())));
    expect(opened.status).toBe(503);
    expect(server.sessions.size).toBe(0);
    const used = await server.handleFetch(new Request(URL_, post('elsewhere', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: ACCEPT_BOTH })));
    expect(used.status).toBe(503);
    expect(errors.every((error) => error instanceof SharedStoreUnavailableError)).toBe(true);
    expect(errors).toHaveLength(2);
  });

  it('neither relays nor adopts a session for another principal: 404, and the record keeps its owner', async () => {
    const sessions = new InMemorySessionStore();
    const bus = new InMemoryMessageBus();
    const server = createStreamableHttpServer({
      cluster: { instanceId: 'b', sessions, bus },
      authenticate: (request) => ({ user: request.headers.get('x-user') }),
      connect: (transport) => createServerSession(transport).connect(transport),
    });
    servers.push(server);
    // A session of alice whose owner died: nobody serves its channel any more.
    const record = { sessionId: 'orphan', protocolVersion: '2025-11-25', clientCapabilities: {}, principal: await sessionPrincipal({ user: 'alice' }), owner: 'dead', expiresAt: 0 };
    sessions.put(record, 60_000);
    const call = (user: string): Promise<Response> =>
      server.handleFetch(new Request(URL_, post('orphan', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: ACCEPT_BOTH, 'x-user': user })));
    const foreign = await call('bob');
    expect(foreign.status).toBe(404);
    expect(sessions.get('orphan')?.owner).toBe('dead');
    expect(server.sessions.size).toBe(0);
    const own = await call('alice');
    expect(own.status).toBe(200);
    expect(sessions.get('orphan')?.owner).toBe('b');
  });

  describe('#touch', () => {
    /** One instance whose session store records the time to live of every `put` and `touch`. */
    function counted(recordRefresh?: 'lazy' | 'every-request') {
      const clock = new SimulatedClock();
      const store = new InMemorySessionStore();
      const writes: string[] = [];
      const sessions: SessionStore = {
        put: (record, ttl) => {
          writes.push(`put ${ttl}`);
          store.put(record, ttl);
        },
        get: (id) => store.get(id),
        touch: (id, ttl) => {
          writes.push(`touch ${ttl}`);
          return store.touch(id, ttl);
        },
        delete: (id) => store.delete(id),
      };
      const server = createStreamableHttpServer({
        clock,
        sessionIdleTimeoutMs: 1000,
        enableJsonResponse: true,
        cluster: { instanceId: 'a', sessions, bus: new InMemoryMessageBus(), ...(recordRefresh === undefined ? {} : { recordRefresh }) },
        connect: (transport) => createServerSession(transport).connect(transport),
      });
      servers.push(server);
      return { clock, server, writes };
    }
    const list = async (server: StreamableHttpServer, sessionId: string): Promise<void> => {
      const response = await server.handleFetch(new Request(URL_, post(sessionId, { jsonrpc: '2.0', id: 1, method: 'tools/list' })));
      expect(response.status).toBe(200);
    };

    it('refreshes the record once half the idle timeout has passed, not on every request', async () => {
      const { clock, server, writes } = counted();
      const sessionId = await openOn(server);
      for (let i = 0; i < 3; i++) await list(server, sessionId);
      clock.advance(499);
      await list(server, sessionId);
      expect(writes).toEqual(['put 1500']);
      clock.advance(1);
      await list(server, sessionId);
      await list(server, sessionId);
      expect(writes).toEqual(['put 1500', 'touch 1500']);
    });

    it('refreshes the record on every request with recordRefresh every-request', async () => {
      const { server, writes } = counted('every-request');
      const sessionId = await openOn(server);
      await list(server, sessionId);
      await list(server, sessionId);
      expect(writes).toEqual(['put 1000', 'touch 1000', 'touch 1000']);
    });
  });
});
