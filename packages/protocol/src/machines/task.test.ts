import { describe, expect, it } from 'vitest';
import { renderTaskMermaid } from './mermaid.js';
import { TASK_EVENT_TYPES, TASK_STATUS_KINDS, TASK_TABLE, isTaskTerminal, taskEventBetween, taskSuccessors, taskTransition } from './task.js';

describe('task machine', () => {
  describe('#taskTransition', () => {
    it('moves working to input_required and back when input arrives', () => {
      const waiting = taskTransition('working', 'needInput');
      expect(waiting).toEqual({ status: 'input_required', changed: true });
      expect(taskTransition(waiting.status, 'inputReceived')).toEqual({ status: 'working', changed: true });
    });

    it('keeps cancelled when the work finishes afterwards', () => {
      const cancelled = taskTransition('working', 'cancel');
      expect(cancelled.status).toBe('cancelled');
      expect(taskTransition(cancelled.status, 'complete')).toEqual({ status: 'cancelled', changed: false });
      expect(taskTransition(cancelled.status, 'fail')).toEqual({ status: 'cancelled', changed: false });
    });

    it('ignores every event in each terminal status', () => {
      for (const status of TASK_STATUS_KINDS.filter(isTaskTerminal)) {
        for (const event of TASK_EVENT_TYPES) expect(taskTransition(status, event)).toEqual({ status, changed: false });
      }
    });

    it('finishes from input_required too', () => {
      expect(taskTransition('input_required', 'complete').status).toBe('completed');
      expect(taskTransition('input_required', 'fail').status).toBe('failed');
      expect(taskTransition('input_required', 'cancel').status).toBe('cancelled');
    });
  });

  it('cites a spec rule on every row', () => {
    for (const status of TASK_STATUS_KINDS) for (const event of TASK_EVENT_TYPES) expect(TASK_TABLE[status][event].rule).toMatch(/basic\/utilities\/tasks|SEP-2663/);
  });

  it('lists the successors of each status', () => {
    expect(taskSuccessors('working')).toEqual(['input_required', 'completed', 'failed', 'cancelled']);
    expect(taskSuccessors('completed')).toEqual([]);
  });

  it('renders one edge per moving transition', () => {
    const diagram = renderTaskMermaid();
    expect(diagram).toContain('working --> input_required: needInput');
    expect(diagram).toContain('input_required --> working: inputReceived');
    expect(diagram).not.toContain('cancelled --> completed');
  });

  describe('#taskEventBetween', () => {
    it('names the one event behind each move of the table', () => {
      for (const from of TASK_STATUS_KINDS) {
        for (const event of TASK_EVENT_TYPES) {
          const step = taskTransition(from, event);
          if (step.changed) expect(taskEventBetween(from, step.status)).toBe(event);
        }
      }
    });

    it('is undefined where no single event moves the task', () => {
      expect(taskEventBetween('working', 'working')).toBeUndefined();
      expect(taskEventBetween('completed', 'working')).toBeUndefined();
      expect(taskEventBetween('cancelled', 'completed')).toBeUndefined();
    });
  });
});
