/**
 * Issue 18 #1: `initialize`, `notifications/initialized` and `tools/list` written in one chunk
 * are all answered, in order, also with `strictInitialized: true` and an `onInitialize` that
 * takes its time.
 */
import { describe, expect, it } from 'vitest';
import { flush, serverWithRawClient } from './test-support.js';

async function slowly<T>(value: T): Promise<T> {
  await flush(5);
  return value;
}

describe('Session (server)', () => {
  describe('pipelined handshake', () => {
    it.each([false, true])('answers initialize then tools/list when all three arrive at once (strictInitialized: %s)', async (strictInitialized) => {
      const { peer, server } = await serverWithRawClient({
        server: {
          strictInitialized,
          onInitialize: (_params, version) => slowly({ protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } }),
        },
      });
      server.setRequestHandler('tools/list', () => ({ tools: [] }));
      const sends = [
        peer.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
        peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      ];
      await Promise.all(sends);
      await flush(40);
      const replies = peer.received.filter((m) => 'id' in m);
      expect(replies.map((m) => m.id)).toEqual([1, 2]);
      expect(replies[0]).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
      expect(replies[1]).toEqual({ jsonrpc: '2.0', id: 2, result: { tools: [] } });
      expect(server.state.kind).toBe('operating');
    });

    it('holds later frames behind a failing initialize and answers them in the state it leaves', async () => {
      const { peer, server } = await serverWithRawClient({
        server: {
          onInitialize: async () => {
            await flush(5);
            throw new Error('no thanks');
          },
        },
      });
      await Promise.all([
        peer.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
        peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      ]);
      await flush(40);
      const replies = peer.received.filter((m) => 'id' in m);
      expect(replies.map((m) => m.id)).toEqual([1, 2]);
      expect(replies[1]).toMatchObject({ error: { code: -32600, message: expect.stringContaining('before initialization') as string } });
      expect(server.state.kind).toBe('uninitialized');
    });
  });
});
