/**
 * Replies and writes that share work (`inbound-replies.ts`, `outbound.ts`). A transport may
 * return one promise for the messages it writes together (the stdio transports do, per batch):
 * requests and replies written into one promise share its reaction, and every request written
 * must still hear of a failed write, and a promise returned again after its reaction ran (a
 * shared settled one) must be watched again. Values handlers return are answered through a queue,
 * in order, one microtask later, as a promise's reaction would be.
 */
import { describe, expect, it } from 'vitest';
import { TransportError } from '../errors/errors.js';
import type { Transport } from '../transport/transport.js';
import { clientWithRawServer, flush, serverWithRawClient } from './test-support.js';

/** Makes `transport.send` return `shared()` instead of writing, until the returned function is called. */
function interceptSends(transport: Transport, shared: () => Promise<void>): { sent: number; restore: () => void } {
  const original = transport.send.bind(transport);
  const state = {
    sent: 0,
    restore: () => {
      transport.send = original;
    },
  };
  transport.send = () => {
    state.sent++;
    return shared();
  };
  return state;
}

describe('requests written into one transport promise', () => {
  it('each request of a failed shared write rejects with a TransportError', async () => {
    const { client, clientTransport } = await clientWithRawServer();
    let fail: (error: Error) => void = () => undefined;
    const batch = new Promise<void>((_resolve, reject) => (fail = reject));
    const intercepted = interceptSends(clientTransport, () => batch);
    const calls = [client.request('tools/list', {}), client.request('tools/list', {}), client.request('ping')];
    const outcomes = Promise.allSettled(calls);
    await flush();
    expect(intercepted.sent).toBe(3);
    fail(new Error('EPIPE'));
    const settled = await outcomes;
    for (const outcome of settled) {
      expect(outcome.status).toBe('rejected');
      const reason = (outcome as PromiseRejectedResult).reason as Error;
      expect(reason).toBeInstanceOf(TransportError);
      expect(reason.message).toMatch(/^Failed to send (tools\/list|ping): EPIPE$/);
    }
    expect(client.pendingRequests()).toHaveLength(0);
  });

  it('a request written into a shared promise after its reaction ran is watched again', async () => {
    const { client, clientTransport } = await clientWithRawServer();
    const rejected = Promise.reject(new Error('closed pipe'));
    rejected.catch(() => undefined);
    interceptSends(clientTransport, () => rejected);
    await expect(client.request('ping')).rejects.toThrow('Failed to send ping: closed pipe');
    // The same settled promise again: a request written now must not join the finished group.
    await expect(client.request('tools/list', {})).rejects.toThrow('Failed to send tools/list: closed pipe');
    expect(client.pendingRequests()).toHaveLength(0);
  });

  it('requests of a shared write that succeeded are answered, and later writes open a new group', async () => {
    const { client, clientTransport, peer } = await clientWithRawServer();
    const written = Promise.resolve();
    const intercepted = interceptSends(clientTransport, () => written);
    const first = client.request('ping');
    const second = client.request('ping');
    await flush();
    intercepted.restore();
    const third = client.request('ping');
    await flush();
    const pings = peer.sent('ping');
    expect(pings).toHaveLength(1); // the first two were swallowed by the intercepting send
    await peer.send({ jsonrpc: '2.0', id: pings[0]?.id, result: {} });
    await expect(third).resolves.toEqual({});
    // The first two were "written": they wait for answers that never come, and the close settles them.
    await client.close();
    await expect(first).rejects.toThrow(/did not complete/);
    await expect(second).rejects.toThrow(/did not complete/);
  });
});

describe('replies written into one transport promise', () => {
  it('a failed shared write is reported once, and again for a reply written after the report', async () => {
    const diagnostics: string[] = [];
    const { server, peer, initialize, serverTransport } = await serverWithRawClient({
      server: { inspect: (event) => event.type === 'diagnostic' && diagnostics.push(event.message) },
    });
    await initialize();
    const rejected = Promise.reject(new Error('closed pipe'));
    rejected.catch(() => undefined);
    interceptSends(serverTransport, () => rejected);
    const reports = () => diagnostics.filter((message) => message === 'could not send a response').length;
    // Two requests delivered in one turn: both replies are written before the write's reaction runs.
    void peer.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    void peer.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await flush();
    expect(reports()).toBe(1);
    // A reply written after that reaction ran is watched again.
    await peer.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    await flush();
    expect(reports()).toBe(2);
    expect(server.pendingRequests()).toHaveLength(0);
  });
});

describe('values handlers return', () => {
  it('are answered in the order the requests arrived, after what the handler sent', async () => {
    const { peer, server, initialize } = await serverWithRawClient({ serverCapabilities: { tools: {}, logging: {} } });
    server.setRequestHandler('tools/call', (params, ctx) => {
      void ctx.sendNotification('notifications/message', { level: 'info', data: `before ${String(params.name)}` });
      return { content: [{ type: 'text', text: String(params.name) }] };
    });
    await initialize();
    for (const id of [1, 2, 3]) void peer.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: `t${id}` } });
    await flush();
    const order = peer.received.slice(-6).map((message) => ('id' in message ? `reply ${String(message.id)}` : String((message.params as { data: string }).data)));
    expect(order).toEqual(['before t1', 'before t2', 'before t3', 'reply 1', 'reply 2', 'reply 3']);
    expect(peer.response(2)).toMatchObject({ result: { content: [{ type: 'text', text: 't2' }] } });
  });

  it('gets no reply when the request was cancelled before its microtask', async () => {
    const { peer, server, initialize } = await serverWithRawClient();
    server.setRequestHandler('tools/call', () => ({ content: [] }));
    await initialize();
    // One message holding both: the cancellation is handled in the same turn as the request.
    void peer.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'a' } });
    void peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'no longer needed' } });
    await flush();
    expect(peer.response(7)).toBeUndefined();
    expect(server.pendingRequests()).toHaveLength(0);
    // The queue is empty again: the next value is answered.
    await peer.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'b' } });
    await flush();
    expect(peer.response(8)).toMatchObject({ result: { content: [] } });
  });
});
