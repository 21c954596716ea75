import { describe, expect, it } from 'vitest';
import { REQUEST_EVENT_TYPES, REQUEST_STATE_KINDS, REQUEST_TABLE, isSettled, requestTransition } from './request.js';
import { renderRequestMermaid } from './mermaid.js';

describe('requestTransition', () => {
  it('defines every state × event pair', () => {
    for (const state of REQUEST_STATE_KINDS) {
      for (const event of REQUEST_EVENT_TYPES) {
        expect(REQUEST_TABLE[state][event], `${state} × ${event}`).not.toBeUndefined();
      }
    }
  });

  it('answers every state × event pair by the table, with one shared frozen step per pair', () => {
    for (const state of REQUEST_STATE_KINDS) {
      for (const event of REQUEST_EVENT_TYPES) {
        const next = REQUEST_TABLE[state][event];
        const expected = next === null ? { state, changed: false, settled: false } : { state: next, changed: next !== state || event === 'progress', settled: isSettled(next) };
        const step = requestTransition(state, event);
        expect(step, `${state} × ${event}`).toEqual(expected);
        expect(Object.isFrozen(step)).toBe(true);
        expect(requestTransition(state, event)).toBe(step);
      }
    }
  });

  it('follows created → dispatched → processing ⇄ waitingForInput → completed', () => {
    expect(requestTransition('created', 'dispatch').state).toBe('dispatched');
    expect(requestTransition('dispatched', 'process').state).toBe('processing');
    expect(requestTransition('processing', 'awaitInput').state).toBe('waitingForInput');
    expect(requestTransition('waitingForInput', 'inputReceived').state).toBe('processing');
    expect(requestTransition('processing', 'complete')).toEqual({ state: 'completed', changed: true, settled: true });
  });

  it('moves back to processing on progress', () => {
    expect(requestTransition('dispatched', 'progress').state).toBe('processing');
    expect(requestTransition('waitingForInput', 'progress').state).toBe('processing');
  });

  it.each(['completed', 'failed', 'cancelled', 'expired', 'aborted'] as const)('never leaves the terminal state %s (late messages dropped)', (terminal) => {
    expect(isSettled(terminal)).toBe(true);
    for (const event of REQUEST_EVENT_TYPES) {
      expect(requestTransition(terminal, event)).toEqual({ state: terminal, changed: false, settled: false });
    }
  });

  it('settles in exactly one of the five terminal states from any live state', () => {
    const settlers = { complete: 'completed', fail: 'failed', cancel: 'cancelled', expire: 'expired', abort: 'aborted' } as const;
    for (const state of ['created', 'dispatched', 'processing', 'waitingForInput'] as const) {
      for (const [event, target] of Object.entries(settlers)) {
        expect(requestTransition(state, event as keyof typeof settlers)).toEqual({ state: target, changed: true, settled: true });
      }
    }
  });

  it('renders as a Mermaid diagram', () => {
    const diagram = renderRequestMermaid();
    expect(diagram).toContain('processing --> waitingForInput: awaitInput');
    expect(diagram).toContain('expired --> [*]');
  });
});
