import { SimulatedClock } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { SessionManager, isValidSessionId, type ManagedSession, type SessionEndReason } from './session-manager.js';

class FakeSession implements ManagedSession {
  readonly principal: string | undefined;
  busy = false;
  constructor(principal?: string) {
    this.principal = principal;
  }
  closedWith: SessionEndReason[] = [];
  isBusy(): boolean {
    return this.busy;
  }
  close(reason: SessionEndReason): void {
    this.closedWith.push(reason);
  }
}

function clock(start = 0) {
  const simulated = new SimulatedClock(start);
  return { clock: simulated, advance: (ms: number) => simulated.advance(ms) };
}

describe('SessionManager', () => {
  describe('#sweep', () => {
    it('evicts sessions idle longer than the timeout, measured on the injected clock', () => {
      const time = clock();
      const manager = new SessionManager<FakeSession>({ idleTimeoutMs: 1000, clock: time.clock, sweepIntervalMs: 0 });
      const a = new FakeSession();
      const b = new FakeSession();
      expect(manager.reserve()).toBe(true);
      manager.add('a', a);
      time.advance(600);
      expect(manager.reserve()).toBe(true);
      manager.add('b', b);
      time.advance(500);
      expect(manager.sweep()).toBe(1);
      expect(a.closedWith).toEqual(['idle-timeout']);
      expect(manager.get('a')).toBeUndefined();
      expect(manager.get('b')).toBe(b);
      time.advance(999);
      expect(manager.sweep()).toBe(0);
      time.advance(2);
      expect(manager.sweep()).toBe(1);
      expect(b.closedWith).toEqual(['idle-timeout']);
    });

    it('counts a lookup as activity and never evicts a busy session', () => {
      const time = clock();
      const manager = new SessionManager<FakeSession>({ idleTimeoutMs: 100, clock: time.clock, sweepIntervalMs: 0 });
      const session = new FakeSession();
      manager.reserve();
      manager.add('s', session);
      time.advance(90);
      manager.get('s');
      time.advance(90);
      expect(manager.sweep()).toBe(0);
      session.busy = true;
      time.advance(1000);
      expect(manager.sweep()).toBe(0);
      session.busy = false;
      time.advance(101);
      expect(manager.sweep()).toBe(1);
    });
  });

  describe('background sweep', () => {
    it('runs on the injected clock every sweepIntervalMs and stops on close', () => {
      const time = clock();
      const manager = new SessionManager<FakeSession>({ idleTimeoutMs: 100, clock: time.clock, sweepIntervalMs: 50 });
      const session = new FakeSession();
      manager.reserve();
      manager.add('s', session);
      time.advance(99);
      expect(session.closedWith).toEqual([]);
      time.advance(1);
      expect(session.closedWith).toEqual(['idle-timeout']);
      expect(time.clock.pendingTimers).toBe(1);
      manager.close();
      expect(time.clock.pendingTimers).toBe(0);
    });
  });

  describe('#reserve', () => {
    it('caps sessions including handshakes in flight, sweeping idle ones first', () => {
      const time = clock();
      const manager = new SessionManager<FakeSession>({ idleTimeoutMs: 100, maxSessions: 2, clock: time.clock, sweepIntervalMs: 0 });
      expect(manager.reserve()).toBe(true);
      manager.add('a', new FakeSession());
      expect(manager.reserve()).toBe(true);
      expect(manager.reserve()).toBe(false);
      manager.release();
      expect(manager.reserve()).toBe(true);
      manager.add('b', new FakeSession());
      expect(manager.reserve()).toBe(false);
      time.advance(101);
      expect(manager.reserve()).toBe(true);
      expect(manager.size).toBe(0);
    });
  });

  describe('#admit', () => {
    it('caps the sessions of one principal, handshakes in flight included, and names the cap that refused', () => {
      const manager = new SessionManager<FakeSession>({ maxSessions: 10, maxSessionsPerPrincipal: 2, sweepIntervalMs: 0 });
      expect(manager.admit('alice')).toBe('reserved');
      manager.add('a1', new FakeSession('alice'));
      expect(manager.admit('alice')).toBe('reserved');
      expect(manager.admit('alice')).toBe('maxSessionsPerPrincipal');
      expect(manager.admit('bob')).toBe('reserved');
      manager.release('alice');
      expect(manager.admit('alice')).toBe('reserved');
      manager.add('a2', new FakeSession('alice'));
      expect(manager.admit('alice')).toBe('maxSessionsPerPrincipal');
      manager.forget('a1');
      expect(manager.admit('alice')).toBe('reserved');
      manager.add('a3', new FakeSession('alice'));
      manager.delete('a2');
      expect(manager.admit('alice')).toBe('reserved');
    });

    it('never counts anonymous sessions against a principal limit, only against maxSessions', () => {
      const manager = new SessionManager<FakeSession>({ maxSessions: 3, maxSessionsPerPrincipal: 1, sweepIntervalMs: 0 });
      for (const id of ['x', 'y', 'z']) {
        expect(manager.admit()).toBe('reserved');
        manager.add(id, new FakeSession());
      }
      expect(manager.admit()).toBe('maxSessions');
      expect(manager.admit('alice')).toBe('maxSessions');
    });

    it('sweeps the idle sessions of a full principal before refusing it, and frees the principal on close', () => {
      const time = clock();
      const manager = new SessionManager<FakeSession>({ idleTimeoutMs: 100, maxSessionsPerPrincipal: 1, clock: time.clock, sweepIntervalMs: 0 });
      manager.admit('alice');
      manager.add('a1', new FakeSession('alice'));
      expect(manager.admit('alice')).toBe('maxSessionsPerPrincipal');
      time.advance(101);
      expect(manager.admit('alice')).toBe('reserved');
      manager.add('a2', new FakeSession('alice'));
      manager.close();
      expect(new SessionManager<FakeSession>({ maxSessionsPerPrincipal: Number.POSITIVE_INFINITY, sweepIntervalMs: 0 }).maxSessionsPerPrincipal).toBe(Number.POSITIVE_INFINITY);
      expect(() => new SessionManager<FakeSession>({ maxSessionsPerPrincipal: 0 })).toThrow(RangeError);
    });
  });

  describe('#mintId', () => {
    it('mints visible-ASCII ids and refuses generators that break the rule', () => {
      const manager = new SessionManager<FakeSession>({ sweepIntervalMs: 0 });
      const id = manager.mintId();
      expect(isValidSessionId(id)).toBe(true);
      expect(id).not.toBe(manager.mintId());
      const bad = new SessionManager<FakeSession>({ sweepIntervalMs: 0, generateId: () => 'has space' });
      expect(() => bad.mintId()).toThrow(RangeError);
      expect(isValidSessionId('')).toBe(false);
      expect(isValidSessionId('é')).toBe(false);
    });
  });

  describe('#delete and #close', () => {
    it('ends sessions once with the right reason', () => {
      const manager = new SessionManager<FakeSession>({ sweepIntervalMs: 0 });
      const a = new FakeSession();
      const b = new FakeSession();
      manager.reserve();
      manager.add('a', a);
      manager.reserve();
      manager.add('b', b);
      expect(manager.delete('a')).toBe(true);
      expect(manager.delete('a')).toBe(false);
      manager.close();
      manager.close();
      expect(a.closedWith).toEqual(['deleted']);
      expect(b.closedWith).toEqual(['server-closed']);
      expect(manager.reserve()).toBe(false);
    });
  });
});
