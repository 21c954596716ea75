import { describe, expect, it } from 'vitest';
import { AbortScope, unscopedSignal } from './abort-scope.js';

describe('AbortScope', () => {
  describe('#child', () => {
    it('gives each request its own signal and forgets it on release', () => {
      const scope = new AbortScope();
      const a = scope.child();
      const b = scope.child();
      expect(a.signal).not.toBe(b.signal);
      expect(scope.size).toBe(2);
      a.release();
      a.release();
      expect(scope.size).toBe(1);
    });

    it('forgets a request released from the middle, the first or the last place', () => {
      const scope = new AbortScope();
      const [first, middle, last] = [scope.child(), scope.child(), scope.child()];
      const fourth = scope.child();
      middle.release();
      fourth.release();
      first.release();
      expect(scope.size).toBe(1);
      scope.abort('closed');
      expect(last.signal.aborted).toBe(true);
      expect([first, middle, fourth].map((child) => child.signal.aborted)).toEqual([false, false, false]);
      expect(scope.size).toBe(0);
    });

    it('aborts one request alone through its own abort', () => {
      const scope = new AbortScope();
      const cancelled = scope.child();
      const other = scope.child();
      cancelled.abort();
      expect(cancelled.signal.aborted).toBe(true);
      expect(cancelled.signal.reason).toMatchObject({ name: 'AbortError' });
      expect(other.signal.aborted).toBe(false);
    });

    it('hands out an aborted signal once the scope is aborted', () => {
      const scope = new AbortScope();
      scope.abort(new Error('closed'));
      const late = scope.child();
      expect(late.signal.aborted).toBe(true);
      expect(late.signal.reason).toMatchObject({ message: 'closed' });
      expect(scope.size).toBe(0);
    });
  });

  describe('#abort', () => {
    it('aborts the signals in flight, not the released ones, and is idempotent', () => {
      const scope = new AbortScope();
      const done = scope.child();
      const pending = scope.child();
      done.release();
      scope.abort('bye');
      scope.abort('again');
      expect(pending.signal.aborted).toBe(true);
      expect(pending.signal.reason).toBe('bye');
      expect(done.signal.aborted).toBe(false);
      expect(scope.aborted).toBe(true);
    });
  });

  describe('#onAbort', () => {
    it('runs the hook once with the abort error, without making a signal, and the late signal is aborted alike', () => {
      const scope = new AbortScope();
      const child = scope.child();
      const seen: Error[] = [];
      child.onAbort((error) => seen.push(error));
      scope.abort(new Error('closed'));
      child.abort(new Error('again'));
      expect(seen.map((error) => error.message)).toEqual(['closed']);
      expect(child.aborted).toBe(true);
      expect(child.signal.aborted).toBe(true);
      expect(child.signal.reason).toMatchObject({ message: 'closed' });
    });

    it('runs a hook set after the abort at once, an AbortError for an abort without reason; a replaced or cleared hook is not run', () => {
      const stop = unscopedSignal();
      const replaced: Error[] = [];
      stop.onAbort((error) => replaced.push(error));
      stop.onAbort(undefined);
      stop.abort();
      expect(replaced).toEqual([]);
      const late: Error[] = [];
      stop.onAbort((error) => late.push(error));
      expect(late).toHaveLength(1);
      expect(late[0]).toMatchObject({ name: 'AbortError' });
    });
  });
});
