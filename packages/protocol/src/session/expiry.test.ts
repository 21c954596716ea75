/**
 * Session expiry (MCP 2025-11-25 basic/transports §Streamable HTTP) and undeliverable requests,
 * decided by the machine and settled in the ledger.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../jsonrpc/messages.js';
import type { InspectEvent } from '../observability/events.js';
import { InMemoryTransport } from '../transport/in-memory.js';
import type { Transport, TransportSink } from '../transport/transport.js';
import { SimulatedClock } from './clock.js';
import { Session } from './session.js';
import { flush, rawPeer } from './test-support.js';

/** An in-memory transport whose test can report what a real HTTP transport would. */
class ReportingTransport implements Transport {
  readonly #inner: InMemoryTransport;
  #sink: TransportSink | undefined;
  readonly versions: string[] = [];
  constructor(inner: InMemoryTransport) {
    this.#inner = inner;
  }
  start(sink: TransportSink): Promise<void> {
    this.#sink = sink;
    return this.#inner.start(sink);
  }
  send: Transport['send'] = (message) => this.#inner.send(message);
  close(): Promise<void> {
    return this.#inner.close();
  }
  setProtocolVersion(version: string): void {
    this.versions.push(version);
  }
  expire(): void {
    this.#sink?.onSessionExpired?.();
  }
  undeliverable(ids: readonly (string | number)[], error: Error): void {
    this.#sink?.onUndeliverable?.(ids, error);
  }
}

const CAPS = { tools: { listChanged: true } };

async function operatingClient() {
  const clock = new SimulatedClock();
  const events: InspectEvent[] = [];
  const [clientEnd, serverEnd] = InMemoryTransport.createPair();
  const transport = new ReportingTransport(clientEnd);
  const client = new Session({ role: 'client', clock, capabilities: () => ({}), inspect: (event) => events.push(event) });
  const peer = await rawPeer(serverEnd);
  await client.connect(transport);
  const answer = async (version: string, capabilities: JsonObject = CAPS): Promise<void> => {
    const init = [...peer.received].reverse().find((m) => m.method === 'initialize');
    if (init === undefined) throw new Error('no initialize arrived');
    await peer.send({ jsonrpc: '2.0', id: init.id, result: { protocolVersion: version, capabilities, serverInfo: { name: 'raw', version: '1' } } });
    await flush();
  };
  const initialized = client.initialize({ capabilities: {}, clientInfo: { name: 'c', version: '1' } });
  await flush();
  await answer('2025-11-25');
  await initialized;
  return { client, peer, transport, events, answer };
}

describe('Session expiry', () => {
  it('runs the handshake again through the ledger, validates it, and continues the session when it agrees', async () => {
    const { client, peer, transport, events, answer } = await operatingClient();
    const pending = client.request('tools/list');
    await flush();
    transport.expire();
    await flush();
    expect(client.state).toMatchObject({ kind: 'initializing', resuming: { version: '2025-11-25', initializeSent: true } });
    const inits = peer.received.filter((m) => m.method === 'initialize');
    expect(inits).toHaveLength(2);
    expect(inits[1]?.params).toEqual(inits[0]?.params);
    expect(client.pendingRequests().map((r) => r.method).sort()).toEqual(['initialize', 'tools/list']);
    await answer('2025-11-25');
    expect(client.state.kind).toBe('operating');
    expect(peer.sent('notifications/initialized')).toHaveLength(2);
    expect(transport.versions).toEqual(['2025-11-25', '2025-11-25']);
    const list = peer.received.find((m) => m.method === 'tools/list');
    await peer.send({ jsonrpc: '2.0', id: list?.id, result: { tools: [] } });
    await expect(pending).resolves.toEqual({ tools: [] });
    const transitions = events.filter((e) => e.type === 'session.transition').map((e) => (e.type === 'session.transition' ? `${e.from}>${e.to}:${e.event}` : ''));
    expect(transitions.slice(-3)).toEqual(['operating>initializing:sessionExpired', 'initializing>initialized:initializeSucceeded', 'initialized>operating:outboundNotification']);
  });

  it('ends the session with SessionChangedError when the new server speaks another version; pending calls reject', async () => {
    const { client, transport, answer } = await operatingClient();
    const pending = client.request('tools/list');
    await flush();
    transport.expire();
    await flush();
    await answer('2025-06-18');
    await expect(pending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await client.closed;
    expect(client.closeInfo).toMatchObject({ reason: 'sessionChanged', error: { name: 'SessionChangedError', code: 'SESSION_CHANGED', category: 'interrupted' } });
    expect(transport.versions).toEqual(['2025-11-25']);
  });

  it('ends the session when the new server lost a capability the session had', async () => {
    const { client, transport, answer } = await operatingClient();
    transport.expire();
    await flush();
    await answer('2025-11-25', { tools: {} });
    await client.closed;
    expect(client.closeInfo?.error?.message).toContain('no longer declares tools.listChanged');
  });
});

describe('Session undeliverable requests', () => {
  it('settles what the transport could not deliver with a local interrupted error, never a forged peer error', async () => {
    const { client, transport } = await operatingClient();
    const pending = client.request('tools/list');
    await flush();
    const [record] = client.pendingRequests();
    transport.undeliverable([record?.id ?? -1, 'unknown'], new Error('the SSE stream died'));
    await expect(pending).rejects.toMatchObject({
      name: 'TransportError',
      category: 'interrupted',
      message: 'tools/list could not be delivered: the SSE stream died',
    });
    expect(client.pendingRequests()).toEqual([]);
    expect(client.state.kind).toBe('operating');
  });
});
