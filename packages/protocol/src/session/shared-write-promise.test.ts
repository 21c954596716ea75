/**
 * A transport may return one promise for the messages it writes together (the stdio transports
 * do, per batch). Requests and replies written into one promise share its reaction; these tests
 * check that every request written still hears of a failed write, and that a promise returned
 * again after its reaction ran (a shared settled one) is watched again.
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
    await peer.send({ jsonrpc: '2.0', id: pings[0]?.id as number, result: {} });
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
