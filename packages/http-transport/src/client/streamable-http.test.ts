import { AuthRequiredError, TransportError } from '@statemcp/protocol';
import { describe, expect, it, vi } from 'vitest';

import { StreamableHttpClientTransport, type StreamableHttpClientTransportOptions } from './streamable-http.js';
import {
  ManualClock,
  RecordingSink,
  SseBody,
  accepted,
  fakeFetch,
  initializeRequest,
  initializeResult,
  initializedNotification,
  jsonResponse,
  settle,
  status,
  type FakeHandler,
  type RecordedRequest,
} from '../../test/fake-http.js';

const URL_ = 'http://127.0.0.1:9/mcp';

function isMethod(request: RecordedRequest, method: string): boolean {
  return (request.body as { method?: string } | undefined)?.method === method;
}

function bodyId(request: RecordedRequest): unknown {
  return (request.body as { id?: unknown }).id;
}

/** A server that issues `session-<n>` per initialize, answers tools/call with JSON and 405s the GET. */
function simpleServer(overrides: (request: RecordedRequest) => Response | undefined = () => undefined): FakeHandler {
  let sessions = 0;
  return (request) => {
    const custom = overrides(request);
    if (custom !== undefined) return custom;
    if (request.method === 'GET') return status(405);
    if (request.method === 'DELETE') return status(200);
    if (isMethod(request, 'initialize')) {
      sessions++;
      return jsonResponse(initializeResult(bodyId(request)), { 'mcp-session-id': `session-${sessions}` });
    }
    if (request.body !== undefined && bodyId(request) === undefined) return accepted();
    return jsonResponse({ jsonrpc: '2.0', id: bodyId(request), result: { ok: true } }, { 'mcp-session-id': 'not-from-initialize' });
  };
}

async function connected(handler: FakeHandler, options: StreamableHttpClientTransportOptions = {}) {
  const fake = fakeFetch(handler);
  const clock = new ManualClock();
  const sink = new RecordingSink();
  const transport = new StreamableHttpClientTransport(URL_, { fetch: fake.fetch, clock, random: () => 0, ...options });
  await transport.start(sink);
  await transport.send(initializeRequest);
  transport.setProtocolVersion('2025-11-25');
  await transport.send(initializedNotification);
  await settle();
  return { transport, sink, clock, requests: fake.requests };
}

const call = (id: number) => ({ jsonrpc: '2.0' as const, id, method: 'tools/call', params: { name: 'x' } });

describe('StreamableHttpClientTransport', () => {
  describe('#send', () => {
    it('POSTs with Accept listing JSON and SSE and a JSON content type', async () => {
      const { requests } = await connected(simpleServer());
      const post = requests[0];
      expect(post?.method).toBe('POST');
      expect(post?.headers.accept).toBe('application/json, text/event-stream');
      expect(post?.headers['content-type']).toBe('application/json');
      expect(post?.body).toEqual(initializeRequest);
    });

    it('captures the session id only from the initialize response and echoes it on POST, GET and DELETE', async () => {
      const { transport, requests } = await connected(simpleServer());
      expect(transport.sessionId).toBe('session-1');
      await transport.send(call(1));
      await transport.send(call(2)); // the previous answer carried another Mcp-Session-Id: ignored
      await transport.close();
      expect(transport.sessionId).toBe('session-1');
      expect(requests[0]?.headers['mcp-session-id']).toBeUndefined();
      const later = requests.slice(1);
      expect(later.map((r) => r.method)).toEqual(['POST', 'GET', 'POST', 'POST', 'DELETE']);
      for (const request of later) expect(request.headers['mcp-session-id']).toBe('session-1');
    });

    it('sends MCP-Protocol-Version after negotiation but not on initialize', async () => {
      const { transport, requests } = await connected(simpleServer());
      await transport.send(call(1));
      expect(requests[0]?.headers['mcp-protocol-version']).toBeUndefined();
      for (const request of requests.slice(1)) expect(request.headers['mcp-protocol-version']).toBe('2025-11-25');
    });

    it('calls the headers hook before every request, without letting it override transport headers', async () => {
      let counter = 0;
      const headers = vi.fn(async () => ({ authorization: `Bearer t${++counter}`, accept: 'text/html' }));
      const { transport, requests } = await connected(simpleServer(), { headers });
      await transport.send(call(1));
      expect(requests.map((r) => r.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2', 'Bearer t3', 'Bearer t4']);
      expect(requests[3]?.headers.accept).toBe('application/json, text/event-stream');
    });

    it('delivers a JSON answer and nothing for a 202', async () => {
      const { transport, sink } = await connected(simpleServer());
      await transport.send(call(7));
      expect(sink.messages).toEqual([initializeResult(0), { jsonrpc: '2.0', id: 7, result: { ok: true } }]);
    });

    it('delivers every message of an SSE answer, skipping the priming event', async () => {
      const body = new SseBody();
      const { transport, sink } = await connected(simpleServer((r) => (isMethod(r, 'tools/call') ? body.response() : undefined)));
      await transport.send(call(3));
      body.write('id: p\nretry: 100\ndata:\n\n');
      body.message({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }, 'e1');
      body.message({ jsonrpc: '2.0', id: 3, result: { done: true } }, 'e2');
      body.end();
      await settle();
      expect(sink.messages.slice(1)).toEqual([
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
        { jsonrpc: '2.0', id: 3, result: { done: true } },
      ]);
      expect(sink.errors).toEqual([]);
    });

    it('rejects with AuthRequiredError on 401 and reports it to the sink', async () => {
      const { transport, sink } = await connected(simpleServer((r) => (isMethod(r, 'tools/call') ? status(401) : undefined)));
      await expect(transport.send(call(1))).rejects.toBeInstanceOf(AuthRequiredError);
      expect(sink.errors[0]).toBeInstanceOf(AuthRequiredError);
    });

    it('delivers a JSON-RPC error body for the posted request as its answer', async () => {
      const error = { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } };
      const { transport, sink } = await connected(
        simpleServer((r) => (isMethod(r, 'tools/call') ? new Response(JSON.stringify(error), { status: 400 }) : undefined)),
      );
      await transport.send(call(1));
      expect(sink.messages.at(-1)).toEqual(error);
    });

    it('reports a request undeliverable when its JSON answer lacks the response, inventing no peer error', async () => {
      const { transport, sink } = await connected(simpleServer((r) => (isMethod(r, 'tools/call') ? jsonResponse({}) : undefined)));
      await transport.send(call(5));
      expect(sink.messages.filter((m) => (m as { id?: unknown }).id === 5)).toEqual([]);
      expect(sink.undeliverable).toEqual([{ ids: [5], error: expect.any(TransportError) as unknown }]);
    });
  });

  describe('a session the server forgot (404)', () => {
    /** What the session's machine does on `onSessionExpired`: the handshake again, then initialized. */
    async function runHandshakeAgain(transport: StreamableHttpClientTransport): Promise<void> {
      await transport.send({ ...initializeRequest, id: 'again' });
      await transport.send(initializedNotification);
    }

    it('reports the expiry, runs no handshake of its own, and sends the held message on the new session', async () => {
      let expired = false;
      const recovered = vi.fn();
      const handler = simpleServer((r) => (expired && r.headers['mcp-session-id'] === 'session-1' ? status(404) : undefined));
      const { transport, sink, requests } = await connected(handler, { onSessionRecovered: recovered });
      expired = true;
      const sending = transport.send(call(9));
      await settle();
      expect(sink.expired).toBe(1);
      expect(transport.sessionId).toBeUndefined();
      expect(requests.filter((r) => isMethod(r, 'initialize'))).toHaveLength(1);
      await runHandshakeAgain(transport);
      await sending;
      expect(transport.sessionId).toBe('session-2');
      expect(recovered).toHaveBeenCalledWith({ previousSessionId: 'session-1', sessionId: 'session-2' });
      const after = requests.slice(2).filter((r) => r.method === 'POST');
      expect(after.map((r) => [(r.body as { method?: string }).method, r.headers['mcp-session-id']])).toEqual([
        ['tools/call', 'session-1'],
        ['initialize', undefined],
        ['notifications/initialized', 'session-2'],
        ['tools/call', 'session-2'],
      ]);
      // Every answer goes to the session: the transport keeps none for itself.
      expect(sink.messages).toEqual([initializeResult(0), initializeResult('again'), { jsonrpc: '2.0', id: 9, result: { ok: true } }]);
      expect(transport.sessionRecoveries).toBe(1);
    });

    it('holds every message sent meanwhile and sends them in order once the new session is up', async () => {
      let expired = false;
      const { transport, requests, sink } = await connected(simpleServer((r) => (expired && r.headers['mcp-session-id'] === 'session-1' ? status(404) : undefined)));
      expired = true;
      const first = transport.send(call(1));
      const second = transport.send(call(2));
      await settle();
      expect(sink.expired).toBe(1);
      const third = transport.send(call(3));
      await settle();
      expect(requests.filter((r) => isMethod(r, 'tools/call')).map((r) => bodyId(r))).toEqual([1, 2]);
      await runHandshakeAgain(transport);
      await Promise.all([first, second, third]);
      const resent = requests.filter((r) => isMethod(r, 'tools/call') && r.headers['mcp-session-id'] === 'session-2').map((r) => bodyId(r));
      expect(resent).toEqual([1, 2, 3]);
    });

    it('closes with ConnectionClosedError when the new session forgets again before it served anything', async () => {
      let expired = false;
      const handler = simpleServer((r) => (expired && isMethod(r, 'tools/call') ? status(404) : undefined));
      const { transport, sink } = await connected(handler);
      expired = true;
      const sending = transport.send(call(1));
      await settle();
      await runHandshakeAgain(transport);
      await expect(sending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      await settle();
      expect(sink.closes).toHaveLength(1);
      expect(sink.closes[0]).toMatchObject({ initiator: 'error', error: { message: expect.stringContaining('again, right after the session was replaced') as unknown } });
      await expect(transport.send(call(2))).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    });

    it('reports an expiry when the GET stream meets a 404, and lets the stream die if the new session 404s it too', async () => {
      let getExpired = false;
      const bodies: SseBody[] = [];
      const { transport, sink, clock, requests } = await connected(
        simpleServer((r) => {
          if (r.method !== 'GET') return undefined;
          if (getExpired) return status(404);
          const body = new SseBody();
          bodies.push(body);
          return body.response();
        }),
      );
      getExpired = true;
      bodies[0]?.end();
      await settle();
      clock.fire();
      await settle(40);
      expect(sink.expired).toBe(1);
      await runHandshakeAgain(transport);
      await settle(40);
      expect(transport.sessionId).toBe('session-2');
      expect(transport.standaloneStreamState?.kind).toBe('dead');
      expect(requests.filter((r) => r.method === 'GET').map((r) => r.headers['mcp-session-id'])).toEqual(['session-1', 'session-1', 'session-2']);
      expect(sink.expired).toBe(1);
      expect(sink.closes).toEqual([]);
      await transport.send(call(1));
      expect(sink.messages.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: { ok: true } });
    });

    it('reports one expiry for concurrent requests that met the 404', async () => {
      let expired = false;
      const handler = simpleServer((r) => (expired && r.headers['mcp-session-id'] === 'session-1' ? status(404) : undefined));
      const { transport, sink } = await connected(handler);
      expired = true;
      const both = Promise.all([transport.send(call(1)), transport.send(call(2))]);
      await settle();
      expect(sink.expired).toBe(1);
      await runHandshakeAgain(transport);
      await both;
      expect(transport.sessionId).toBe('session-2');
    });

    it('withdraws a held request when its cancellation arrives, sending neither', async () => {
      let expired = false;
      const { transport, requests } = await connected(simpleServer((r) => (expired && r.headers['mcp-session-id'] === 'session-1' ? status(404) : undefined)));
      expired = true;
      const first = transport.send(call(1));
      await settle();
      const held = transport.send(call(2));
      await transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'timed out' } });
      await held;
      await runHandshakeAgain(transport);
      await first;
      const onNewSession = requests.filter((r) => r.headers['mcp-session-id'] === 'session-2' && r.method === 'POST').map((r) => (r.body as { method?: string }).method);
      expect(onNewSession).toEqual(['notifications/initialized', 'tools/call']);
      expect(requests.filter((r) => isMethod(r, 'tools/call')).map((r) => bodyId(r))).toEqual([1, 1]);
    });

    it('rejects held messages when the transport closes before the session is replaced', async () => {
      let expired = false;
      const { transport, sink } = await connected(simpleServer((r) => (expired && r.headers['mcp-session-id'] === 'session-1' ? status(404) : undefined)));
      expired = true;
      const sending = transport.send(call(1));
      await settle();
      await transport.terminate();
      await expect(sending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      expect(sink.closes).toHaveLength(1);
    });
  });

  describe('#close', () => {
    it('DELETEs the session, tolerates 405 and fires onClose once', async () => {
      const { transport, sink, requests } = await connected(simpleServer((r) => (r.method === 'DELETE' ? status(405) : undefined)));
      await Promise.all([transport.close(), transport.close()]);
      await transport.close();
      expect(requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
      expect(sink.closes).toEqual([{ initiator: 'local' }]);
    });

    it('bounds a DELETE that never answers with closeTimeoutMs', async () => {
      const { transport, sink, clock } = await connected(
        simpleServer((r) => (r.method === 'DELETE' ? (new Promise<Response>(() => undefined) as unknown as Response) : undefined)),
        { closeTimeoutMs: 1234 },
      );
      const closing = transport.close();
      await settle();
      expect(clock.fire(1234)).toBe(1);
      await closing;
      expect(sink.closes).toHaveLength(1);
    });

    it('terminate() skips the DELETE', async () => {
      const { transport, sink, requests } = await connected(simpleServer());
      await transport.terminate();
      expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
      expect(sink.closes).toHaveLength(1);
    });
  });

  describe('SSE resumption', () => {
    it('stops reading a request stream once its response arrived, even if the server keeps it open', async () => {
      const post = new SseBody();
      const { transport, sink } = await connected(simpleServer((r) => (isMethod(r, 'tools/call') ? post.response() : undefined)));
      await transport.send(call(2));
      post.message({ jsonrpc: '2.0', id: 2, result: {} }, 'a1');
      await settle();
      expect(post.closed).toBe(true);
      expect(sink.messages.at(-1)).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
      expect(sink.errors).toEqual([]);
    });

    it('waits exactly the server retry, then resumes with GET and Last-Event-ID', async () => {
      const post = new SseBody();
      const resumed = new SseBody();
      const { transport, sink, clock, requests } = await connected(
        simpleServer((r) => {
          if (isMethod(r, 'tools/call')) return post.response();
          if (r.method === 'GET' && r.headers['last-event-id'] !== undefined) return resumed.response();
          return undefined;
        }),
      );
      await transport.send(call(4));
      post.write('id: prime-4\nretry: 500\ndata:\n\n');
      post.end();
      await settle();
      expect([...clock.timers.values()].map((t) => t.ms)).toEqual([500]);
      expect(requests.filter((r) => r.headers['last-event-id'] !== undefined)).toHaveLength(0);
      clock.fire(500);
      await settle();
      const resume = requests.find((r) => r.headers['last-event-id'] !== undefined);
      expect(resume?.method).toBe('GET');
      expect(resume?.headers['last-event-id']).toBe('prime-4');
      expect(resume?.headers['mcp-session-id']).toBe('session-1');
      expect(resume?.headers.accept).toBe('text/event-stream');
      resumed.message({ jsonrpc: '2.0', id: 4, result: { resumed: true } }, 'e9');
      resumed.end();
      await settle();
      expect(sink.messages.at(-1)).toEqual({ jsonrpc: '2.0', id: 4, result: { resumed: true } });
      expect(clock.timers.size).toBe(0);
      expect(sink.errors).toEqual([]);
    });

    it('reports the request undeliverable when the stream ends without response or event id (no forged -32603)', async () => {
      const post = new SseBody();
      const { transport, sink } = await connected(simpleServer((r) => (isMethod(r, 'tools/call') ? post.response() : undefined)));
      const before = sink.messages.length;
      await transport.send(call(6));
      post.end();
      await settle();
      expect(sink.messages).toHaveLength(before);
      expect(sink.undeliverable).toHaveLength(1);
      expect(sink.undeliverable[0]?.ids).toEqual([6]);
      expect(sink.undeliverable[0]?.error.message).toMatch(/ended before its response arrived/);
      expect(sink.errors[0]).toBeInstanceOf(TransportError);
    });

    it('backs off with jitter when no retry was sent and fails the request after maxRetries', async () => {
      const post = new SseBody();
      const { transport, sink, clock } = await connected(
        simpleServer((r) => {
          if (isMethod(r, 'tools/call')) return post.response();
          if (r.method === 'GET' && r.headers['last-event-id'] !== undefined) return status(503);
          return undefined;
        }),
        { reconnect: { initialDelayMs: 100, factor: 2, maxRetries: 3, jitter: 0.5 }, random: () => 0.5 },
      );
      await transport.send(call(8));
      post.write('id: x1\n\n');
      post.error(new Error('connection reset'));
      await settle();
      for (let round = 0; round < 3; round++) {
        expect(clock.fire()).toBe(1);
        await settle();
      }
      expect(clock.delays.filter((ms) => ms !== 3000)).toEqual([75, 150, 300]);
      expect(sink.undeliverable.map((entry) => entry.ids)).toEqual([[8]]);
      expect(sink.undeliverable[0]?.error.message).toMatch(/gave up after 3 attempts/);
      expect(sink.errors.at(-1)?.message).toMatch(/gave up after 3 attempts/);
    });
  });

  describe('standalone GET stream', () => {
    it('opens after notifications/initialized and tolerates 405', async () => {
      const { transport, requests } = await connected(simpleServer());
      const get = requests.find((r) => r.method === 'GET');
      expect(get?.headers.accept).toBe('text/event-stream');
      expect(transport.standaloneStreamState).toEqual({ kind: 'unsupported' });
    });

    it('delivers server messages and reconnects with Last-Event-ID after a cut', async () => {
      const bodies: SseBody[] = [];
      const { sink, clock, requests, transport } = await connected(
        simpleServer((r) => {
          if (r.method !== 'GET') return undefined;
          const body = new SseBody();
          bodies.push(body);
          return body.response();
        }),
      );
      bodies[0]?.message({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, 'g1');
      bodies[0]?.end();
      await settle();
      expect(transport.standaloneStreamState).toMatchObject({ kind: 'reconnecting', attempt: 1, lastEventId: 'g1' });
      clock.fire();
      await settle();
      const gets = requests.filter((r) => r.method === 'GET');
      expect(gets).toHaveLength(2);
      expect(gets[1]?.headers['last-event-id']).toBe('g1');
      expect(sink.messages.at(-1)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      expect(transport.standaloneStreamState?.kind).toBe('open');
    });

    it('declares a stream that keeps closing without progress dead after maxRetries (no silent loop)', async () => {
      const changes: string[] = [];
      const { sink, clock, transport, requests } = await connected(
        simpleServer((r) => {
          if (r.method !== 'GET') return undefined;
          const body = new SseBody();
          body.end();
          return body.response();
        }),
        { reconnect: { maxRetries: 2 }, onStreamStateChange: (change) => changes.push(change.state.kind) },
      );
      for (let round = 0; round < 5; round++) {
        clock.fire();
        await settle();
      }
      expect(requests.filter((r) => r.method === 'GET')).toHaveLength(3);
      expect(transport.standaloneStreamState?.kind).toBe('dead');
      expect(sink.errors.at(-1)).toBeInstanceOf(TransportError);
      expect(changes.at(-1)).toBe('dead');
      expect(clock.timers.size).toBe(0);
    });
  });

  describe('legacy HTTP+SSE fallback', () => {
    it('falls back when initialize is refused with 405, then talks over the endpoint', async () => {
      const stream = new SseBody();
      const fake = fakeFetch((request) => {
        if (request.url === URL_ && request.method === 'POST') return status(405);
        if (request.url === URL_ && request.method === 'GET') {
          stream.write('event: endpoint\ndata: /messages?session=abc\n\n');
          return stream.response();
        }
        if (request.url.startsWith('http://127.0.0.1:9/messages')) {
          const id = bodyId(request);
          if (id !== undefined && isMethod(request, 'initialize')) stream.message(initializeResult(id, '2024-11-05'));
          return accepted();
        }
        return status(500);
      });
      const sink = new RecordingSink();
      const transport = new StreamableHttpClientTransport(URL_, { fetch: fake.fetch, clock: new ManualClock() });
      await transport.start(sink);
      await transport.send(initializeRequest);
      await settle();
      expect(transport.wire).toBe('legacy');
      expect(sink.messages).toEqual([initializeResult(0, '2024-11-05')]);
      await transport.send(initializedNotification);
      const last = fake.requests.at(-1);
      expect(last?.url).toBe('http://127.0.0.1:9/messages?session=abc');
      expect(last?.body).toEqual(initializedNotification);
      await transport.close();
      expect(sink.closes).toHaveLength(1);
    });

    it('GETs the legacy URL given in legacyFallback', async () => {
      const stream = new SseBody();
      const fake = fakeFetch((request) => {
        if (request.url === URL_) return status(404);
        if (request.url === 'http://127.0.0.1:9/sse') {
          stream.write('event: endpoint\ndata: /messages\n\n');
          return stream.response();
        }
        return accepted();
      });
      const transport = new StreamableHttpClientTransport(URL_, { fetch: fake.fetch, legacyFallback: { url: '/sse' } });
      await transport.start(new RecordingSink());
      await transport.send(initializeRequest);
      expect(transport.wire).toBe('legacy');
      expect(fake.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        `POST ${URL_}`,
        'GET http://127.0.0.1:9/sse',
        'POST http://127.0.0.1:9/messages',
      ]);
      await transport.close();
    });

    it('never falls back when legacyFallback is false', async () => {
      const fake = fakeFetch(() => status(405));
      const transport = new StreamableHttpClientTransport(URL_, { fetch: fake.fetch, legacyFallback: false });
      await transport.start(new RecordingSink());
      await expect(transport.send(initializeRequest)).rejects.toBeInstanceOf(TransportError);
      expect(fake.requests).toHaveLength(1);
    });

    it('does not fall back on a 400 carrying a modern-era error', async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32022, message: 'Unsupported protocol version' } });
      const fake = fakeFetch(() => new Response(body, { status: 400 }));
      const transport = new StreamableHttpClientTransport(URL_, { fetch: fake.fetch });
      await transport.start(new RecordingSink());
      await expect(transport.send(initializeRequest)).rejects.toBeInstanceOf(TransportError);
      expect(fake.requests.map((r) => r.method)).toEqual(['POST']);
    });
  });
});
