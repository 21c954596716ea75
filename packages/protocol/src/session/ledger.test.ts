import { describe, expect, it } from 'vitest';
import { SimulatedClock } from './clock.js';
import { RequestLedger, handlerSignal, type InboundRecord, type OutboundRecord } from './ledger.js';

function ledger() {
  const moves: string[] = [];
  const subject = new RequestLedger({ memory: 4, clock: new SimulatedClock(), listener: { request: (record, from) => moves.push(`${String(record.id)}:${from}->${record.state}`) } });
  return { subject, moves };
}

function inbound(id: number): InboundRecord {
  return { direction: 'inbound', id, method: 'tools/call', startedAt: 0, state: 'processing', controller: undefined, abortReason: undefined, progressToken: undefined, trace: undefined, lastProgress: undefined, waitingOn: 0 };
}

function outbound(id: number): OutboundRecord {
  return {
    direction: 'outbound',
    id,
    method: 'tools/call',
    startedAt: 0,
    state: 'dispatched',
    resolve: () => undefined,
    reject: () => undefined,
    progressToken: undefined,
    onProgress: undefined,
    timeoutMs: 60_000,
    maxTotalTimeoutMs: undefined,
    resetTimeoutOnProgress: true,
    taskAugmented: false,
    trace: undefined,
    awaited: true,
    customResult: undefined,
    rounds: undefined,
    headers: undefined,
    timeoutAt: Number.POSITIVE_INFINITY,
    maxAt: Number.POSITIVE_INFINITY,
    timeoutSeq: 0,
    maxSeq: 0,
    slot: -1,
    detach: undefined,
    joined: undefined,
  };
}

describe('RequestLedger', () => {
  it('makes its deadlines with the first outbound request, and they expire through the handler set before', () => {
    const clock = new SimulatedClock();
    const subject = new RequestLedger({ memory: 4, clock, listener: { request: () => undefined } });
    const expired: Array<[number, boolean]> = [];
    subject.expireWith({ deadlineExpired: (record, maximum) => void expired.push([record.id as number, maximum]) });
    subject.stopDeadlines(); // nothing to stop: a session that never sent a request holds no deadlines
    expect(subject.deadlines).toBeUndefined();
    const record = outbound(1);
    subject.addOutbound(record);
    subject.deadlines.setTimeout(record, clock.now() + 100);
    clock.advance(100);
    expect(expired).toEqual([[1, false]]);
    subject.stopDeadlines();
  });

  describe('#wasRecentlySettled', () => {
    it('remembers the ids of the latest settled requests, as many as its memory, and forgets older ones', () => {
      const { subject } = ledger();
      for (let id = 1; id <= 6; id++) {
        const record = outbound(id);
        subject.addOutbound(record);
        expect(subject.wasRecentlySettled(id)).toBe(false);
        expect(subject.settle(record, 'complete', {})).toBe(true);
      }
      expect([1, 2, 3, 4, 5, 6].map((id) => subject.wasRecentlySettled(id))).toEqual([false, false, true, true, true, true]);
      expect(subject.wasRecentlySettled('3')).toBe(false);
    });

    it('remembers a reissued request under its old id, and under its last id once it settles', () => {
      const { subject } = ledger();
      const record = outbound(1);
      subject.addOutbound(record);
      subject.reissue(record, 2);
      expect(subject.wasRecentlySettled(1)).toBe(true);
      expect(subject.wasRecentlySettled(2)).toBe(false);
      subject.settle(record, 'complete', {});
      expect(subject.wasRecentlySettled(2)).toBe(true);
    });

    it('remembers nothing with a memory of 0', () => {
      const subject = new RequestLedger({ memory: 0, clock: new SimulatedClock(), listener: { request: () => undefined } });
      const record = outbound(1);
      subject.addOutbound(record);
      subject.settle(record, 'complete', {});
      expect(subject.wasRecentlySettled(1)).toBe(false);
    });
  });

  describe('#settleInbound', () => {
    it('settles once: a reply may go out only for the first outcome', () => {
      const { subject, moves } = ledger();
      const record = inbound(1);
      subject.addInbound(record);
      expect(subject.settleInbound(record, { event: 'complete' })).toBe(true);
      expect(subject.settleInbound(record, { event: 'fail' })).toBe(false);
      expect(subject.hasInbound(1)).toBe(false);
      expect(moves).toEqual(['1:processing->completed']);
    });

    it('aborts the handler signal with the reason on cancel, and suppresses the late reply', () => {
      const { subject } = ledger();
      const record = inbound(2);
      subject.addInbound(record);
      const reason = new Error('cancelled by the peer');
      expect(subject.settleInbound(record, { event: 'cancel', reason })).toBe(true);
      expect(handlerSignal(record).reason).toBe(reason);
      expect(subject.settleInbound(record, { event: 'complete' })).toBe(false);
    });

    it('aborts a signal the handler read before the abort, once, with the reason', () => {
      const { subject } = ledger();
      const record = inbound(3);
      subject.addInbound(record);
      const signal = handlerSignal(record);
      expect(signal.aborted).toBe(false);
      const reasons: unknown[] = [];
      signal.addEventListener('abort', () => reasons.push(signal.reason));
      const reason = new Error('timed out');
      expect(subject.settleInbound(record, { event: 'abort', reason })).toBe(true);
      expect(reasons).toEqual([reason]);
      expect(handlerSignal(record)).toBe(signal);
    });

    it('leaves the signal unaborted when the request completes', () => {
      const { subject } = ledger();
      const record = inbound(4);
      subject.addInbound(record);
      expect(subject.settleInbound(record, { event: 'complete' })).toBe(true);
      expect(handlerSignal(record).aborted).toBe(false);
    });
  });

  describe('#retainProgress', () => {
    it('keeps a task token until its task is released, and forgets all on releaseAllTasks', () => {
      const { subject } = ledger();
      const onProgress = (): void => undefined;
      subject.retainProgress('t1', 'task-a', onProgress);
      subject.retainProgress('t2', 'task-b', onProgress);
      expect(subject.retainedProgress('t1')).toBe(onProgress);
      subject.releaseTask('task-a');
      expect(subject.retainedProgress('t1')).toBeUndefined();
      expect(subject.retainedProgress('t2')).toBe(onProgress);
      subject.releaseAllTasks();
      expect(subject.retainedProgress('t2')).toBeUndefined();
    });
  });
});
