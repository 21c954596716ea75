/** Requests that stay open by design (a `subscriptions/listen` stream): no timer, the id known up front. */
import { describe, expect, it } from 'vitest';
import type { RequestId } from '../jsonrpc/messages.js';
import { RequestCancelledError } from '../errors/errors.js';
import { clientWithRawServer, flush } from './test-support.js';

describe('Session requests that stay open', () => {
  describe('#request with timeoutMs Infinity', () => {
    it('arms no timer: the request waits however long the clock runs, until it is answered', async () => {
      const { client, peer, clock } = await clientWithRawServer();
      const pending = client.request('tools/list', {}, { timeoutMs: Infinity });
      await flush();
      clock.advance(365 * 24 * 3600 * 1000);
      await flush();
      const sent = peer.sent('tools/list')[0];
      expect(sent).toBeDefined();
      expect(peer.sent('notifications/cancelled')).toEqual([]);
      await peer.send({ jsonrpc: '2.0', id: sent?.id, result: { tools: [] } });
      await expect(pending).resolves.toEqual({ tools: [] });
    });
  });

  describe('#request onRequestId', () => {
    it('hands over the JSON-RPC id before the request is written, and the signal still cancels it', async () => {
      const { client, peer } = await clientWithRawServer();
      const ids: RequestId[] = [];
      const controller = new AbortController();
      const pending = client.request('tools/list', {}, { timeoutMs: Infinity, signal: controller.signal, onRequestId: (id) => ids.push(id) });
      expect(ids).toHaveLength(1);
      await flush();
      expect(peer.sent('tools/list')[0]?.id).toBe(ids[0]);
      controller.abort('done listening');
      await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
      await flush();
      expect(peer.sent('notifications/cancelled')[0]?.params).toEqual({ requestId: ids[0], reason: 'done listening' });
    });
  });
});
