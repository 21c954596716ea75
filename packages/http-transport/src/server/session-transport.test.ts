import { SimulatedClock, type RequestId, type TransportSink } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { JsonAnswer } from './http-response.js';
import { HttpServerSessionTransport } from './session-transport.js';
import { SseConnection } from './sse-connection.js';
import { answerMessages } from './test-support.js';

function transportWith(maxQueuedMessages: number) {
  const undeliverable: { ids: readonly RequestId[]; error: Error }[] = [];
  const errors: Error[] = [];
  const sink: TransportSink = {
    onMessage: () => undefined,
    onClose: () => undefined,
    onError: (error) => errors.push(error),
    onUndeliverable: (ids, error) => undeliverable.push({ ids, error }),
  };
  const transport = new HttpServerSessionTransport({
    sessionId: 'session-1',
    settings: {
      eventStore: undefined,
      retryIntervalMs: undefined,
      keepAliveIntervalMs: 0,
      maxQueuedMessages,
      maxStreamBufferBytes: 64 * 1024,
      stalledStreamTimeoutMs: 1000,
      clock: new SimulatedClock(),
    },
  });
  return { transport, sink, undeliverable, errors };
}

describe('HttpServerSessionTransport', () => {
  describe('#send', () => {
    it('reports a server-to-client request it had to drop as undeliverable, never as a forged answer', async () => {
      const { transport, sink, undeliverable, errors } = transportWith(1);
      await transport.start(sink);
      await transport.send({ jsonrpc: '2.0', id: 1, method: 'roots/list' });
      await transport.send({ jsonrpc: '2.0', id: 2, method: 'roots/list' });
      expect(undeliverable.map((entry) => entry.ids)).toEqual([[1]]);
      expect(undeliverable[0]?.error.message).toContain('queue is full');
      expect(errors).toEqual([]);
    });

    it('reports a dropped notification as a transport error (nothing awaits it)', async () => {
      const { transport, sink, undeliverable, errors } = transportWith(1);
      await transport.start(sink);
      await transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      await transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      expect(undeliverable).toEqual([]);
      expect(errors.map((error) => error.message)).toEqual(['The standalone stream queue is full; dropped its oldest message']);
    });
  });

  describe('#acceptPost', () => {
    const post = (ids: number[]) => ({
      messages: ids.map((id) => ({ jsonrpc: '2.0' as const, id, method: 'ping' })),
      requestIds: ids,
      batch: ids.length > 1,
      mode: 'json' as const,
      version: '2025-03-26',
      context: {},
      headers: { 'mcp-session-id': 'session-1' },
    });

    it('refuses an id repeated within a batch or still in flight from another POST, before delivering anything', async () => {
      const { transport, sink } = transportWith(1);
      const delivered: unknown[] = [];
      await transport.start({ ...sink, onMessage: (message) => delivered.push(message) });
      const repeated = await transport.acceptPost(post([1, 2, 1]));
      expect(repeated).toBeInstanceOf(Response);
      expect((repeated as Response).status).toBe(400);
      expect(await (repeated as Response).json()).toMatchObject({ id: 1, error: { code: -32600, message: expect.stringContaining('request id 1 is already in use') } });
      void transport.acceptPost(post([5]));
      const inFlight = (await transport.acceptPost(post([6, 5]))) as Response;
      expect(inFlight.status).toBe(400);
      expect(inFlight.headers.get('mcp-session-id')).toBe('session-1');
      expect(delivered).toEqual([{ jsonrpc: '2.0', id: 5, method: 'ping' }]);
    });

    it('answers a batch with one JSON body in request order, whatever order the responses come in', async () => {
      const { transport, sink } = transportWith(1);
      await transport.start(sink);
      const pending = transport.acceptPost(post([3, 1, 2]));
      for (const id of [2, 3, 1]) await transport.send({ jsonrpc: '2.0', id, result: { id } });
      const answer = await pending;
      expect(answer).toBeInstanceOf(JsonAnswer);
      expect(JSON.parse((answer as JsonAnswer).text)).toEqual([3, 1, 2].map((id) => ({ jsonrpc: '2.0', id, result: { id } })));
    });

    it('turns an auto batch into an SSE stream that carries the responses that came before the related notification', async () => {
      const { transport, sink } = transportWith(1);
      await transport.start(sink);
      const pending = transport.acceptPost({ ...post([1, 2]), mode: 'auto' });
      await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
      const progress = { jsonrpc: '2.0' as const, method: 'notifications/progress', params: { progressToken: 't', progress: 1 } };
      await transport.send(progress, { relatedRequestId: 2 });
      await transport.send({ jsonrpc: '2.0', id: 2, result: {} });
      const answer = await pending;
      expect(answer).toBeInstanceOf(SseConnection);
      expect(await answerMessages((answer as SseConnection).response)).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }, progress, { jsonrpc: '2.0', id: 2, result: {} }]);
    });
  });

  describe('#setProtocolVersion', () => {
    it('learns the version only from the session', () => {
      const { transport } = transportWith(1);
      expect(transport.protocolVersion).toBeUndefined();
      transport.setProtocolVersion('2025-06-18');
      expect(transport.protocolVersion).toBe('2025-06-18');
    });
  });
});
