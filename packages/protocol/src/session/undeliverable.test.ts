/** The transport reports requests it cannot deliver; the runner settles them locally (issue 11 #2). */
import { describe, expect, it } from 'vitest';
import { TransportError, type McpError } from '../errors/errors.js';
import { clientOnScriptedTransport, flush } from './test-support.js';

describe('Session', () => {
  describe('#onUndeliverable', () => {
    it('settles each pending request with an interrupted TransportError whose cause is the transport error', async () => {
      const { client, transport } = await clientOnScriptedTransport();
      const first = client.request('tools/list', {}).catch((error: unknown) => error);
      const second = client.request('tools/list', { cursor: 'b' }).catch((error: unknown) => error);
      await flush();
      const ids = transport.sent.filter((m) => 'method' in m && m.method === 'tools/list').map((m) => (m as { id: number }).id);
      expect(ids).toHaveLength(2);
      const cause = new Error('SSE stream died');
      transport.sink.onUndeliverable?.([ids[0] as number, 12345], cause);
      const error = await first;
      expect(error).toBeInstanceOf(TransportError);
      expect((error as McpError).category).toBe('interrupted');
      expect((error as Error).cause).toBe(cause);
      expect(client.pendingRequests().map((r) => r.id)).toEqual([ids[1]]);
      transport.answer(ids[1] as number, { tools: [] });
      expect(await second).toEqual({ tools: [] });
      expect(client.state.kind).toBe('operating');
    });

    it('ignores ids that already settled: a late report changes nothing', async () => {
      const { client, transport } = await clientOnScriptedTransport();
      const done = client.request('tools/list', {});
      await flush();
      const id = transport.lastRequest('tools/list').id;
      transport.answer(id, { tools: [] });
      await expect(done).resolves.toEqual({ tools: [] });
      transport.sink.onUndeliverable?.([id], new Error('late'));
      expect(client.pendingRequests()).toEqual([]);
    });
  });
});
