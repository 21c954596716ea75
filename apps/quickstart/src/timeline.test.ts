import type { InspectEvent } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { describeEvent, lineSplitter, stateName, Timeline } from './timeline.js';

const transition = (at: number, from: 'operating' | 'uninitialized', to: 'shuttingDown' | 'initializing'): InspectEvent => ({
  type: 'session.transition',
  sessionId: 's',
  at,
  from,
  to,
  event: from === 'operating' ? 'closeRequested' : 'outboundRequest',
});

describe('stateName', () => {
  it('uses the lifecycle names', () => {
    expect(stateName('uninitialized')).toBe('Uninitialized');
    expect(stateName('shuttingDown')).toBe('ShuttingDown');
  });
});

describe('describeEvent', () => {
  it('describes connection and request transitions and outgoing cancellations', () => {
    expect(describeEvent(transition(0, 'operating', 'shuttingDown'))).toBe('connection  Operating → ShuttingDown  (closeRequested)');
    const base = { type: 'request.transition', sessionId: 's', at: 0, requestId: 6, direction: 'outbound', method: 'tools/call' } as const;
    expect(describeEvent({ ...base, from: 'created', to: 'created', event: 'dispatch', elapsedMs: 0 })).toBe('request     → tools/call #6  created');
    expect(describeEvent({ ...base, from: 'dispatched', to: 'expired', event: 'expire', elapsedMs: 300.04 })).toBe(
      'request     → tools/call #6  dispatched → expired  after 300.0 ms',
    );
    const cancelled: InspectEvent = {
      type: 'message.out',
      sessionId: 's',
      at: 0,
      message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 6 } },
    };
    expect(describeEvent(cancelled)).toBe('notify      → notifications/cancelled {"requestId":6}');
  });

  it('leaves out requests, responses and inbound messages', () => {
    expect(describeEvent({ type: 'message.out', sessionId: 's', at: 0, message: { jsonrpc: '2.0', id: 1, method: 'ping' } })).toBeUndefined();
    expect(describeEvent({ type: 'message.in', sessionId: 's', at: 0, message: {} })).toBeUndefined();
  });
});

describe('Timeline', () => {
  it('prints entries of both sides in time order, relative to its origin', () => {
    const lines: string[] = [];
    const origin = performance.timeOrigin;
    const timeline = new Timeline((line) => lines.push(line), origin);
    timeline.remote('server', origin + 20, transition(0, 'uninitialized', 'initializing'));
    timeline.local('client', transition(10, 'uninitialized', 'initializing'));
    timeline.flush();
    expect(lines).toEqual([
      '    +10.0 ms  client  connection  Uninitialized → Initializing  (outboundRequest)',
      '    +20.0 ms  server  connection  Uninitialized → Initializing  (outboundRequest)',
    ]);
    timeline.flush();
    expect(lines).toHaveLength(2);
  });
});

describe('lineSplitter', () => {
  it('joins chunks and splits lines', () => {
    const lines: string[] = [];
    const feed = lineSplitter((line) => lines.push(line));
    feed('a\nb');
    feed('c\n');
    feed(Buffer.from('d\n'));
    expect(lines).toEqual(['a', 'bc', 'd']);
  });
});
