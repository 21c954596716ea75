import { SimulatedClock } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { TASK_TRANSITIONS, TaskStore, isTerminal } from './task-store.js';
import type { TaskStatus } from '../wire-types.js';

const STATUSES: TaskStatus[] = ['working', 'input_required', 'completed', 'failed', 'cancelled'];

describe('TaskStore', () => {
  describe('#setStatus', () => {
    const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));
    it.each(pairs)('moves %s → %s only when the status graph allows it', (from, to) => {
      const store = new TaskStore(new SimulatedClock(), {}, () => {});
      const record = store.create('owner', undefined);
      const path: Record<TaskStatus, TaskStatus[]> = { working: [], input_required: ['input_required'], completed: ['completed'], failed: ['failed'], cancelled: ['cancelled'] };
      for (const step of path[from]) store.setStatus(record, step);
      expect(record.task.status).toBe(from);
      const allowed = TASK_TRANSITIONS[from].includes(to);
      expect(store.setStatus(record, to)).toBe(allowed);
      expect(record.task.status).toBe(allowed ? to : from);
    });

    it('marks only completed, failed and cancelled terminal', () => {
      expect(STATUSES.filter(isTerminal)).toEqual(['completed', 'failed', 'cancelled']);
    });
  });

  describe('#create', () => {
    it('caps the ttl and deletes the task when it elapses', () => {
      const clock = new SimulatedClock();
      const store = new TaskStore(clock, { defaultTtlMs: 100, maxTtlMs: 1_000 }, () => {});
      expect(store.create('o', 5_000).task.ttl).toBe(1_000);
      const record = store.create('o', undefined);
      expect(record.task.ttl).toBe(100);
      clock.advance(100);
      expect(store.get('o', record.task.taskId)).toBeUndefined();
      expect(record.controller.signal.aborted).toBe(true);
    });
  });

  describe('#whenTerminal', () => {
    it('resolves once the task reaches a terminal status', async () => {
      const store = new TaskStore(new SimulatedClock(), {}, () => {});
      const record = store.create('o', undefined);
      let done = false;
      const waiting = store.whenTerminal(record).then(() => (done = true));
      store.setStatus(record, 'input_required');
      await Promise.resolve();
      expect(done).toBe(false);
      store.finish(record, { result: { content: [] } }, 'completed');
      await waiting;
      expect(done).toBe(true);
      store.finish(record, { result: {} }, 'failed');
      expect(record.task.status).toBe('completed');
    });
  });

  describe('#dropOwner', () => {
    it('cancels and forgets every task of an owner', () => {
      const store = new TaskStore(new SimulatedClock(), {}, () => {});
      const mine = store.create('me', undefined);
      store.create('you', undefined);
      store.dropOwner('me');
      expect(store.list('me')).toEqual([]);
      expect(store.list('you')).toHaveLength(1);
      expect(mine.task.status).toBe('cancelled');
    });
  });
});
