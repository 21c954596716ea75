import { SimulatedClock } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { SseConnection } from './sse-connection.js';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SseConnection', () => {
  describe('#send', () => {
    it('resolves at once while the unread bytes are within the bound', async () => {
      const connection = new SseConnection({ maxBufferedBytes: 100, clock: new SimulatedClock() });
      await expect(connection.send('data: small\n\n')).resolves.toBe('written');
    });

    it('waits while the reader reads nothing, and resumes once it reads (backpressure)', async () => {
      const clock = new SimulatedClock();
      const connection = new SseConnection({ maxBufferedBytes: 16, clock });
      let outcome: string | undefined;
      void connection.send('x'.repeat(64)).then((value) => (outcome = value));
      await settle();
      expect(outcome).toBeUndefined();
      expect(connection.hasRoom).toBe(false);
      const reader = connection.response.body?.getReader();
      await reader?.read();
      await settle();
      expect(outcome).toBe('written');
    });

    it('abandons a connection still full after stalledTimeoutMs, dropping its unread bytes', async () => {
      const clock = new SimulatedClock();
      const connection = new SseConnection({ maxBufferedBytes: 16, stalledTimeoutMs: 5000, clock });
      const reader = connection.response.body?.getReader();
      const sent = connection.send('x'.repeat(64));
      await settle();
      clock.advance(4999);
      expect(connection.open).toBe(true);
      clock.advance(1);
      await expect(sent).resolves.toBe('abandoned');
      expect(connection.open).toBe(false);
      await expect(reader?.read()).rejects.toThrow('read nothing from this SSE stream for 5000 ms');
      await expect(connection.send('later')).resolves.toBe('closed');
    });

    it('releases a waiting sender when the client goes away', async () => {
      const connection = new SseConnection({ maxBufferedBytes: 16, clock: new SimulatedClock() });
      const sent = connection.send('x'.repeat(64));
      await connection.response.body?.cancel();
      await expect(sent).resolves.toBe('written');
      expect(connection.open).toBe(false);
    });
  });

  describe('keep-alive', () => {
    it('writes a comment every keepAliveMs on the injected clock, and stops when closed', async () => {
      const clock = new SimulatedClock();
      const connection = new SseConnection({ keepAliveMs: 1000, clock });
      const reader = connection.response.body?.getReader();
      clock.advance(1000);
      const chunk = await reader?.read();
      expect(new TextDecoder().decode(chunk?.value)).toMatch(/^:/);
      connection.close();
      expect(clock.pendingTimers).toBe(0);
    });
  });
});
