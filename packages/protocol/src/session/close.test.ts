import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../jsonrpc/messages.js';
import type { Transport, TransportSink } from '../transport/transport.js';
import { SimulatedClock } from './clock.js';
import { Session } from './session.js';
import { clientWithRawServer, createPair, flush } from './test-support.js';

/** A transport whose close() never finishes and never reports closing. */
class StuckTransport implements Transport {
  sink: TransportSink | undefined;
  sent: JsonRpcMessage[] = [];
  terminated = false;
  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }
  async send(message: JsonRpcMessage): Promise<void> {
    this.sent.push(message);
  }
  close(): Promise<void> {
    return new Promise(() => {});
  }
  async terminate(): Promise<void> {
    this.terminated = true;
  }
}

describe('Session', () => {
  describe('#close', () => {
    it.each(['client', 'server'] as const)('closing from the %s side settles every pending promise on both sides and fires onclose once each', async (side) => {
      let clientCloses = 0;
      let serverCloses = 0;
      const pair = createPair({ client: { onclose: () => clientCloses++ }, server: { onclose: () => serverCloses++ } });
      pair.server.setRequestHandler('tools/list', () => new Promise(() => {}));
      pair.client.setRequestHandler('roots/list', () => new Promise(() => {}));
      await pair.handshake();
      const fromClient = pair.client.request('tools/list');
      const fromServer = pair.server.request('roots/list');
      await flush();
      await (side === 'client' ? pair.client : pair.server).close();
      await Promise.all([pair.client.closed, pair.server.closed]);
      await expect(fromClient).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      await expect(fromServer).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      await pair.client.close();
      await pair.server.close();
      expect([clientCloses, serverCloses]).toEqual([1, 1]);
      expect(pair.client.state.kind).toBe('terminated');
      expect(pair.server.state.kind).toBe('terminated');
      expect(pair.clock.pendingTimers).toBe(0);
    });

    it.each(['client', 'server'] as const)('closes cleanly from the %s side when the server never sent a request (it holds no deadlines)', async (side) => {
      let serverCloses = 0;
      const pair = createPair({ server: { onclose: () => serverCloses++ } });
      await pair.handshake();
      await (side === 'client' ? pair.client : pair.server).close();
      await Promise.all([pair.client.closed, pair.server.closed]);
      expect(serverCloses).toBe(1);
      expect(pair.server.state.kind).toBe('terminated');
      expect(pair.clock.pendingTimers).toBe(0);
    });

    it('sends notifications/cancelled for each pending request except initialize', async () => {
      const { client, peer, initialized } = await clientWithRawServer();
      await initialized;
      void client.request('tools/list').catch(() => {});
      void client.request('tools/call', { name: 'a' }).catch(() => {});
      await flush();
      const ids = peer.received.filter((m) => 'id' in m && m.method !== 'initialize').map((m) => m.id);
      await client.close();
      await flush();
      const cancelled = peer.sent('notifications/cancelled').map((m) => (m.params as { requestId: unknown }).requestId);
      expect(cancelled).toEqual(ids);
      expect(client.closeInfo).toMatchObject({ reason: 'closed' });
    });

    it('finishes within the deadline when the transport never reports closing', async () => {
      const clock = new SimulatedClock();
      const transport = new StuckTransport();
      let closes = 0;
      const session = new Session({ role: 'client', clock, capabilities: () => ({}), closeDeadlineMs: 500, onclose: () => closes++ });
      await session.connect(transport);
      const init = session.initialize({ capabilities: {}, clientInfo: { name: 'c', version: '1' } });
      const closing = session.close();
      const initOutcome = init.then(() => 'resolved', (e: { code: string }) => e.code);
      expect(session.state.kind).toBe('shuttingDown');
      clock.advance(500);
      await closing;
      await expect(initOutcome).resolves.toBe('CONNECTION_CLOSED');
      expect(session.state).toMatchObject({ kind: 'terminated', reason: 'closeTimeout' });
      expect(transport.terminated).toBe(true);
      expect(closes).toBe(1);
      expect(transport.sent.filter((m) => 'method' in m && m.method === 'notifications/cancelled')).toHaveLength(0);
    });

    it('terminate() ends at once and is idempotent', async () => {
      const pair = createPair();
      await pair.handshake();
      const pending = pair.client.request('ping');
      await pair.client.terminate();
      await pair.client.terminate();
      await expect(pending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      expect(pair.client.state).toMatchObject({ kind: 'terminated', reason: 'terminated' });
    });

    it('refuses requests after close with a typed error', async () => {
      const pair = createPair();
      await pair.handshake();
      await pair.client.close();
      await expect(pair.client.request('ping')).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      await expect(pair.client.connect(pair.clientTransport)).rejects.toMatchObject({ code: 'ALREADY_CONNECTED' });
    });

    it('records the peer closing as peerClosed, passing through ShuttingDown', async () => {
      const pair = createPair();
      const kinds: string[] = [];
      pair.server.onTransition((to) => kinds.push(to.kind));
      await pair.handshake();
      await pair.clientTransport.close();
      await pair.server.closed;
      expect(kinds).toEqual(['initializing', 'initialized', 'operating', 'shuttingDown', 'terminated']);
      expect(pair.server.closeInfo).toMatchObject({ reason: 'peerClosed' });
    });
  });

  describe('#connect', () => {
    it('throws AlreadyConnectedError on a second connect', async () => {
      const pair = createPair();
      await pair.connect();
      await expect(pair.client.connect(pair.clientTransport)).rejects.toMatchObject({ name: 'AlreadyConnectedError', code: 'ALREADY_CONNECTED' });
    });
  });

  describe('#inspect', () => {
    it('reports session transitions, request transitions and messages with ids', async () => {
      const events: { type: string; requestId?: unknown; to?: string }[] = [];
      const pair = createPair({ client: { inspect: (e) => events.push(e) } });
      pair.server.setRequestHandler('tools/list', () => ({ tools: [] }));
      await pair.handshake();
      await pair.client.request('tools/list');
      const types = new Set(events.map((e) => e.type));
      expect(types).toEqual(new Set(['session.transition', 'request.transition', 'message.in', 'message.out']));
      const toolsRequest = events.filter((e) => e.type === 'request.transition' && e.requestId === 2).map((e) => e.to);
      expect(toolsRequest).toEqual(['created', 'dispatched', 'completed']);
    });
  });
});

/** A transport whose sends finish only when released, and which records when close() is called. */
class SlowSendTransport implements Transport {
  sink: TransportSink | undefined;
  events: string[] = [];
  #pending: (() => void)[] = [];
  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }
  send(message: JsonRpcMessage): Promise<void> {
    const label = 'method' in message ? message.method : 'response';
    return new Promise((resolve) => {
      this.#pending.push(() => {
        this.events.push(`sent ${label}`);
        resolve();
      });
    });
  }
  release(): void {
    const pending = this.#pending;
    this.#pending = [];
    for (const done of pending) done();
  }
  async close(): Promise<void> {
    this.events.push('close');
    this.sink?.onClose({ initiator: 'local' });
  }
}

describe('Session #close ordering', () => {
  it('closes the transport only after the cancellations are sent (an HTTP transport aborts POSTs in flight)', async () => {
    // Start operating as a stateless exchange would, then leave a request pending.
    const assumed = new Session({ role: 'server', clock: new SimulatedClock(), capabilities: () => ({}), strictCapabilities: false });
    const fresh = new SlowSendTransport();
    Object.defineProperty(fresh, 'assumedProtocolVersion', { value: '2025-11-25' });
    await assumed.connect(fresh);
    const pending = assumed.request('ping');
    fresh.release();
    await flush();
    const closing = assumed.close();
    await flush();
    expect(fresh.events).toEqual(['sent ping']);
    fresh.release();
    await closing;
    await expect(pending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(fresh.events).toEqual(['sent ping', 'sent notifications/cancelled', 'close']);
  });
});
