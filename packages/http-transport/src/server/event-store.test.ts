import type { JsonRpcMessage } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { forgetStreams } from './event-replay.js';
import { InMemoryEventStore, type EventStore, type StoredEvent } from './event-store.js';

const note = (n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });

async function replay(store: InMemoryEventStore, lastEventId: string) {
  const events: StoredEvent[] = [];
  const result = await store.replayAfter(lastEventId, (event) => {
    events.push(event);
  });
  return { result, events, ns: events.map((e) => (e.message as unknown as { params: { n: number } }).params.n) };
}

describe('InMemoryEventStore', () => {
  describe('#append', () => {
    it('assigns per-stream monotonic ids that encode the stream', () => {
      const store = new InMemoryEventStore();
      expect(store.append('a', note(0))).toBe('a:0');
      expect(store.append('a', note(1))).toBe('a:1');
      expect(store.append('b', note(2))).toBe('b:0');
      expect(store.streamIdOf('a:1')).toBe('a');
      expect(store.streamIdOf('s.1:7')).toBe('s.1');
      expect(store.streamIdOf('garbage')).toBeUndefined();
      expect(store.streamIdOf('a:01')).toBeUndefined();
    });
  });

  describe('#unansweredRequests', () => {
    it('lists the tracked requests of a stream that no stored response answers', () => {
      const store = new InMemoryEventStore();
      expect(store.unansweredRequests('s.1')).toBeUndefined();
      store.trackRequests('s.1', { requestIds: [1, 'two', 3], instanceId: 'a' });
      store.append('s.1', undefined);
      store.append('s.1', note(0));
      store.append('s.1', { jsonrpc: '2.0', id: 1, result: {} });
      store.append('s.1', { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'x' } });
      store.append('s.2', { jsonrpc: '2.0', id: 'two', result: {} });
      expect(store.unansweredRequests('s.1')).toEqual({ requestIds: ['two'], instanceId: 'a' });
      store.removeStream('s.1');
      expect(store.unansweredRequests('s.1')).toBeUndefined();
    });
  });

  describe('#removeStreams', () => {
    it('forgets the listed streams and only those', async () => {
      const store = new InMemoryEventStore();
      const kept = store.append('t.0', note(0));
      for (const streamId of ['s.0', 's.1', 's.2']) store.append(streamId, note(1));
      store.removeStreams(['s.0', 's.1', 's.2', 's.9']);
      expect(store.streamCount).toBe(1);
      expect((await replay(store, 's.1:0')).result).toBeUndefined();
      expect((await replay(store, kept)).result).toEqual({ streamId: 't.0', truncated: false });
    });
  });

  describe('forgetStreams', () => {
    it('removes a session\'s streams in one call to a store that removes several, one call each otherwise', () => {
      const batched: (readonly string[])[] = [];
      const single: string[] = [];
      const both: EventStore = { append: () => 'x:0', replayAfter: () => undefined, streamIdOf: () => undefined, removeStreams: (ids) => void batched.push(ids), removeStream: (id) => void single.push(id) };
      forgetStreams(both, 'k', 3);
      expect(batched).toEqual([['k.0', 'k.1', 'k.2']]);
      expect(single).toEqual([]);
      const one: EventStore = { append: () => 'x:0', replayAfter: () => undefined, streamIdOf: () => undefined, removeStream: (id) => void single.push(id) };
      forgetStreams(one, 'k', 3);
      expect(single).toEqual(['k.0', 'k.1', 'k.2']);
      // A store that throws or rejects only keeps its streams longer.
      const failing: EventStore = { append: () => 'x:0', replayAfter: () => undefined, streamIdOf: () => undefined, removeStreams: () => Promise.reject(new Error('down')) };
      expect(() => forgetStreams(failing, 'k', 3)).not.toThrow();
      const throwing: EventStore = { append: () => 'x:0', replayAfter: () => undefined, streamIdOf: () => undefined, removeStreams: () => { throw new Error('down'); } };
      expect(() => forgetStreams(throwing, 'k', 3)).not.toThrow();
    });
  });

  describe('#replayAfter', () => {
    it('replays only later events of the same stream, in order, skipping priming events', async () => {
      const store = new InMemoryEventStore();
      const priming = store.append('a', undefined);
      store.append('a', note(1));
      store.append('b', note(99));
      store.append('a', note(2));
      store.append('a', note(3));
      const fromPriming = await replay(store, priming);
      expect(fromPriming.ns).toEqual([1, 2, 3]);
      expect(fromPriming.result).toEqual({ streamId: 'a', truncated: false });
      expect((await replay(store, 'a:1')).ns).toEqual([2, 3]);
      expect((await replay(store, 'a:3')).ns).toEqual([]);
    });

    it('returns undefined for unknown streams, forged sequence numbers and malformed ids', async () => {
      const store = new InMemoryEventStore();
      store.append('a', note(1));
      expect((await replay(store, 'zzz:0')).result).toBeUndefined();
      expect((await replay(store, 'a:5')).result).toBeUndefined();
      expect((await replay(store, 'nonsense')).result).toBeUndefined();
    });

    it('evicts the oldest events of a stream beyond maxEventsPerStream and reports the gap', async () => {
      const store = new InMemoryEventStore({ maxEventsPerStream: 3 });
      for (let n = 0; n < 10; n++) store.append('a', note(n));
      const fromStart = await replay(store, 'a:0');
      expect(fromStart.ns).toEqual([7, 8, 9]);
      expect(fromStart.result?.truncated).toBe(true);
      const recent = await replay(store, 'a:6');
      expect(recent.ns).toEqual([7, 8, 9]);
      expect(recent.result?.truncated).toBe(false);
    });

    it('keeps working across many evictions (compaction)', async () => {
      const store = new InMemoryEventStore({ maxEventsPerStream: 5 });
      for (let n = 0; n < 1000; n++) store.append('a', note(n));
      expect((await replay(store, 'a:996')).ns).toEqual([997, 998, 999]);
    });

    it('does not lose events appended while a replay is awaiting', async () => {
      const store = new InMemoryEventStore();
      store.append('a', note(0));
      store.append('a', note(1));
      const seen: number[] = [];
      await store.replayAfter('a:0', async (event) => {
        seen.push((event.message as unknown as { params: { n: number } }).params.n);
        if (seen.length === 1) store.append('a', note(2));
        await Promise.resolve();
      });
      expect(seen).toEqual([1]);
      expect((await replay(store, 'a:1')).ns).toEqual([2]);
    });
  });

  describe('maxStreams', () => {
    it('evicts the least recently written stream', async () => {
      const store = new InMemoryEventStore({ maxStreams: 2 });
      store.append('a', note(1));
      store.append('b', note(2));
      store.append('a', note(3));
      store.append('c', note(4));
      expect(store.streamCount).toBe(2);
      expect((await replay(store, 'b:0')).result).toBeUndefined();
      expect((await replay(store, 'a:0')).ns).toEqual([3]);
    });

    it('forgets a removed stream', async () => {
      const store = new InMemoryEventStore();
      store.append('a', note(1));
      store.removeStream('a');
      expect(store.streamCount).toBe(0);
      expect((await replay(store, 'a:0')).result).toBeUndefined();
    });
  });
});
