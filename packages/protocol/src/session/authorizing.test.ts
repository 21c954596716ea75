/** `TransportSink.onAuthorizing`: a transport signing in pauses the requests' timeouts. */
import { describe, expect, it } from 'vitest';
import type { TransportSink } from '../transport/transport.js';
import { InMemoryTransport } from '../transport/in-memory.js';
import { SimulatedClock } from './clock.js';
import { Session } from './session.js';
import { flush, rawPeer } from './test-support.js';

/** A client session over an in-memory transport whose sink the test holds (as an HTTP transport would). */
async function clientWithSink(supportedVersions?: string[]) {
  const clock = new SimulatedClock();
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  let sink: TransportSink | undefined;
  const start = clientTransport.start.bind(clientTransport);
  clientTransport.start = (given) => {
    sink = given;
    return start(given);
  };
  const client = new Session({ role: 'client', clock, capabilities: () => ({}), ...(supportedVersions !== undefined && { supportedVersions }) });
  const peer = await rawPeer(serverTransport);
  await client.connect(clientTransport);
  if (sink?.onAuthorizing === undefined) throw new Error('the session gave no onAuthorizing');
  return { clock, client, peer, authorizing: sink.onAuthorizing.bind(sink) };
}

function settledFlag(promise: Promise<unknown>): () => boolean {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return () => settled;
}

describe('onAuthorizing', () => {
  it('stops the timeout of a pending request while the transport authorizes, then gives it the full timeout again', async () => {
    const { clock, client, authorizing } = await clientWithSink();
    const initialize = client.initialize({ capabilities: {}, clientInfo: { name: 'c', version: '1' } }, { timeoutMs: 1000 });
    const settled = settledFlag(initialize);
    clock.advance(900);
    authorizing(true); // the server answered 401: a login in a browser begins
    clock.advance(60_000);
    await flush();
    expect(settled()).toBe(false);
    authorizing(false);
    clock.advance(999);
    await flush();
    expect(settled()).toBe(false);
    clock.advance(1);
    await expect(initialize).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', timeoutMs: 1000 });
  });

  it('holds the timeout of a request made during the authorization until it ends, and keeps the maximum running', async () => {
    const { clock, client, peer, authorizing } = await clientWithSink();
    const initialize = client.initialize({ capabilities: {}, clientInfo: { name: 'c', version: '1' } });
    await flush();
    const init = peer.received[0];
    await peer.send({ jsonrpc: '2.0', id: init?.id ?? 0, result: { protocolVersion: (init?.params as { protocolVersion: string }).protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } });
    await initialize;
    authorizing(true);
    const list = client.request('tools/list', undefined, { timeoutMs: 100 });
    const capped = client.request('tools/list', undefined, { timeoutMs: 100, maxTotalTimeoutMs: 5000 });
    const listSettled = settledFlag(list);
    clock.advance(4999);
    await flush();
    expect(listSettled()).toBe(false);
    clock.advance(1);
    await expect(capped).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', timeoutMs: 5000 });
    authorizing(false);
    clock.advance(100);
    await expect(list).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', timeoutMs: 100 });
  });

  it('restarts the whole connect timeout when an authorization ends during discovery', async () => {
    const { clock, client, peer, authorizing } = await clientWithSink(['2025-11-25', '2026-07-28']);
    const agreed = client.negotiate({ capabilities: {}, clientInfo: { name: 'c', version: '1' } }, { timeoutMs: 1000 });
    const settled = settledFlag(agreed);
    await flush();
    clock.advance(900);
    authorizing(true); // discovery was answered 401: the user signs in
    clock.advance(60_000);
    authorizing(false);
    clock.advance(300);
    const discover = peer.received.find((message) => message.method === 'server/discover');
    await peer.send({ jsonrpc: '2.0', id: discover?.id ?? 0, error: { code: -32601, message: 'Method not found' } });
    await flush();
    // The fallback handshake gets what is left since the authorization ended: 1000 - 300 ms.
    clock.advance(699);
    await flush();
    expect(settled()).toBe(false);
    clock.advance(1);
    await expect(agreed).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', timeoutMs: 700 });
  });
});
