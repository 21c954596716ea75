/**
 * The Streamable HTTP client when the server forgets the session (MCP 2025-11-25 Transports
 * §Session Management): the transport reports it once and bounces what met the 404 with
 * SessionExpiredError. It holds nothing and runs no handshake; the session's machine decides.
 */
import { SessionExpiredError } from '@statemcp/protocol';
import { describe, expect, it, vi } from 'vitest';
import { type StreamableHttpClientTransport } from './streamable-http.js';
import { SseBody, initializeRequest, initializeResult, initializedNotification, settle, status } from '../../test/fake-http.js';
import { bodyId, call, connected, isMethod, simpleServer } from '../../test/streamable-client-fixture.js';

/** What the session's machine does after the report: the handshake again, then initialized. */
async function runHandshakeAgain(transport: StreamableHttpClientTransport): Promise<void> {
  await transport.send({ ...initializeRequest, id: 'again' });
  transport.setProtocolVersion('2025-11-25');
  await transport.send(initializedNotification);
}

const forgetsSession1 = (expired: () => boolean) => simpleServer((r) => (expired() && r.headers['mcp-session-id'] === 'session-1' ? status(404) : undefined));

describe('StreamableHttpClientTransport', () => {
  describe('a session the server forgot (404)', () => {
    it('reports the expiry once, bounces the message with SessionExpiredError, and opens the new session without the old id or version', async () => {
      let expired = false;
      const recovered = vi.fn();
      const { transport, sink, requests } = await connected(forgetsSession1(() => expired), { onSessionRecovered: recovered });
      await transport.send(call(1));
      expired = true;
      await expect(transport.send(call(9))).rejects.toBeInstanceOf(SessionExpiredError);
      expect(sink.expiries).toEqual([{ replacement: false, answered: true }]);
      expect(transport.sessionId).toBeUndefined();
      expect(requests.filter((r) => isMethod(r, 'initialize'))).toHaveLength(1);
      await runHandshakeAgain(transport);
      expect(transport.sessionId).toBe('session-2');
      expect(recovered).toHaveBeenCalledWith({ previousSessionId: 'session-1', sessionId: 'session-2' });
      expect(transport.sessionRecoveries).toBe(1);
      await transport.send(call(9));
      const after = requests.filter((r) => r.method === 'POST').slice(3);
      expect(after.map((r) => [(r.body as { method?: string }).method, r.headers['mcp-session-id'], r.headers['mcp-protocol-version']])).toEqual([
        ['tools/call', 'session-1', '2025-11-25'],
        ['initialize', undefined, undefined],
        ['notifications/initialized', 'session-2', '2025-11-25'],
        ['tools/call', 'session-2', '2025-11-25'],
      ]);
      // Every answer goes to the session: the transport keeps none for itself.
      expect(sink.messages).toEqual([initializeResult(0), { jsonrpc: '2.0', id: 1, result: { ok: true } }, initializeResult('again'), { jsonrpc: '2.0', id: 9, result: { ok: true } }]);
    });

    it('reports one expiry for concurrent messages that met the 404, and bounces each of them', async () => {
      let expired = false;
      const { transport, sink } = await connected(forgetsSession1(() => expired));
      expired = true;
      const outcomes = await Promise.allSettled([transport.send(call(1)), transport.send(call(2)), transport.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' })]);
      expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).name : 'sent'))).toEqual(['SessionExpiredError', 'SessionExpiredError', 'SessionExpiredError']);
      expect(sink.expired).toBe(1);
      expect(sink.closes).toEqual([]);
    });

    it('reports that a replacement was forgotten before it answered a request, and that one which answered was not', async () => {
      let forget: string | undefined;
      const handler = simpleServer((r) => (forget !== undefined && r.headers['mcp-session-id'] === forget ? status(404) : undefined));
      const { transport, sink } = await connected(handler);
      forget = 'session-1';
      await expect(transport.send(call(1))).rejects.toBeInstanceOf(SessionExpiredError);
      await runHandshakeAgain(transport);
      // session-2 accepted only its notifications/initialized, then is forgotten too.
      forget = 'session-2';
      await expect(transport.send(call(2))).rejects.toBeInstanceOf(SessionExpiredError);
      expect(sink.expiries).toEqual([
        { replacement: false, answered: false },
        { replacement: true, answered: false },
      ]);
      forget = undefined;
      await runHandshakeAgain(transport);
      await transport.send(call(3));
      forget = 'session-3';
      await expect(transport.send(call(4))).rejects.toBeInstanceOf(SessionExpiredError);
      expect(sink.expiries.at(-1)).toEqual({ replacement: true, answered: true });
      expect(transport.sessionRecoveries).toBe(2);
    });

    it('reports an expiry when the GET stream meets a 404, and again when the new session 404s it too', async () => {
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
      expect(sink.expiries).toEqual([{ replacement: false, answered: false }]);
      await runHandshakeAgain(transport);
      await settle(40);
      expect(requests.filter((r) => r.method === 'GET').map((r) => r.headers['mcp-session-id'])).toEqual(['session-1', 'session-1', 'session-2']);
      // The machine hears it and decides (a replacement that answered nothing: the connection fails).
      expect(sink.expiries).toEqual([
        { replacement: false, answered: false },
        { replacement: true, answered: false },
      ]);
      expect(sink.closes).toEqual([]);
    });

    it('closes with SessionExpiredError when its sink cannot run the handshake again', async () => {
      let expired = false;
      const { transport, sink } = await connected(forgetsSession1(() => expired));
      Object.defineProperty(sink, 'onSessionExpired', { value: undefined });
      expired = true;
      await expect(transport.send(call(1))).rejects.toBeInstanceOf(SessionExpiredError);
      await settle();
      expect(sink.closes).toHaveLength(1);
      expect(sink.closes[0]).toMatchObject({ initiator: 'error', error: { code: 'SESSION_EXPIRED' } });
      await expect(transport.send(call(2))).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    });

    it('takes a session id only from the POST that opens a session, never from later answers', async () => {
      const { transport, requests } = await connected(simpleServer());
      await transport.send(call(1));
      expect(transport.sessionId).toBe('session-1');
      expect(requests.filter((r) => isMethod(r, 'tools/call')).map((r) => [bodyId(r), r.headers['mcp-session-id']])).toEqual([[1, 'session-1']]);
    });
  });
});
