import { ConnectionClosedError, SimulatedClock, type JsonRpcMessage, type Transport, type TransportSink } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { createPeer, flush } from '../test/peer.js';
import { createScriptedServer } from '../test/scripted-server.js';
import { Client } from './client.js';

const info = { name: 'test-client', version: '1.0.0' };

/** A transport that answers initialize but never reports closing, whatever it is asked. */
class StuckTransport implements Transport {
  sink: TransportSink | undefined;
  closeCalls = 0;
  terminateCalls = 0;

  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if ('method' in message && message.method === 'initialize' && 'id' in message) {
      const { id } = message;
      queueMicrotask(() =>
        this.sink?.onMessage({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'stuck', version: '1' } } }),
      );
    }
  }

  close(): Promise<void> {
    this.closeCalls++;
    return new Promise<void>(() => {});
  }

  terminate(): Promise<void> {
    this.terminateCalls++;
    return new Promise<void>(() => {});
  }
}

describe('Client', () => {
  describe('#close', () => {
    it('settles within closeDeadlineMs when the transport never reports closing', async () => {
      const clock = new SimulatedClock();
      const transport = new StuckTransport();
      const closes: string[] = [];
      // StuckTransport answers only the handshake: the legacy era is pinned.
      const client = new Client(info, { era: 'legacy', clock, closeDeadlineMs: 5_000, onclose: (closeInfo) => closes.push(closeInfo.reason) });
      await client.connect(transport);
      const pending = client.listTools();
      pending.catch(() => undefined);
      await flush();

      let settled = false;
      const closing = client.close().then(() => (settled = true));
      await flush();
      expect(client.state.kind).toBe('shuttingDown');
      await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);

      clock.advance(4_999);
      await flush();
      expect(settled).toBe(false);

      clock.advance(1);
      await closing;
      expect(client.state).toMatchObject({ kind: 'terminated', reason: 'closeTimeout' });
      await expect(client.closed).resolves.toMatchObject({ reason: 'closeTimeout' });
      expect(transport.closeCalls).toBe(1);
      expect(transport.terminateCalls).toBe(1);
      expect(closes).toEqual(['closeTimeout']);
      expect(clock.pendingTimers).toBe(0);
    });

    it('is idempotent and fires onclose exactly once', async () => {
      let closes = 0;
      const peer = createPeer({ client: { onclose: () => closes++ } });
      await peer.connect();
      await Promise.all([peer.client.close(), peer.client.close()]);
      await peer.client.close();
      expect(closes).toBe(1);
      expect(peer.client.state).toMatchObject({ kind: 'terminated', reason: 'closed' });
      await peer.server.closed;
      expect(peer.server.state.kind).toBe('terminated');
    });

    it('sends notifications/cancelled for every pending call and rejects it with ConnectionClosedError', async () => {
      const server = await createScriptedServer();
      const client = new Client(info);
      await client.connect(server.clientSide);
      const a = client.listTools();
      const b = client.callTool({ name: 'slow' });
      await flush();
      const ids = [...server.requests('tools/list'), ...server.requests('tools/call')].map((m) => m.id);
      await client.close();
      await expect(a).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      await expect(b).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      expect(server.notifications('notifications/cancelled').map((m) => m.params?.requestId)).toEqual(ids);
    });

    it('makes a running connect() reject, without cancelling initialize on the wire', async () => {
      const server = await createScriptedServer({ holdInitialize: true });
      const client = new Client(info);
      const connecting = client.connect(server.clientSide);
      await flush();
      await client.close();
      await expect(connecting).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      expect(client.state.kind).toBe('terminated');
      expect(server.notifications('notifications/cancelled')).toHaveLength(0);
    });

    it('resolves at once when the client never connected', async () => {
      const client = new Client(info);
      await client.close();
      expect(client.state.kind).toBe('terminated');
    });

    it('ends in peerClosed when the server closes the connection', async () => {
      const peer = createPeer();
      await peer.connect();
      await peer.server.close();
      await expect(peer.client.closed).resolves.toMatchObject({ reason: 'peerClosed' });
    });
  });

  describe('#terminate', () => {
    it('ends the connection at once even if the transport never reports closing', async () => {
      const transport = new StuckTransport();
      const client = new Client(info, { era: 'legacy', clock: new SimulatedClock() });
      await client.connect(transport);
      await client.terminate();
      expect(client.state).toMatchObject({ kind: 'terminated', reason: 'terminated' });
    });
  });
});
