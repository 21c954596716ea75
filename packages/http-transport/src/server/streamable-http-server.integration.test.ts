import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { LEGACY_PROTOCOL_VERSIONS, SimulatedClock, type JsonObject } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from './event-store.js';
import { createStreamableHttpServer } from './streamable-http-server.js';
import type { ListeningServer, StreamableHttpServerOptions } from './server-options.js';
import type { StreamableHttpSessionTransport } from './session-transport.js';
import { ACCEPT_BOTH, answerMessages, createServerSession, delay, initializeBody, messagesOf, postInit, readEvents, type ToolHandler } from './test-support.js';

const running: ListeningServer[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(options: Partial<StreamableHttpServerOptions> = {}, tools: Record<string, ToolHandler> = {}) {
  let closes = 0;
  const mcp = createStreamableHttpServer({
    connect: async (transport) => {
      const session = createServerSession(transport, tools);
      void session.closed.then(() => closes++);
      await session.connect(transport);
    },
    ...options,
  });
  const listening = await mcp.listen();
  running.push(listening);
  return { mcp, listening, url: listening.url.href, closes: () => closes };
}

/** A raw node:http request, so Host can be set freely. */
function raw(url: string, options: { method: string; headers: Record<string, string>; body?: string | Buffer }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

async function handshake(url: string, version = '2025-11-25'): Promise<string> {
  const response = await fetch(url, postInit(initializeBody(version)));
  expect(response.status).toBe(200);
  await response.text();
  const sessionId = response.headers.get('mcp-session-id') ?? '';
  const ack = await fetch(url, postInit({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': version }));
  expect(ack.status).toBe(202);
  return sessionId;
}

describe('createStreamableHttpServer over real sockets', () => {
  describe('secure defaults', () => {
    it('binds 127.0.0.1 and refuses a foreign Host with 403', async () => {
      const { listening, url } = await start();
      expect(listening.url.hostname).toBe('127.0.0.1');
      const foreign = await raw(url, {
        method: 'POST',
        headers: { host: 'evil.example', accept: ACCEPT_BOTH, 'content-type': 'application/json' },
        body: JSON.stringify(initializeBody()),
      });
      expect(foreign.status).toBe(403);
      expect(JSON.parse(foreign.body)).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining('Host') as string } });
      const origin = await raw(url, {
        method: 'POST',
        headers: { origin: 'http://evil.example', accept: ACCEPT_BOTH, 'content-type': 'application/json' },
        body: JSON.stringify(initializeBody()),
      });
      expect(origin.status).toBe(403);
      const local = await raw(url, {
        method: 'POST',
        headers: { host: `localhost:${listening.port}`, accept: ACCEPT_BOTH, 'content-type': 'application/json' },
        body: JSON.stringify(initializeBody()),
      });
      expect(local.status).toBe(200);
    });

    it('refuses a 5 MiB body with 413', async () => {
      const { url } = await start();
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } });
      const response = await fetch(url, { method: 'POST', headers: { accept: ACCEPT_BOTH, 'content-type': 'application/json' }, body });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('Too Large') as string } });
    });

    it('answers 404 for an unknown session and 400 for a missing one', async () => {
      const { url } = await start();
      const unknown = await fetch(url, postInit({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': 'no-such-session' }));
      expect(unknown.status).toBe(404);
      const missing = await fetch(url, postInit({ jsonrpc: '2.0', id: 1, method: 'ping' }));
      expect(missing.status).toBe(400);
    });

    it('writes a JSON answer in one piece with its content length, not chunked', async () => {
      const { url } = await start({ enableJsonResponse: true });
      const sessionId = await handshake(url);
      const ping = await fetch(url, postInit({ jsonrpc: '2.0', id: 7, method: 'ping' }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }));
      const body = await ping.text();
      expect(ping.headers.get('content-type')).toBe('application/json');
      expect(ping.headers.get('transfer-encoding')).toBeNull();
      expect(ping.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
      expect(JSON.parse(body)).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
      const missing = await fetch(url, postInit({ jsonrpc: '2.0', id: 8, method: 'ping' }));
      const error = await missing.text();
      expect(missing.status).toBe(400);
      expect(missing.headers.get('content-length')).toBe(String(Buffer.byteLength(error)));
      expect(JSON.parse(error)).toMatchObject({ id: 8, error: { code: -32600 } });
    });

    it('answers GET and DELETE with 405 in stateless mode', async () => {
      const { url } = await start({ stateless: true });
      expect((await fetch(url, { method: 'GET', headers: { accept: 'text/event-stream' } })).status).toBe(405);
      expect((await fetch(url, { method: 'DELETE' })).status).toBe(405);
    });

    it('terminates on DELETE, then answers 404, and the session closes exactly once', async () => {
      const { url, closes, mcp } = await start();
      const sessionId = await handshake(url);
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
      expect((await fetch(url, { method: 'DELETE', headers })).status).toBe(200);
      expect((await fetch(url, postInit({ jsonrpc: '2.0', id: 1, method: 'ping' }, headers))).status).toBe(404);
      expect((await fetch(url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } })).status).toBe(404);
      await delay(10);
      expect(closes()).toBe(1);
      expect(mcp.sessions.size).toBe(0);
    });
  });

  describe('session reaping', () => {
    it('evicts 1000 abandoned sessions by idle timeout and the heap returns near baseline', async () => {
      const gc = (globalThis as { gc?: () => void }).gc;
      const refs: WeakRef<object>[] = [];
      let closes = 0;
      // Idle time is simulated: however slow the machine, no session idles out while the others
      // are still opening, and every one of them does once the clock is moved past the timeout.
      const clock = new SimulatedClock();
      const mcp = createStreamableHttpServer({
        sessionIdleTimeoutMs: 1000,
        clock,
        connect: async (transport) => {
          const session = createServerSession(transport);
          refs.push(new WeakRef(transport), new WeakRef(session));
          void session.closed.then(() => closes++);
          await session.connect(transport);
        },
      });
      const listening = await mcp.listen();
      running.push(listening);
      const url = listening.url.href;
      const openMany = async (count: number): Promise<void> => {
        for (let batch = 0; batch < count; batch += 50) {
          await Promise.all(Array.from({ length: Math.min(50, count - batch) }, () => handshake(url)));
        }
      };
      const settle = async (): Promise<void> => {
        expect(mcp.sessions.size).toBeGreaterThan(0);
        clock.advance(1001); // past the idle timeout
        clock.advance(1001); // and past the sweep after it
        for (let i = 0; i < 200 && mcp.sessions.size > 0; i++) await delay(50);
        expect(mcp.sessions.size).toBe(0);
        for (let i = 0; i < 3; i++) {
          await delay(20);
          gc?.();
        }
      };
      await openMany(100); // warm up code paths and pools
      await settle();
      const baseline = process.memoryUsage().heapUsed;
      refs.length = 0;
      await openMany(1000);
      expect(mcp.sessions.size).toBe(1000);
      await settle();
      expect(closes).toBe(1100);
      if (gc !== undefined) {
        // Every evicted session's transport and runner has been collected…
        expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
        // …and the heap is back near where it was (generous bound).
        expect(process.memoryUsage().heapUsed - baseline).toBeLessThan(8 * 1024 * 1024);
      }
    });
  });

  describe('resumability', () => {
    it('resumes an SSE stream cut mid-call with Last-Event-ID: nothing lost, nothing duplicated', async () => {
      const { url } = await start(
        { eventStore: new InMemoryEventStore() },
        {
          count: async (_args, context) => {
            for (let i = 1; i <= 10; i++) {
              await context.sendNotification('notifications/message', { level: 'info', data: i });
              await delay(15);
            }
            return { content: [{ type: 'text', text: 'done' }] };
          },
        },
      );
      const sessionId = await handshake(url);
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
      const abort = new AbortController();
      const response = await fetch(url, {
        ...postInit({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'count', arguments: {} } }, headers),
        signal: abort.signal,
      });
      const first = await readEvents(response.body, (_e, all) => messagesOf(all).length === 3);
      abort.abort();
      await delay(40); // the call keeps running while the client is away
      const lastEventId = first.events.at(-1)?.id ?? '';
      const resumed = await fetch(url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastEventId } });
      expect(resumed.status).toBe(200);
      const rest = await readEvents(resumed.body);
      expect(rest.ended).toBe(true);
      const all = [...messagesOf(first.events), ...messagesOf(rest.events)];
      expect(all.map((m) => (m.params as JsonObject | undefined)?.data ?? 'result')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 'result']);
      const ids = [...first.events, ...rest.events].map((event) => event.id);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('serves SSE polling: priming event with retry, stream closed mid-call, result on GET with Last-Event-ID', async () => {
      const { url } = await start(
        { eventStore: new InMemoryEventStore() },
        {
          test_reconnection: async (_args, context, transport) => {
            transport.closeRequestStream(context.requestId);
            await delay(100);
            return { content: [{ type: 'text', text: 'Reconnection test completed' }] };
          },
        },
      );
      const sessionId = await handshake(url);
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
      const response = await fetch(url, postInit({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'test_reconnection', arguments: {} } }, headers));
      expect(response.headers.get('content-type')).toBe('text/event-stream');
      const cut = await readEvents(response.body);
      expect(cut.ended).toBe(true);
      expect(cut.events[0]).toMatchObject({ data: '', retry: 1000 });
      expect(cut.events[0]?.id).toBeTruthy();
      const resumed = await fetch(url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream', 'last-event-id': cut.events[0]?.id ?? '' } });
      const { events } = await readEvents(resumed.body);
      expect(messagesOf(events)).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'Reconnection test completed' }] } }]);
    });
  });

  describe('standalone stream', () => {
    it('resumes a cut GET stream with Last-Event-ID: messages sent meanwhile arrive once', async () => {
      const transports: StreamableHttpSessionTransport[] = [];
      const mcp = createStreamableHttpServer({
        eventStore: new InMemoryEventStore(),
        connect: async (transport) => {
          transports.push(transport);
          await createServerSession(transport).connect(transport);
        },
      });
      const listening = await mcp.listen();
      running.push(listening);
      const url = listening.url.href;
      const sessionId = await handshake(url);
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', accept: 'text/event-stream' };
      const transport = transports[0];
      const note = (n: number) => transport?.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } });
      const abort = new AbortController();
      const get = await fetch(url, { method: 'GET', headers, signal: abort.signal });
      await note(1);
      const first = await readEvents(get.body, (_e, all) => messagesOf(all).length === 1);
      abort.abort();
      await delay(30);
      await note(2);
      await note(3);
      const resumed = await fetch(url, { method: 'GET', headers: { ...headers, 'last-event-id': first.events.at(-1)?.id ?? '' } });
      expect(resumed.status).toBe(200);
      await note(4);
      const rest = await readEvents(resumed.body, (_e, all) => messagesOf(all).length === 3);
      expect([...messagesOf(first.events), ...messagesOf(rest.events)].map((m) => (m.params as JsonObject).data)).toEqual([1, 2, 3, 4]);
    });

    it('keeps a session with an open GET stream alive past the idle timeout and sends keep-alive comments', async () => {
      const { url, mcp } = await start({ sessionIdleTimeoutMs: 100, keepAliveIntervalMs: 30 });
      const sessionId = await handshake(url);
      const abort = new AbortController();
      const get = await fetch(url, {
        method: 'GET',
        headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', accept: 'text/event-stream' },
        signal: abort.signal,
      });
      const reader = get.body?.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      const started = Date.now();
      while (Date.now() - started < 300) {
        const chunk = await reader?.read();
        text += chunk?.value ?? '';
      }
      expect(text).toContain(':\n\n');
      expect(mcp.sessions.size).toBe(1);
      abort.abort();
      for (let i = 0; i < 40 && mcp.sessions.size > 0; i++) await delay(25);
      expect(mcp.sessions.size).toBe(0);
    });

    it('ends open SSE streams when the server closes', async () => {
      const { url, listening } = await start();
      const sessionId = await handshake(url);
      const get = await fetch(url, {
        method: 'GET',
        headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', accept: 'text/event-stream' },
      });
      const reading = readEvents(get.body).catch(() => ({ events: [], ended: true }));
      await delay(10);
      await listening.close();
      running.splice(running.indexOf(listening), 1);
      expect((await reading).ended).toBe(true);
    });
  });

  describe('client disconnects', () => {
    it('keeps the session usable when a POST stream is cut and no event store exists', async () => {
      const { url } = await start(
        { enableJsonResponse: false },
        {
          slow: async () => {
            await delay(50);
            return { content: [] };
          },
        },
      );
      const sessionId = await handshake(url);
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
      const abort = new AbortController();
      const response = await fetch(url, {
        ...postInit({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {} } }, headers),
        signal: abort.signal,
      });
      abort.abort();
      await response.body?.cancel().catch(() => undefined);
      await delay(80);
      const next = await fetch(url, postInit({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers));
      expect(messagesOf((await readEvents(next.body)).events)).toEqual([{ jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'slow', description: 'slow', inputSchema: { type: 'object' } }] } }]);
    });
  });

  describe('stateless requests', () => {
    it('ends the request (transport closes, handlers abort) when the client disconnects before the JSON answer', async () => {
      const closes: unknown[] = [];
      const mcp = createStreamableHttpServer({
        stateless: true,
        enableJsonResponse: true,
        connect: (transport) =>
          transport.start({
            onMessage: () => undefined, // never answers
            onClose: (info) => closes.push(info.initiator),
          }),
      });
      const listening = await mcp.listen();
      running.push(listening);
      const abort = new AbortController();
      const pending = fetch(listening.url, { ...postInit({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), signal: abort.signal }).catch(() => 'aborted');
      await delay(30);
      abort.abort();
      expect(await pending).toBe('aborted');
      for (let i = 0; i < 20 && closes.length === 0; i++) await delay(10);
      expect(closes).toEqual(['remote']);
    });
  });

  describe('lifecycle per legacy revision', () => {
    it.each(LEGACY_PROTOCOL_VERSIONS)('runs initialize → initialized → tools/call at %s', async (version) => {
      const { url } = await start({}, { echo: (args) => ({ content: [{ type: 'text', text: String(args.text) }] }) });
      const sessionId = await handshake(url, version);
      const response = await fetch(
        url,
        postInit({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': version }),
      );
      expect(await answerMessages(response)).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } }]);
    });

    it.each(LEGACY_PROTOCOL_VERSIONS)('accepts the next request arriving before initialized at %s', async (version) => {
      const { url } = await start({ enableJsonResponse: true });
      const init = await fetch(url, postInit(initializeBody(version)));
      await init.text();
      const headers = { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': version };
      const [list, ack] = await Promise.all([
        fetch(url, postInit({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers)),
        delay(5).then(() => fetch(url, postInit({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers))),
      ]);
      expect(await list.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
      expect(ack.status).toBe(202);
    });
  });

  describe('interop with the official TypeScript SDK client (1.x)', () => {
    it('connects over Streamable HTTP, lists and calls tools, receives progress and terminates the session', async () => {
      const { url, mcp } = await start(
        { eventStore: new InMemoryEventStore() },
        {
          add: async (args, context) => {
            await context.sendProgress(1, 2);
            await context.sendProgress(2, 2);
            return { content: [{ type: 'text', text: String(Number(args.a) + Number(args.b)) }] };
          },
        },
      );
      const client = new Client({ name: 'official', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      expect(transport.sessionId).toBeTruthy();
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toEqual(['add']);
      const progress: number[] = [];
      const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }, undefined, { onprogress: (p) => progress.push(p.progress) });
      expect(result.content).toEqual([{ type: 'text', text: '5' }]);
      expect(progress).toEqual([1, 2]);
      await transport.terminateSession();
      expect(mcp.sessions.size).toBe(0);
      await client.close();
    });

    it('connects an old client through the legacy HTTP+SSE endpoint', async () => {
      const { listening } = await start({ legacySse: true }, { ping_tool: () => ({ content: [{ type: 'text', text: 'pong' }] }) });
      const client = new Client({ name: 'old', version: '1.0.0' });
      await client.connect(new SSEClientTransport(new URL('/sse', listening.url)));
      const result = await client.callTool({ name: 'ping_tool', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'pong' }]);
      await client.close();
    });
  });
});

describe('handleNodeRequest behind a framework body parser', () => {
  it('uses a body that was already parsed into req.body', async () => {
    const { createServer } = await import('node:http');
    const mcp = createStreamableHttpServer({
      enableJsonResponse: true,
      connect: async (transport) => {
        await createServerSession(transport).connect(transport);
      },
    });
    const http = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        (req as typeof req & { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        void mcp.handleNodeRequest(req, res);
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as { port: number };
    try {
      const response = await fetch(`http://127.0.0.1:${port}/mcp`, postInit(initializeBody()));
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeTruthy();
    } finally {
      await mcp.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
