/** Task moves reported through a session: the `task.transition` inspect event, built only when someone listens. */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CHANNEL_NAMES } from '../observability/diagnostics.js';
import type { InspectEvent, TaskTransitionReport } from '../observability/events.js';
import { SimulatedClock } from './clock.js';
import { Session } from './session.js';

const report: TaskTransitionReport = { taskId: 't-1', side: 'server', requestId: 7, tool: 'slow', from: 'working', to: 'input_required', event: 'needInput', elapsedMs: 40 };

describe('Session#reportTaskTransition', () => {
  it('hands the move to the inspect listener with the session id and the clock time', () => {
    const events: InspectEvent[] = [];
    const clock = new SimulatedClock(1_000);
    const session = new Session({ role: 'server', clock, capabilities: () => ({}), inspect: (event) => events.push(event) });
    session.reportTaskTransition(() => report);
    expect(events).toEqual([{ ...report, type: 'task.transition', sessionId: session.id, at: 1_000 }]);
  });

  it('builds nothing when nobody inspects the session', () => {
    const session = new Session({ role: 'server', capabilities: () => ({}) });
    let built = 0;
    session.reportTaskTransition(() => {
      built += 1;
      return report;
    });
    expect(built).toBe(0);
  });

  it('publishes on the statemcp:task.transition channel', () => {
    const seen: unknown[] = [];
    const listener = (message: unknown): void => void seen.push(message);
    subscribe(DIAGNOSTIC_CHANNEL_NAMES['task.transition'], listener);
    try {
      const session = new Session({ role: 'client', capabilities: () => ({}) });
      session.reportTaskTransition(() => ({ ...report, side: 'client' }));
      expect(seen).toEqual([expect.objectContaining({ type: 'task.transition', taskId: 't-1', side: 'client', sessionId: session.id })]);
    } finally {
      unsubscribe(DIAGNOSTIC_CHANNEL_NAMES['task.transition'], listener);
    }
  });
});
