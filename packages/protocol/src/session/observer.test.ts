import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CHANNEL_NAMES } from '../observability/diagnostics.js';
import type { InspectEvent } from '../observability/events.js';
import { SimulatedClock } from './clock.js';
import type { LedgerRecord } from './ledger.js';
import { SessionObserver } from './observer.js';

const record = { direction: 'inbound', id: 3, method: 'tools/call', state: 'dispatched', startedAt: 0, trace: undefined, input: undefined } as unknown as LedgerRecord;

function emitAll(observer: SessionObserver): void {
  observer.request(record, 'created', 'dispatch');
  observer.messageIn({ jsonrpc: '2.0', id: 3, method: 'tools/call' });
  observer.messageOut({ jsonrpc: '2.0', id: 3, result: {} });
}

describe('SessionObserver', () => {
  describe('#request, #messageIn, #messageOut', () => {
    it('hands each event to the inspect listener', () => {
      const clock = new SimulatedClock();
      clock.advance(5);
      const events: InspectEvent[] = [];
      emitAll(new SessionObserver('s1', clock, (event) => events.push(event)));
      expect(events.map((event) => event.type)).toEqual(['request.transition', 'message.in', 'message.out']);
      expect(events[0]).toEqual({
        type: 'request.transition',
        sessionId: 's1',
        at: 5,
        requestId: 3,
        direction: 'inbound',
        method: 'tools/call',
        from: 'created',
        to: 'dispatched',
        event: 'dispatch',
        elapsedMs: 5,
      });
    });

    it('publishes on a subscribed diagnostics channel without an inspect listener', () => {
      const seen: unknown[] = [];
      const listener = (message: unknown) => seen.push(message);
      subscribe(DIAGNOSTIC_CHANNEL_NAMES['message.in'], listener);
      try {
        emitAll(new SessionObserver('s2', new SimulatedClock(), undefined));
      } finally {
        unsubscribe(DIAGNOSTIC_CHANNEL_NAMES['message.in'], listener);
      }
      expect(seen).toEqual([{ type: 'message.in', sessionId: 's2', at: 0, message: { jsonrpc: '2.0', id: 3, method: 'tools/call' } }]);
    });

    it('reads no clock when nobody listens', () => {
      const clock = new SimulatedClock();
      let reads = 0;
      const counted = Object.assign(Object.create(clock) as SimulatedClock, { now: () => (reads++, clock.now()) });
      emitAll(new SessionObserver('s3', counted, undefined));
      expect(reads).toBe(0);
    });

    it('keeps the session going when the inspect listener throws', () => {
      const observer = new SessionObserver('s4', new SimulatedClock(), () => {
        throw new Error('inspector failed');
      });
      expect(() => emitAll(observer)).not.toThrow();
    });
  });
});
