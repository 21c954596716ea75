import { describe, expect, it } from 'vitest';
import { createOfficialBridge } from './official-bridge.js';

describe('createOfficialBridge', () => {
  describe('#send', () => {
    it('delivers messages both ways as independent copies', async () => {
      const { ours, theirs } = createOfficialBridge();
      const received: unknown[] = [];
      const theirsReceived: unknown[] = [];
      theirs.onmessage = (message) => theirsReceived.push(message);
      await theirs.start();
      await ours.start({ onMessage: (value) => received.push(value), onClose: () => {} });
      const sent = { jsonrpc: '2.0' as const, id: 1, method: 'ping' };
      await ours.send(sent);
      await theirs.send({ jsonrpc: '2.0', id: 1, result: {} });
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(theirsReceived).toEqual([sent]);
      expect(theirsReceived[0]).not.toBe(sent);
      expect(received).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    });
  });

  describe('#close', () => {
    it('reports the close to both sides exactly once', async () => {
      const { ours, theirs } = createOfficialBridge();
      const closes: string[] = [];
      theirs.onclose = () => closes.push('theirs');
      await theirs.start();
      await ours.start({ onMessage: () => {}, onClose: (info) => closes.push(`ours:${info.initiator}`) });
      await ours.close();
      await ours.close();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(closes).toEqual(['ours:local', 'theirs']);
    });
  });
});
