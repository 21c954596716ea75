import { ErrorCode, NoReturnChannelError, type JsonObject, type TransportSink } from '@statemcp/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryEventStore } from './event-store.js';
import { createStreamableHttpServer } from './streamable-http-server.js';
import type { StreamableHttpServer, StreamableHttpServerOptions } from './server-options.js';
import type { StreamableHttpSessionTransport } from './session-transport.js';
import { ACCEPT_BOTH, createServerSession, delay, initializeBody, messagesOf, postInit, readEvents, type ToolHandler } from './test-support.js';

const BASE = 'http://localhost:3000/mcp';
const servers: StreamableHttpServer[] = [];

function make(options: Partial<StreamableHttpServerOptions> = {}, tools: Record<string, ToolHandler> = {}) {
  const transports: StreamableHttpSessionTransport[] = [];
  const server = createStreamableHttpServer({
    connect: async (transport) => {
      transports.push(transport);
      await createServerSession(transport, tools).connect(transport);
    },
    keepAliveIntervalMs: 0,
    ...options,
  });
  servers.push(server);
  const call = (init: RequestInit, path = '/mcp', headers: Record<string, string> = {}) =>
    server.handleFetch(new Request(`http://localhost:3000${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } }));
  /** initialize + initialized; returns the session id. */
  const open = async (version = '2025-11-25'): Promise<string> => {
    const response = await call(postInit(initializeBody(version)));
    expect(response.status).toBe(200);
    const sessionId = response.headers.get('mcp-session-id');
    expect(sessionId).toBeTruthy();
    const ack = await call(postInit({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': sessionId ?? '', 'mcp-protocol-version': version }));
    expect(ack.status).toBe(202);
    return sessionId ?? '';
  };
  const post = (sessionId: string, body: unknown, version = '2025-11-25') =>
    call(postInit(body, { 'mcp-session-id': sessionId, 'mcp-protocol-version': version }));
  return { server, call, open, post, transports };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('createStreamableHttpServer', () => {
  describe('#handleFetch POST', () => {
    it('mints a session id only on a successful initialize answered as JSON', async () => {
      const { call } = make();
      const response = await call(postInit(initializeBody()));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      const id = response.headers.get('mcp-session-id') ?? '';
      expect(id).toMatch(/^[\x21-\x7e]+$/);
      const body = (await response.json()) as JsonObject;
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25' } });
    });

    it('answers a request on an SSE stream with the response and ends the stream', async () => {
      const { open, post } = make({ enableJsonResponse: false });
      const sessionId = await open();
      const response = await post(sessionId, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('x-accel-buffering')).toBe('no');
      const { events, ended } = await readEvents(response.body);
      expect(ended).toBe(true);
      expect(messagesOf(events)).toEqual([{ jsonrpc: '2.0', id: 1, result: { tools: [] } }]);
    });

    it('returns the response as the HTTP body in JSON response mode', async () => {
      const { open, post } = make({ enableJsonResponse: true });
      const sessionId = await open();
      const response = await post(sessionId, { jsonrpc: '2.0', id: 7, method: 'ping' });
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    });

    it('answers 406, 415, 400 (-32700), 400 (-32600) for bad Accept, Content-Type, JSON and envelopes', async () => {
      const { call, open, post } = make();
      const sessionId = await open();
      const notAcceptable = await call({ method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: '{}' });
      expect(notAcceptable.status).toBe(406);
      const wrongType = await call({ method: 'POST', headers: { accept: ACCEPT_BOTH, 'content-type': 'text/plain' }, body: '{}' });
      expect(wrongType.status).toBe(415);
      const badJson = await call({ method: 'POST', headers: { accept: ACCEPT_BOTH, 'content-type': 'application/json' }, body: '{nope' });
      expect(badJson.status).toBe(400);
      expect(await badJson.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError } });
      const invalid = await post(sessionId, { jsonrpc: '1.0', id: 3, method: 'ping' });
      expect(invalid.status).toBe(400);
      expect(await invalid.json()).toMatchObject({ id: 3, error: { code: ErrorCode.InvalidRequest } });
      const unreadableId = await post(sessionId, { jsonrpc: '2.0', id: 1.5, method: 'ping' });
      expect(await unreadableId.json()).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
      const badResponse = await post(sessionId, { jsonrpc: '2.0', id: 4, error: 1.5 });
      expect(badResponse.status).toBe(400);
      expect(await badResponse.json()).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
    });

    it('needs a session id (400) and knows only live ones (404)', async () => {
      const { call } = make();
      const missing = await call(postInit({ jsonrpc: '2.0', id: 1, method: 'ping' }));
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({ id: 1, error: { code: ErrorCode.InvalidRequest } });
      const unknown = await call(postInit({ jsonrpc: '2.0', id: 'x', method: 'ping' }, { 'mcp-session-id': 'nope' }));
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ id: 'x' });
    });

    it('refuses an unsupported MCP-Protocol-Version with 400 and assumes 2025-03-26 when absent', async () => {
      const { call, open } = make({ enableJsonResponse: true });
      const sessionId = await open();
      const bad = await call(postInit({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '1999-01-01' }));
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ id: 1, error: { data: { requested: '1999-01-01' } } });
      const absent = await call(postInit({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': sessionId }));
      expect(absent.status).toBe(200);
    });

    it('accepts a batch only in a 2025-03-26 session, and never an initialize inside one', async () => {
      const { open, post, call } = make({ enableJsonResponse: true });
      const old = await open('2025-03-26');
      const batch = [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'x', progress: 1 } },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ];
      const accepted = await post(old, batch, '2025-03-26');
      expect(accepted.status).toBe(200);
      expect(await accepted.json()).toEqual([
        { jsonrpc: '2.0', id: 1, result: {} },
        { jsonrpc: '2.0', id: 2, result: { tools: [] } },
      ]);
      const modern = await open('2025-06-18');
      const refused = await post(modern, batch, '2025-06-18');
      expect(refused.status).toBe(400);
      const withInit = await call(postInit([initializeBody('2025-03-26')]));
      expect(withInit.status).toBe(400);
    });

    it('answers 202 with no body to notifications and responses', async () => {
      const { open, post } = make();
      const sessionId = await open();
      const response = await post(sessionId, { jsonrpc: '2.0', id: 'srv-1', result: {} });
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('');
    });

    it('accepts several concurrent POST streams in one session, each answered on its own stream', async () => {
      const { open, post } = make({ enableJsonResponse: false }, { slow: async () => (await delay(20), { content: [] }) });
      const sessionId = await open();
      const responses = await Promise.all(
        [1, 2, 3].map((id) => post(sessionId, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: {} } })),
      );
      const bodies = await Promise.all(responses.map(async (r) => messagesOf((await readEvents(r.body)).events)));
      expect(bodies.map((messages) => messages.map((m) => m.id))).toEqual([[1], [2], [3]]);
    });
  });

  describe('#handleFetch with a body a framework already parsed', () => {
    it('uses the parsed value instead of the unread stream', async () => {
      const { server } = make();
      const request = new Request(BASE, { method: 'POST', headers: { accept: ACCEPT_BOTH, 'content-type': 'application/json' }, body: 'not json' });
      const response = await server.handleFetch(request, { parsedBody: initializeBody() });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeTruthy();
    });

    it('still applies the body limit (by Content-Length) and the Content-Type check', async () => {
      const { server } = make({ maxBodyBytes: 100 });
      const headers = { accept: ACCEPT_BOTH, 'content-type': 'application/json', 'content-length': '5000' };
      const tooLarge = await server.handleFetch(new Request(BASE, { method: 'POST', headers }), { parsedBody: initializeBody() });
      expect(tooLarge.status).toBe(413);
      const wrongType = await server.handleFetch(new Request(BASE, { method: 'POST', headers: { accept: ACCEPT_BOTH, 'content-type': 'text/plain' } }), {
        parsedBody: initializeBody(),
      });
      expect(wrongType.status).toBe(415);
    });

    it('parses a body a framework read as text, answering -32700 when it is not JSON', async () => {
      const { server } = make();
      const request = new Request(BASE, { method: 'POST', headers: { accept: ACCEPT_BOTH, 'content-type': 'application/json' } });
      const response = await server.handleFetch(request, { parsedBody: '{"jsonrpc":' });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: ErrorCode.ParseError } });
    });
  });

  describe('#handleFetch security', () => {
    it('refuses a foreign Host or Origin with 403 and a JSON-RPC error with "id": null, with zero configuration', async () => {
      const { server } = make();
      const foreignHost = await server.handleFetch(new Request('http://evil.example:3000/mcp', postInit(initializeBody())));
      expect(foreignHost.status).toBe(403);
      const body = (await foreignHost.json()) as JsonObject;
      expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) as number } });
      expect(body.id).toBeNull();
      const foreignOrigin = await server.handleFetch(new Request(BASE, postInit(initializeBody(), { origin: 'http://evil.example' })));
      expect(foreignOrigin.status).toBe(403);
      const local = await server.handleFetch(new Request(BASE, postInit(initializeBody(), { origin: 'http://localhost:5173' })));
      expect(local.status).toBe(200);
    });

    it('accepts only the address itself as Host for a fetch request that arrived on a public localAddress, as for a node request', async () => {
      const { server } = make();
      const foreign = new Request('http://mcp.example.com/mcp', postInit(initializeBody()));
      expect((await server.handleFetch(foreign.clone(), { localAddress: '127.0.0.1' })).status).toBe(403);
      const refused = await server.handleFetch(foreign, { localAddress: '192.0.2.10' });
      expect(refused.status).toBe(403);
      expect(await refused.text()).toMatch(/no allowedHosts/);
      const byAddress = new Request('http://192.0.2.10:3000/mcp', postInit(initializeBody()));
      expect((await server.handleFetch(byAddress, { localAddress: '::ffff:192.0.2.10' })).status).toBe(200);
    });

    it('serves configured hosts', async () => {
      const { server } = make({ allowedHosts: ['mcp.example.com'] });
      const response = await server.handleFetch(new Request('https://mcp.example.com/mcp', postInit(initializeBody())));
      expect(response.status).toBe(200);
    });

    it('runs authenticate before the session and passes authInfo to handlers', async () => {
      const { call } = make(
        {
          enableJsonResponse: true,
          authenticate: (request) => {
            const token = request.headers.get('authorization');
            if (token === null) return new Response('no token', { status: 401, headers: { 'www-authenticate': 'Bearer' } });
            if (token !== 'Bearer good') throw new Error('bad token');
            return { user: 'ada' };
          },
        },
        { whoami: (_args, context) => ({ content: [{ type: 'text', text: JSON.stringify(context.authInfo) }] }) },
      );
      const missing = await call(postInit(initializeBody()));
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer');
      expect((await call(postInit(initializeBody(), { authorization: 'Bearer bad' }))).status).toBe(401);
      const auth = { authorization: 'Bearer good', 'mcp-protocol-version': '2025-11-25' };
      const ok = await call(postInit(initializeBody(), auth));
      expect(ok.status).toBe(200);
      const session = { ...auth, 'mcp-session-id': ok.headers.get('mcp-session-id') ?? '' };
      await call(postInit({ jsonrpc: '2.0', method: 'notifications/initialized' }, session));
      const who = await call(postInit({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } }, session));
      expect(await who.json()).toMatchObject({ result: { content: [{ text: '{"user":"ada"}' }] } });
    });

    it('refuses bodies over the limit with 413', async () => {
      const { call } = make({ maxBodyBytes: 1024 });
      const response = await call({ method: 'POST', headers: { accept: ACCEPT_BOTH, 'content-type': 'application/json' }, body: JSON.stringify({ pad: 'x'.repeat(2000) }) });
      expect(response.status).toBe(413);
    });

    it('refuses new sessions beyond maxSessions with 503', async () => {
      const { call, open } = make({ maxSessions: 1 });
      await open();
      const refused = await call(postInit(initializeBody()));
      expect(refused.status).toBe(503);
    });
  });

  describe('#handleFetch GET and DELETE', () => {
    it('delivers unrelated server messages on the standalone stream, queued until it opens; a second GET gets 409', async () => {
      const { open, call, transports } = make();
      const sessionId = await open();
      const transport = transports[0];
      await transport?.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      const headers = { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
      const get = await call({ method: 'GET', headers });
      expect(get.status).toBe(200);
      const second = await call({ method: 'GET', headers });
      expect(second.status).toBe(409);
      await transport?.send({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
      const { events } = await readEvents(get.body, (_event, all) => messagesOf(all).length === 2);
      expect(messagesOf(events).map((m) => m.method)).toEqual(['notifications/tools/list_changed', 'notifications/resources/list_changed']);
    });

    it('terminates a session on DELETE (close → onClose once) and answers 404 afterwards', async () => {
      const closes: unknown[] = [];
      const server = createStreamableHttpServer({
        keepAliveIntervalMs: 0,
        connect: async (transport) => {
          const session = createServerSession(transport);
          await session.connect(transport);
          void session.closed.then((info) => closes.push(info.reason));
        },
      });
      servers.push(server);
      const init = await server.handleFetch(new Request(BASE, postInit(initializeBody())));
      const sessionId = init.headers.get('mcp-session-id') ?? '';
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
      expect((await server.handleFetch(new Request(BASE, { method: 'DELETE', headers }))).status).toBe(200);
      expect((await server.handleFetch(new Request(BASE, postInit({ jsonrpc: '2.0', id: 1, method: 'ping' }, headers)))).status).toBe(404);
      expect((await server.handleFetch(new Request(BASE, { method: 'DELETE', headers }))).status).toBe(404);
      await delay(10);
      expect(closes).toHaveLength(1);
      expect(server.sessions.size).toBe(0);
    });
  });

  describe('resumability', () => {
    it('replays only the cut stream after Last-Event-ID, then continues live, with nothing lost or duplicated', async () => {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const { open, post, call } = make(
        { eventStore: new InMemoryEventStore() },
        {
          count: async (_args, context) => {
            for (let i = 1; i <= 3; i++) await context.sendNotification('notifications/message', { level: 'info', data: `step ${i}` });
            await gate;
            for (let i = 4; i <= 5; i++) await context.sendNotification('notifications/message', { level: 'info', data: `step ${i}` });
            return { content: [{ type: 'text', text: 'done' }] };
          },
        },
      );
      const sessionId = await open();
      const response = await post(sessionId, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'count', arguments: {} } });
      // Read the priming event and two messages, then cut the connection.
      const first = await readEvents(response.body, (_e, all) => messagesOf(all).length === 2);
      expect(first.events[0]).toMatchObject({ data: '', retry: 1000 });
      const lastId = first.events.at(-1)?.id ?? '';
      await delay(5);
      const resumed = await call({
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', 'last-event-id': lastId },
      });
      expect(resumed.status).toBe(200);
      release();
      const rest = await readEvents(resumed.body);
      const all = [...messagesOf(first.events), ...messagesOf(rest.events)];
      expect(all.map((m) => (m.params as JsonObject | undefined)?.data ?? 'result')).toEqual(['step 1', 'step 2', 'step 3', 'step 4', 'step 5', 'result']);
      const ids = [...first.events, ...rest.events].map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('lets a handler close its request stream (polling); the result arrives on GET with Last-Event-ID', async () => {
      const { open, post, call } = make(
        { eventStore: new InMemoryEventStore(), retryIntervalMs: 50 },
        {
          test_reconnection: async (_args, context, transport) => {
            expect(transport.closeRequestStream(context.requestId)).toBe(true);
            await delay(30);
            return { content: [{ type: 'text', text: 'reconnected' }] };
          },
        },
      );
      const sessionId = await open();
      const response = await post(sessionId, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'test_reconnection', arguments: {} } });
      const cut = await readEvents(response.body);
      expect(cut.ended).toBe(true);
      expect(cut.events[0]).toMatchObject({ data: '', retry: 50 });
      expect(messagesOf(cut.events)).toEqual([]);
      await delay(60);
      const resumed = await call({
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'last-event-id': cut.events[0]?.id ?? '' },
      });
      const { events, ended } = await readEvents(resumed.body);
      expect(ended).toBe(true);
      expect(messagesOf(events)).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'reconnected' }] } }]);
    });

    it('refuses a Last-Event-ID of another session', async () => {
      const { open, post, call } = make({ eventStore: new InMemoryEventStore() });
      const a = await open();
      const b = await open();
      const response = await post(a, { jsonrpc: '2.0', id: 1, method: 'ping' });
      const { events } = await readEvents(response.body);
      const foreign = await call({
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': b, 'last-event-id': events[0]?.id ?? '' },
      });
      expect(foreign.status).toBe(400);
    });
  });

  describe('stateless mode', () => {
    function statelessServer(options: Partial<StreamableHttpServerOptions> = {}) {
      const outcomes: unknown[] = [];
      const server = createStreamableHttpServer({
        stateless: true,
        keepAliveIntervalMs: 0,
        connect: async (transport) => {
          const sink: TransportSink = {
            onMessage: (value) => {
              const message = value as JsonObject;
              if (message.id === undefined) return;
              void transport
                .send({ jsonrpc: '2.0', id: 's1', method: 'sampling/createMessage', params: {} })
                .catch((error: unknown) => outcomes.push(error))
                .then(() => transport.send({ jsonrpc: '2.0', id: message.id as number, result: { echoed: message.method } }));
            },
            onClose: () => outcomes.push('closed'),
          };
          await transport.start(sink);
        },
        ...options,
      });
      servers.push(server);
      return { server, outcomes };
    }

    it('answers GET and DELETE with 405', async () => {
      const { server } = statelessServer();
      expect((await server.handleFetch(new Request(BASE, { method: 'GET', headers: { accept: 'text/event-stream' } }))).status).toBe(405);
      expect((await server.handleFetch(new Request(BASE, { method: 'DELETE' }))).status).toBe(405);
    });

    it('serves each request with a fresh transport that cannot send requests and closes after the reply', async () => {
      const { server, outcomes } = statelessServer({ enableJsonResponse: true });
      const response = await server.handleFetch(new Request(BASE, postInit({ jsonrpc: '2.0', id: 4, method: 'tools/list' })));
      expect(response.headers.get('mcp-session-id')).toBeNull();
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 4, result: { echoed: 'tools/list' } });
      await delay(1);
      expect(outcomes[0]).toBeInstanceOf(NoReturnChannelError);
      expect(outcomes[1]).toBe('closed');
      expect(server.sessions.size).toBe(0);
    });
  });

  describe('dual-era routing', () => {
    it('serves a request of a supported modern revision statelessly beside sessions, and refuses GET for it with 405', async () => {
      const seen: { stateless: boolean; version: string | undefined }[] = [];
      const server = createStreamableHttpServer({
        keepAliveIntervalMs: 0,
        enableJsonResponse: true,
        supportedProtocolVersions: ['2025-11-25', '2026-07-28'],
        connect: async (transport) => {
          seen.push({ stateless: transport.stateless, version: transport.requestProtocolVersion });
          if (!transport.stateless) {
            await createServerSession(transport).connect(transport);
            return;
          }
          await transport.start({
            onMessage: (value) => void transport.send({ jsonrpc: '2.0', id: (value as { id: number }).id, result: { resultType: 'complete' } }),
            onClose: () => undefined,
          });
        },
      });
      servers.push(server);
      const modern = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
      const response = await server.handleFetch(new Request(BASE, postInit({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, modern)));
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } });
      expect(response.headers.get('mcp-session-id')).toBeNull();
      const legacy = await server.handleFetch(new Request(BASE, postInit(initializeBody('2025-11-25'))));
      expect(legacy.headers.get('mcp-session-id')).toBeTruthy();
      expect(seen).toEqual([
        { stateless: true, version: '2026-07-28' },
        { stateless: false, version: undefined },
      ]);
      const get = await server.handleFetch(new Request(BASE, { method: 'GET', headers: { accept: 'text/event-stream', ...modern } }));
      expect(get.status).toBe(405);
      expect(server.sessions.size).toBe(1);
    });
  });

  describe('legacy HTTP+SSE', () => {
    it('sends the endpoint event first, takes POSTs with 202 and answers on the stream as message events', async () => {
      const { call } = make({ legacySse: true });
      const stream = await call({ method: 'GET', headers: { accept: 'text/event-stream' } }, '/sse');
      expect(stream.status).toBe(200);
      const reader = readEvents(stream.body, (_e, all) => all.length === 2);
      // Wait until the endpoint event is readable, then post.
      await delay(5);
      const sessions = servers.at(-1)?.sessions.ids() ?? [];
      const endpoint = `/messages?sessionId=${sessions[0] ?? ''}`;
      const accepted = await call(postInit(initializeBody('2024-11-05', 1)), endpoint);
      expect(accepted.status).toBe(202);
      const { events } = await reader;
      expect(events[0]).toMatchObject({ event: 'endpoint', data: endpoint });
      expect(events[1]?.event).toBe('message');
      expect(JSON.parse(events[1]?.data ?? '{}')).toMatchObject({ id: 1, result: { protocolVersion: '2024-11-05' } });
      const unknown = await call(postInit({ jsonrpc: '2.0', id: 2, method: 'ping' }), '/messages?sessionId=nope');
      expect(unknown.status).toBe(404);
    });
  });

  describe('#listen outside Node', () => {
    it('rejects with a TypeError naming handleFetch where node:http is absent, and handleFetch still serves', async () => {
      const { server, call } = make();
      vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
      let listening: Promise<unknown>;
      try {
        listening = server.listen();
      } finally {
        vi.unstubAllGlobals();
      }
      await expect(listening).rejects.toThrow(new TypeError('listen() needs node:http; in this runtime serve handleFetch with its own HTTP server'));
      const response = await call(postInit(initializeBody()));
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeTruthy();
    });
  });
});
