import type { JsonRpcMessage } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../server/shared-state.js';
import type { StoredEvent } from '../server/event-store.js';
import { DurableObjectEventStore } from './storage-event-store.js';
import { DurableObjectSessionStore } from './storage-session-store.js';
import { DurableObjectTaskStore } from './storage-task-store.js';
import { MemoryDurableObjectStorage } from './test-storage.js';

const note = (n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });

const record = (sessionId: string, owner = 'incarnation-a'): SessionRecord => ({
  sessionId,
  protocolVersion: '2025-11-25',
  clientCapabilities: { sampling: {} },
  principal: 'alice',
  owner,
  expiresAt: 0,
});

async function replay(store: DurableObjectEventStore, lastEventId: string) {
  const events: StoredEvent[] = [];
  const result = await store.replayAfter(lastEventId, (event) => {
    events.push(event);
  });
  return { result, ids: events.map((event) => event.id), ns: events.map((event) => (event.message as unknown as { params: { n: number } }).params.n) };
}

describe('DurableObjectSessionStore', () => {
  describe('#get', () => {
    it('returns the record until its time to live has passed, then deletes it', async () => {
      let now = 1_000;
      const storage = new MemoryDurableObjectStorage();
      const store = new DurableObjectSessionStore(storage, { now: () => now });
      await store.put(record('s1'), 500);
      expect(await store.get('s1')).toMatchObject({ sessionId: 's1', owner: 'incarnation-a', principal: 'alice', expiresAt: 1_500 });
      expect(storage.alarm).toBe(1_500);
      now = 1_500;
      expect(await store.get('s1')).toBeUndefined();
      expect(storage.entries.size).toBe(0);
    });
  });

  describe('#touch', () => {
    it('restarts the time to live of a live record and reports a gone one', async () => {
      let now = 0;
      const store = new DurableObjectSessionStore(new MemoryDurableObjectStorage(), { now: () => now });
      await store.put(record('s1'), 100);
      now = 90;
      expect(await store.touch('s1', 100)).toBe(true);
      now = 150;
      expect((await store.get('s1'))?.expiresAt).toBe(190);
      expect(await store.touch('s2', 100)).toBe(false);
    });
  });

  describe('#claim', () => {
    it('moves the record to the new incarnation only when it still names the expected one', async () => {
      const store = new DurableObjectSessionStore(new MemoryDurableObjectStorage(), { now: () => 0 });
      await store.put(record('s1'), 100);
      expect(await store.claim('s1', 'incarnation-x', 'incarnation-b', 100)).toBeUndefined();
      expect(await store.claim('s1', 'incarnation-a', 'incarnation-b', 200)).toMatchObject({ owner: 'incarnation-b', expiresAt: 200 });
      expect(await store.claim('s1', 'incarnation-a', 'incarnation-c', 200)).toBeUndefined();
      expect((await store.get('s1'))?.owner).toBe('incarnation-b');
      expect(await store.claim('gone', 'incarnation-a', 'incarnation-b', 100)).toBeUndefined();
    });
  });

  describe('#delete', () => {
    it('reports whether a record was there', async () => {
      const store = new DurableObjectSessionStore(new MemoryDurableObjectStorage());
      await store.put(record('s1'), 100_000);
      expect(await store.delete('s1')).toBe(true);
      expect(await store.delete('s1')).toBe(false);
      expect(await store.records()).toEqual([]);
    });
  });
});

describe('DurableObjectEventStore', () => {
  describe('#append', () => {
    it('assigns per-stream monotonic ids that encode the stream, whatever the stream id holds', async () => {
      const store = new DurableObjectEventStore(new MemoryDurableObjectStorage());
      expect(await store.append('a', note(0))).toBe('a:0');
      expect(await store.append('a', note(1))).toBe('a:1');
      expect(await store.append('a:b', note(2))).toBe('a:b:0');
      expect(store.streamIdOf('a:b:0')).toBe('a:b');
      expect(store.streamIdOf('a:01')).toBeUndefined();
      expect((await replay(store, 'a:0')).ns).toEqual([1]);
      await expect(store.append('bad\nid', note(0))).rejects.toThrow(RangeError);
    });

    it('serializes concurrent appends to one stream', async () => {
      const store = new DurableObjectEventStore(new MemoryDurableObjectStorage());
      const ids = await Promise.all([0, 1, 2, 3].map((n) => store.append('s', note(n))));
      expect(ids).toEqual(['s:0', 's:1', 's:2', 's:3']);
      expect((await replay(store, 's:0')).ns).toEqual([1, 2, 3]);
    });
  });

  describe('#replayAfter', () => {
    it('replays only later events of the same stream, in order, skipping priming events', async () => {
      const store = new DurableObjectEventStore(new MemoryDurableObjectStorage());
      const priming = await store.append('a', undefined);
      await store.append('a', note(1));
      await store.append('b', note(99));
      await store.append('a', note(2));
      const fromPriming = await replay(store, priming);
      expect(fromPriming).toEqual({ result: { streamId: 'a', truncated: false }, ids: ['a:1', 'a:2'], ns: [1, 2] });
      expect((await replay(store, 'a:2')).ns).toEqual([]);
    });

    it('returns undefined for unknown streams, forged sequence numbers and malformed ids', async () => {
      const store = new DurableObjectEventStore(new MemoryDurableObjectStorage());
      await store.append('a', note(0));
      expect((await replay(store, 'zzz:0')).result).toBeUndefined();
      expect((await replay(store, 'a:5')).result).toBeUndefined();
      expect((await replay(store, 'garbage')).result).toBeUndefined();
    });

    it('keeps the last maxEventsPerStream events and reports a replay from before them as truncated', async () => {
      const storage = new MemoryDurableObjectStorage();
      const store = new DurableObjectEventStore(storage, { maxEventsPerStream: 2 });
      for (let n = 0; n < 5; n++) await store.append('a', note(n));
      expect([...storage.entries.keys()].filter((key) => key.startsWith('event:'))).toHaveLength(2);
      expect(await replay(store, 'a:0')).toEqual({ result: { streamId: 'a', truncated: true }, ids: ['a:3', 'a:4'], ns: [3, 4] });
      expect((await replay(store, 'a:2')).result).toEqual({ streamId: 'a', truncated: false });
    });

    it('pages through long streams', async () => {
      const store = new DurableObjectEventStore(new MemoryDurableObjectStorage());
      for (let n = 0; n < 450; n++) await store.append('long', note(n));
      const replayed = await replay(store, 'long:0');
      expect(replayed.ns).toHaveLength(449);
      expect(replayed.ns.at(-1)).toBe(449);
    });
  });

  describe('#unansweredRequests', () => {
    it('lists the tracked requests that no stored response answers, until the stream is removed', async () => {
      const storage = new MemoryDurableObjectStorage();
      const store = new DurableObjectEventStore(storage);
      expect(await store.unansweredRequests('s.1')).toBeUndefined();
      await store.trackRequests('s.1', { requestIds: [1, 'two'], instanceId: 'a' });
      await store.append('s.1', undefined);
      await store.append('s.1', { jsonrpc: '2.0', id: 1, result: {} });
      expect(await store.unansweredRequests('s.1')).toEqual({ requestIds: ['two'], instanceId: 'a' });
      await store.removeStream('s.1');
      expect(await store.unansweredRequests('s.1')).toBeUndefined();
      expect(storage.entries.size).toBe(0);
    });
  });

  describe('#removeStreams', () => {
    it('deletes every key of the streams in batched storage calls, after their pending appends, and leaves other streams alone', async () => {
      const storage = new MemoryDurableObjectStorage();
      const deletes: number[] = [];
      const deleteKeys = storage.delete.bind(storage) as (keys: string[]) => Promise<number>;
      storage.delete = ((keys: string[]) => {
        deletes.push(keys.length);
        return deleteKeys(keys);
      }) as typeof storage.delete;
      const store = new DurableObjectEventStore(storage);
      for (let n = 0; n < 12; n++) for (let event = 0; event < 20; event++) await store.append(`s.${n}`, note(event));
      await store.append('other', note(0));
      const late = store.append('s.3', note(20));
      await store.removeStreams(Array.from({ length: 12 }, (_, n) => `s.${n}`));
      expect(await late).toBe('s.3:20');
      expect(deletes).toEqual([128, 125]);
      expect([...storage.entries.keys()].sort()).toEqual(['event:5:other:0000000000000000', 'stream:5:other']);
      expect((await replay(store, 'other:0')).result).toEqual({ streamId: 'other', truncated: false });
      await store.removeStreams([]);
      expect(deletes).toHaveLength(2);
    });
  });
});

describe('DurableObjectTaskStore', () => {
  const task = (taskId: string, expiresAt: number | null) => ({ task: { taskId, status: 'working' }, expiresAt });

  it('stores, replaces and forgets records, and drops them at their expiry', async () => {
    let now = 0;
    const store = new DurableObjectTaskStore<ReturnType<typeof task>>(new MemoryDurableObjectStorage(), { now: () => now });
    await store.create(task('t1', 100));
    await store.create(task('t2', null));
    await store.put({ ...task('t1', 100), task: { taskId: 't1', status: 'completed' } });
    expect((await store.get('t1'))?.task.status).toBe('completed');
    now = 100;
    expect(await store.get('t1')).toBeUndefined();
    await store.put(task('t1', 500));
    expect(await store.get('t1')).toBeUndefined();
    expect((await store.get('t2'))?.task.taskId).toBe('t2');
    await store.delete('t2');
    expect(await store.get('t2')).toBeUndefined();
  });
});
