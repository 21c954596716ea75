/**
 * Session expiry (MCP 2025-11-25 Transports §Session Management) and undeliverable requests,
 * decided by the machine and settled in the ledger: the transport only reports the 404 and
 * bounces what met it; the ledger holds everything until the new session is up.
 */
import { describe, expect, it } from 'vitest';
import { SessionExpiredError } from '../errors/errors.js';
import type { JsonObject, JsonRpcMessage } from '../jsonrpc/messages.js';
import type { InspectEvent } from '../observability/events.js';
import { InMemoryTransport } from '../transport/in-memory.js';
import type { Transport, TransportSink } from '../transport/transport.js';
import { SimulatedClock } from './clock.js';
import { Session } from './session.js';
import { flush, rawPeer } from './test-support.js';

/**
 * An in-memory transport whose test can report what a real HTTP transport would. While the
 * server has `forgotten` the session, every message but the one that opens a new session
 * bounces with SessionExpiredError, after one report per forgotten session.
 */
class ReportingTransport implements Transport {
  readonly #inner: InMemoryTransport;
  #sink: TransportSink | undefined;
  readonly versions: string[] = [];
  forgotten = false;
  #reported = false;
  /** The session that the next report describes was itself a replacement that answered nothing. */
  replacementUnanswered = false;
  readonly bounced: string[] = [];
  constructor(inner: InMemoryTransport) {
    this.#inner = inner;
  }
  start(sink: TransportSink): Promise<void> {
    this.#sink = sink;
    return this.#inner.start(sink);
  }
  send: Transport['send'] = (message) => {
    if (!this.forgotten || ('method' in message && message.method === 'initialize')) {
      this.#reported = false;
      return this.#inner.send(message);
    }
    this.bounced.push(methodOf(message));
    if (!this.#reported) {
      this.#reported = true;
      this.#sink?.onSessionExpired?.({ replacement: this.replacementUnanswered, answered: !this.replacementUnanswered });
    }
    return Promise.reject(new SessionExpiredError('HTTP 404 for the session'));
  };
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

function methodOf(message: JsonRpcMessage): string {
  return 'method' in message ? message.method : 'response';
}

async function operatingClient() {
  const clock = new SimulatedClock();
  const events: InspectEvent[] = [];
  const [clientEnd, serverEnd] = InMemoryTransport.createPair();
  const transport = new ReportingTransport(clientEnd);
  const client = new Session({ role: 'client', clock, capabilities: () => ({ roots: { listChanged: true } }), inspect: (event) => events.push(event) });
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
    expect(client.state).toMatchObject({ kind: 'initializing', phase: 'resuming', version: '2025-11-25', initializeSent: true });
    const inits = peer.received.filter((m) => m.method === 'initialize');
    expect(inits).toHaveLength(2);
    expect(inits[1]?.params).toEqual(inits[0]?.params);
    // Made while resuming: held in the ledger (created, never written), like everything but the initialize.
    const later = client.request('tools/call', { name: 'b', arguments: {} });
    const progress = client.notify('notifications/roots/list_changed');
    await flush();
    expect(client.pendingRequests().map((r) => [r.method, r.state])).toEqual([
      ['tools/list', 'dispatched'],
      ['initialize', 'dispatched'],
      ['tools/call', 'created'],
    ]);
    expect(peer.received.filter((m) => m.method === 'tools/call' || m.method === 'notifications/roots/list_changed')).toEqual([]);
    await answer('2025-11-25');
    expect(client.state.kind).toBe('operating');
    expect(peer.sent('notifications/initialized')).toHaveLength(2);
    expect(transport.versions).toEqual(['2025-11-25', '2025-11-25']);
    await progress;
    const order = peer.received.map((m) => m.method);
    expect(order.slice(order.lastIndexOf('notifications/initialized'))).toEqual(['notifications/initialized', 'tools/call', 'notifications/roots/list_changed']);
    const list = peer.received.find((m) => m.method === 'tools/list');
    await peer.send({ jsonrpc: '2.0', id: list?.id, result: { tools: [] } });
    await expect(pending).resolves.toEqual({ tools: [] });
    const call = peer.received.find((m) => m.method === 'tools/call');
    await peer.send({ jsonrpc: '2.0', id: call?.id, result: { content: [] } });
    await expect(later).resolves.toEqual({ content: [] });
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

describe('Session expiry, messages that met the 404', () => {
  it('holds a request the transport bounced, with what the machine held meanwhile, and sends each once on the new session', async () => {
    const { client, peer, transport, answer } = await operatingClient();
    transport.forgotten = true;
    const call = client.request('tools/call', { name: 'a', arguments: {} });
    // The 404 was reported as the request met it: the machine is resuming, so this one never reaches the transport.
    const note = client.notify('notifications/roots/list_changed');
    await flush();
    expect(transport.bounced).toEqual(['tools/call']);
    expect(client.state).toMatchObject({ kind: 'initializing', phase: 'resuming' });
    expect(client.pendingRequests().map((r) => r.method)).toEqual(['tools/call', 'initialize']);
    transport.forgotten = false;
    await answer('2025-11-25');
    await note;
    const order = peer.received.map((m) => m.method);
    expect(order.slice(order.lastIndexOf('initialize'))).toEqual(['initialize', 'notifications/initialized', 'notifications/roots/list_changed', 'tools/call']);
    expect(peer.received.filter((m) => m.method === 'tools/call')).toHaveLength(1);
    const sent = peer.received.find((m) => m.method === 'tools/call');
    await peer.send({ jsonrpc: '2.0', id: sent?.id, result: { content: [] } });
    await expect(call).resolves.toEqual({ content: [] });
  });

  it('holds a notification the transport bounced and sends it on the new session', async () => {
    const { client, peer, transport, answer } = await operatingClient();
    transport.forgotten = true;
    const note = client.notify('notifications/roots/list_changed');
    await flush();
    expect(transport.bounced).toEqual(['notifications/roots/list_changed']);
    transport.forgotten = false;
    await answer('2025-11-25');
    await expect(note).resolves.toBeUndefined();
    expect(peer.received.filter((m) => m.method === 'notifications/roots/list_changed')).toHaveLength(1);
  });

  it('fails the connection with SessionExpiredError when the replacement is forgotten before it answered (404 after replacement)', async () => {
    const { client, transport, answer } = await operatingClient();
    transport.forgotten = true;
    const call = client.request('tools/call', { name: 'a', arguments: {} });
    await flush();
    transport.forgotten = false;
    // The new session is forgotten at once: its notifications/initialized meets the 404 too.
    const initialize = answer('2025-11-25');
    transport.forgotten = true;
    transport.replacementUnanswered = true;
    await initialize;
    // It never reached a session: it fails with why the connection ended.
    await expect(call).rejects.toMatchObject({ name: 'SessionExpiredError', code: 'SESSION_EXPIRED' });
    await client.closed;
    expect(client.closeInfo).toMatchObject({ reason: 'sessionExpired', error: { name: 'SessionExpiredError', code: 'SESSION_EXPIRED', category: 'interrupted' } });
    expect(client.closeInfo?.error?.message).toContain('right after it was replaced');
  });

  it('rejects held notifications when the connection closes before the session was replaced', async () => {
    const { client, transport } = await operatingClient();
    transport.expire();
    await flush();
    const note = client.notify('notifications/roots/list_changed');
    const call = client.request('tools/list');
    await client.close();
    await expect(note).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(call).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
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
