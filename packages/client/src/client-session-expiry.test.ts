/** Calls made while the session re-runs its handshake after an expiry wait in the ledger (issue 11 #4). */
import type { JsonObject, JsonRpcMessage, JsonRpcRequest, RequestId, Transport, TransportSink } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { flush } from '../test/peer.js';
import { Client } from './client.js';

/** The transport side of the contract, by hand: records what is sent and exposes the sink. */
class ExpiringTransport implements Transport {
  readonly sent: JsonRpcMessage[] = [];
  sink: TransportSink | undefined;

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    return Promise.resolve();
  }

  send(message: JsonRpcMessage): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.sink?.onClose({ initiator: 'local' });
    return Promise.resolve();
  }

  lastId(method: string): RequestId {
    const found = this.sent.filter((m): m is JsonRpcRequest => 'method' in m && 'id' in m && m.method === method).at(-1);
    if (found === undefined) throw new Error(`no ${method} was sent`);
    return found.id;
  }

  answer(id: RequestId, result: JsonObject): void {
    this.sink?.onMessage({ jsonrpc: '2.0', id, result });
  }

  count(method: string): number {
    return this.sent.filter((m) => 'method' in m && m.method === method).length;
  }
}

const initializeResult = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } };

describe('Client', () => {
  describe('calls made while the session is resumed after it expired', () => {
    it('wait in the ledger as created and go out after the new notifications/initialized', async () => {
      const transport = new ExpiringTransport();
      // A session that expires is the legacy era's (Streamable HTTP sessions): pinned.
      const client = new Client({ name: 'c', version: '1' }, { era: 'legacy' });
      const connecting = client.connect(transport);
      await flush();
      transport.answer(transport.lastId('initialize'), initializeResult);
      await connecting;
      transport.sink?.onSessionExpired?.();
      await flush();
      const listing = client.listTools();
      await flush();
      expect(client.session.pendingRequests().map((r) => [r.method, r.state])).toEqual([
        ['initialize', 'dispatched'],
        ['tools/list', 'created'],
      ]);
      expect(transport.count('tools/list')).toBe(0);
      transport.answer(transport.lastId('initialize'), initializeResult);
      await flush();
      expect(client.session.state.kind).toBe('operating');
      expect(transport.count('notifications/initialized')).toBe(2);
      const initializedAt = transport.sent.findLastIndex((m) => 'method' in m && m.method === 'notifications/initialized');
      const listAt = transport.sent.findLastIndex((m) => 'method' in m && m.method === 'tools/list');
      expect(listAt).toBeGreaterThan(initializedAt);
      transport.answer(transport.lastId('tools/list'), { tools: [] });
      await expect(listing).resolves.toEqual({ tools: [] });
      await client.close();
    });
  });
});
