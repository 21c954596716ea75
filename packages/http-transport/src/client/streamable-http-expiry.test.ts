/** The Streamable HTTP client when the server forgets the session: the transport reports, holds and releases; the session's machine runs the handshake. */
import { describe, expect, it, vi } from 'vitest';
import { type StreamableHttpClientTransport } from './streamable-http.js';
import { SseBody, initializeRequest, initializeResult, initializedNotification, settle, status } from '../../test/fake-http.js';
import { bodyId, call, connected, isMethod, simpleServer } from '../../test/streamable-client-fixture.js';

describe('StreamableHttpClientTransport', () => {
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

});
