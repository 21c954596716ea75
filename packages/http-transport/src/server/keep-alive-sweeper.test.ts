import { SimulatedClock } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { KeepAliveSweeper, type KeepAliveTarget } from './keep-alive-sweeper.js';

/** A target that records when it was kept alive; `onKeepAlive` runs inside the sweep. */
function target(clock: SimulatedClock, onKeepAlive?: () => void): KeepAliveTarget & { readonly at: number[] } {
  const at: number[] = [];
  return {
    at,
    sendKeepAlive: () => {
      at.push(clock.now());
      onKeepAlive?.();
    },
  };
}

describe('KeepAliveSweeper', () => {
  describe('.of', () => {
    it('is one sweeper per clock and interval', () => {
      const clock = new SimulatedClock();
      expect(KeepAliveSweeper.of(clock, 1000)).toBe(KeepAliveSweeper.of(clock, 1000));
      expect(KeepAliveSweeper.of(clock, 1000)).not.toBe(KeepAliveSweeper.of(clock, 2000));
      expect(KeepAliveSweeper.of(clock, 1000)).not.toBe(KeepAliveSweeper.of(new SimulatedClock(), 1000));
    });
  });

  describe('#add', () => {
    it('keeps each target alive every interval in its own phase, on one timer', () => {
      const clock = new SimulatedClock();
      const sweeper = KeepAliveSweeper.of(clock, 1000);
      const first = target(clock);
      const second = target(clock);
      sweeper.add(first);
      clock.advance(300);
      sweeper.add(second);
      expect(clock.pendingTimers).toBe(1);
      clock.advance(2700);
      expect(first.at).toEqual([1000, 2000, 3000]);
      expect(second.at).toEqual([1300, 2300]);
      expect(clock.pendingTimers).toBe(1);
      sweeper.delete(first);
      sweeper.delete(second);
    });

    it('keeps a target added during a sweep in its phase without delaying the others', () => {
      const clock = new SimulatedClock();
      const sweeper = KeepAliveSweeper.of(clock, 1000);
      const late = target(clock);
      let added = false;
      const first = target(clock, () => {
        if (!added) sweeper.add(late);
        added = true;
      });
      sweeper.add(first);
      clock.advance(500);
      const second = target(clock);
      sweeper.add(second);
      clock.advance(2000);
      expect(first.at).toEqual([1000, 2000]);
      expect(second.at).toEqual([1500, 2500]);
      expect(late.at).toEqual([2000]);
      expect(clock.pendingTimers).toBe(1);
      for (const each of [first, second, late]) sweeper.delete(each);
      expect(clock.pendingTimers).toBe(0);
    });
  });

  describe('#delete', () => {
    it('stops the timer with the last target, also when a target leaves during its own sweep', () => {
      const clock = new SimulatedClock();
      const sweeper = KeepAliveSweeper.of(clock, 1000);
      const stays = target(clock);
      const leaves: KeepAliveTarget & { readonly at: number[] } = target(clock, () => sweeper.delete(leaves));
      sweeper.add(leaves);
      sweeper.add(stays);
      clock.advance(1000);
      expect(leaves.at).toEqual([1000]);
      expect(clock.pendingTimers).toBe(1);
      sweeper.delete(stays);
      sweeper.delete(stays);
      expect(clock.pendingTimers).toBe(0);
      clock.advance(5000);
      expect(stays.at).toEqual([1000]);
    });

    it('moves the timer on when the front target leaves, and the next one is still kept on time', () => {
      const clock = new SimulatedClock();
      const sweeper = KeepAliveSweeper.of(clock, 1000);
      const front = target(clock);
      const next = target(clock);
      sweeper.add(front);
      clock.advance(400);
      sweeper.add(next);
      sweeper.delete(front);
      clock.advance(1000);
      expect(front.at).toEqual([]);
      expect(next.at).toEqual([1400]);
      sweeper.delete(next);
      expect(clock.pendingTimers).toBe(0);
    });
  });
});
