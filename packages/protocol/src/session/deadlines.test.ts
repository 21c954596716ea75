import { describe, expect, it } from 'vitest';
import { SimulatedClock, type TimerHandle, type TimerOptions } from './clock.js';
import { Deadlines, type DeadlineSlots } from './deadlines.js';

/** A simulated clock that counts the timers it creates. */
class CountingClock extends SimulatedClock {
  created = 0;
  override setTimeout(callback: () => void, ms: number, options?: TimerOptions): TimerHandle {
    this.created++;
    return super.setTimeout(callback, ms, options);
  }
}

interface Entry extends DeadlineSlots {
  readonly name: string;
}

function entry(name: string, awaited = true): Entry {
  return { name, timeoutAt: Infinity, maxAt: Infinity, timeoutSeq: 0, maxSeq: 0, slot: -1, awaited };
}

function subject() {
  const clock = new CountingClock();
  const deadlines = new Deadlines<Entry>(clock);
  const expired: string[] = [];
  deadlines.onExpire({ deadlineExpired: (record, maximum) => expired.push(`${record.name}${maximum ? ':max' : ''}@${clock.now()}`) });
  return { clock, deadlines, expired };
}

describe('Deadlines', () => {
  it('expires each deadline at its time, in order of time and then of setting, with one timer', () => {
    const { clock, deadlines, expired } = subject();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => entry(name)) as [Entry, Entry, Entry, Entry];
    deadlines.setTimeout(a, 300);
    deadlines.setTimeout(b, 100);
    deadlines.setTimeout(c, 100);
    deadlines.setMaximum(d, 200);
    deadlines.setTimeout(d, 500);
    expect(clock.pendingTimers).toBe(1);
    clock.advance(99);
    expect(expired).toEqual([]);
    clock.advance(1);
    expect(expired).toEqual(['b@100', 'c@100']);
    clock.advance(200);
    expect(expired).toEqual(['b@100', 'c@100', 'd:max@200', 'a@300']);
    expect(deadlines.size).toBe(0);
  });

  it('breaks a tie between a timeout and a maximum by which was set first', () => {
    const { clock, deadlines, expired } = subject();
    const first = entry('first');
    const reset = entry('reset');
    deadlines.setTimeout(first, 100);
    deadlines.setMaximum(first, 100);
    deadlines.setTimeout(reset, 50);
    deadlines.setMaximum(reset, 100);
    deadlines.setTimeout(reset, 100); // reset on progress after the maximum was set
    clock.advance(100);
    expect(expired).toEqual(['first@100', 'reset:max@100']);
  });

  it('re-arms only when the earliest deadline moves earlier; a removed or later one lets the timer fire early and wait again', () => {
    const { clock, deadlines, expired } = subject();
    const long = entry('long');
    const short = entry('short');
    deadlines.setTimeout(long, 1_000);
    expect(clock.created).toBe(1);
    deadlines.setTimeout(short, 2_000);
    deadlines.setTimeout(short, 3_000); // later: nothing to do
    expect(clock.created).toBe(1);
    deadlines.setTimeout(short, 500); // earlier than the armed 1 000
    expect(clock.created).toBe(2);
    expect(clock.pendingTimers).toBe(1);
    deadlines.remove(short);
    clock.advance(500); // fires early, nothing due: waits for 1 000
    expect(expired).toEqual([]);
    clock.advance(500);
    expect(expired).toEqual(['long@1000']);
  });

  it('shares one timer across sequential requests and stops keeping the process alive when none is pending', () => {
    const { clock, deadlines } = subject();
    for (let i = 0; i < 100; i++) {
      const record = entry(`r${i}`);
      deadlines.setTimeout(record, clock.now() + 60_000);
      expect(clock.keepAliveTimers).toBe(1);
      clock.advance(10);
      deadlines.remove(record);
      expect(clock.keepAliveTimers).toBe(0);
    }
    expect(clock.created).toBe(1);
    const ping = entry('ping', false);
    deadlines.setTimeout(ping, clock.now() + 60_000);
    expect(clock.keepAliveTimers).toBe(0);
    deadlines.stop();
    expect(clock.pendingTimers).toBe(0);
  });

  it('without Clock.setKeepAlive, clears the timer once nothing awaited is pending', () => {
    const clock = new SimulatedClock();
    const plain = { now: () => clock.now(), setTimeout: clock.setTimeout.bind(clock), clearTimeout: clock.clearTimeout.bind(clock) };
    const deadlines = new Deadlines<Entry>(plain);
    const record = entry('r');
    deadlines.setTimeout(record, 100);
    expect(clock.keepAliveTimers).toBe(1);
    deadlines.remove(record);
    expect(clock.pendingTimers).toBe(0);
  });

  it('keeps 64+ concurrent deadlines in order as they are reset and removed', () => {
    const { clock, deadlines, expired } = subject();
    const records = Array.from({ length: 100 }, (_, i) => entry(`r${i}`));
    // Deadlines in a scrambled order (i * 37 mod 100 visits every slot once).
    records.forEach((record, i) => deadlines.setTimeout(record, 1_000 + ((i * 37) % 100) * 10));
    for (let i = 0; i < 100; i += 3) deadlines.remove(records[i] as Entry);
    for (let i = 1; i < 100; i += 3) deadlines.setTimeout(records[i] as Entry, 5_000 + i);
    clock.advance(10_000);
    const expectedEarly = records
      .map((record, i) => ({ name: record.name, at: 1_000 + ((i * 37) % 100) * 10, i }))
      .filter(({ i }) => i % 3 === 2)
      .sort((x, y) => x.at - y.at)
      .map(({ name, at }) => `${name}@${at}`);
    const expectedLate = records.filter((_, i) => i % 3 === 1).map((record, k) => `${record.name}@${5_000 + 1 + 3 * k}`);
    expect(expired).toEqual([...expectedEarly, ...expectedLate]);
    expect(clock.created).toBeLessThan(10 + expired.length);
  });

  it('keeps order when deadlines set in order (the run) mix with earlier ones (the heap), settle out of order and move on progress', () => {
    const { clock, deadlines, expired } = subject();
    const records = Array.from({ length: 300 }, (_, i) => entry(`r${i}`));
    const due = new Map<Entry, number>();
    const set = (record: Entry, at: number): void => {
      deadlines.setTimeout(record, at);
      due.delete(record); // the map's order is the order of setting, which breaks ties
      due.set(record, at);
    };
    // Latest so far each time, as requests sharing one timeout are: all in the run.
    records.forEach((record, i) => set(record, 10_000 + i * 10));
    // Earlier than the run's last: these go to the heap, ties with the run broken by order of setting.
    for (let i = 0; i < 300; i += 7) set(records[i] as Entry, 10_000 + ((i * 13) % 300) * 10);
    // Settled out of order, two thirds of them: cleared slots pile up and the run is compacted.
    for (let i = 0; i < 300; i++) {
      if (i % 3 === 0) continue;
      deadlines.remove(records[i] as Entry);
      due.delete(records[i] as Entry);
    }
    expect(deadlines.size).toBe(100);
    // Reset on progress: later again, back at the run's end.
    for (let i = 3; i < 300; i += 9) set(records[i] as Entry, 20_000 + i);
    const expected = [...due].sort((x, y) => x[1] - y[1]).map(([record, at]) => `${record.name}@${at}`);
    clock.advance(30_000);
    // Equal times fire in the order they were set (the sort above is stable).
    expect(expired).toEqual(expected);
    expect(deadlines.size).toBe(0);
  });

  it('starts a new run once every deadline in it is gone, so sequential requests reuse its first slot', () => {
    const { clock, deadlines, expired } = subject();
    for (let i = 0; i < 200; i++) {
      const record = entry(`r${i}`);
      deadlines.setTimeout(record, clock.now() + 60_000);
      expect(record.slot).toBe(-2); // the run's first slot
      clock.advance(1);
      deadlines.remove(record);
      expect(record.slot).toBe(-1);
    }
    const early = entry('early');
    const late = entry('late');
    deadlines.setTimeout(late, clock.now() + 100);
    deadlines.setTimeout(early, clock.now() + 50); // earlier than the run's last: the heap
    expect(early.slot).toBe(0);
    clock.advance(100);
    expect(expired).toEqual([`early@250`, `late@300`]);
  });
});
