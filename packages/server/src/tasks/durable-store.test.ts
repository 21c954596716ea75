import { describe, expect, it } from 'vitest';
import { MemoryTaskStore, type StoredTask } from './durable-store.js';

function record(taskId: string, status: StoredTask['task']['status'], expiresAt: number | null = null): StoredTask {
  const stamp = '2026-11-25T00:00:00.000Z';
  return { task: { taskId, status, createdAt: stamp, lastUpdatedAt: stamp, ttlMs: null }, owner: undefined, inputRequests: {}, inputKeysIssued: 0, expiresAt };
}

describe('MemoryTaskStore', () => {
  describe('#create', () => {
    it('makes room by dropping the oldest finished task first, then the oldest', () => {
      const store = new MemoryTaskStore({ maxTasks: 2 });
      store.create(record('a', 'working'));
      store.create(record('b', 'completed'));
      store.create(record('c', 'working'));
      expect([store.get('a'), store.get('b'), store.get('c')].map((found) => found?.task.taskId)).toEqual(['a', undefined, 'c']);
      store.create(record('d', 'working'));
      expect(store.get('a')).toBeUndefined();
      expect(store.size).toBe(2);
    });
  });

  describe('#get', () => {
    it('returns a copy and forgets a record at its expiry', () => {
      let now = 1_000;
      const store = new MemoryTaskStore({ now: () => now });
      store.create(record('t', 'working', 2_000));
      const copy = store.get('t');
      expect(copy?.task.status).toBe('working');
      now = 1_999;
      expect(store.get('t')).toBeDefined();
      now = 2_000;
      expect(store.get('t')).toBeUndefined();
      expect(store.size).toBe(0);
    });
  });

  describe('#put', () => {
    it('replaces a held record and does not resurrect a deleted one', () => {
      const store = new MemoryTaskStore();
      store.create(record('t', 'working'));
      store.put(record('t', 'completed'));
      expect(store.get('t')?.task.status).toBe('completed');
      store.delete('t');
      store.put(record('t', 'failed'));
      expect(store.get('t')).toBeUndefined();
    });
  });
});
