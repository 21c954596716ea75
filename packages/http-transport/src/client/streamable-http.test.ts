import { AuthRequiredError, TransportError } from '@statemcp/protocol';
import { describe, expect, it, vi } from 'vitest';

import { StreamableHttpClientTransport } from './streamable-http.js';
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
} from '../../test/fake-http.js';
import { URL_, bodyId, call, connected, isMethod, simpleServer } from '../../test/streamable-client-fixture.js';

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
