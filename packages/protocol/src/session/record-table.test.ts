import { describe, expect, it } from 'vitest';
import { OutboundTable, RecordTable } from './record-table.js';

describe('RecordTable', () => {
  describe('#set', () => {
    it('keeps insertion order whether an entry sits in the slot or in the map behind it', () => {
      const table = new RecordTable<number | string, string>();
      table.set(1, 'a');
      table.set(2, 'b');
      table.set('3', 'c');
      expect(table.values()).toEqual(['a', 'b', 'c']);
      table.delete(1);
      table.set(4, 'd');
      expect(table.values()).toEqual(['b', 'c', 'd']);
      table.delete(2);
      table.delete('3');
      table.delete(4);
      table.set(5, 'e');
      table.set(6, 'f');
      expect(table.values()).toEqual(['e', 'f']);
      expect(table.size).toBe(2);
    });

    it('replaces the value of a key already there, in the slot or in the map', () => {
      const table = new RecordTable<number, string>();
      table.set(1, 'a');
      table.set(2, 'b');
      table.set(1, 'A');
      table.set(2, 'B');
      expect(table.values()).toEqual(['A', 'B']);
      expect(table.size).toBe(2);
    });
  });

  describe('#get', () => {
    it('tells a number id from the same digits as a string, as a Map does', () => {
      const table = new RecordTable<number | string, string>();
      table.set(1, 'number');
      table.set('1', 'string');
      expect(table.get(1)).toBe('number');
      expect(table.get('1')).toBe('string');
      expect(table.has(2)).toBe(false);
      expect(table.delete(1)).toBe(true);
      expect(table.has(1)).toBe(false);
      expect(table.has('1')).toBe(true);
      expect(table.delete(1)).toBe(false);
    });
  });

  describe('#delete', () => {
    it('keeps entries, their order and their lookups across the copies that replace a map changing for long', () => {
      const table = new RecordTable<number | string, string>();
      table.set(0, 'oldest');
      table.set('kept', 'string id');
      // 64 in flight, 2,000 requests through: the map behind the slot is replaced several times.
      for (let id = 1; id <= 2064; id++) {
        table.set(id, `request ${id}`);
        if (id > 64) expect(table.delete(id - 64)).toBe(true);
      }
      expect(table.size).toBe(66);
      expect(table.values().slice(0, 3)).toEqual(['oldest', 'string id', 'request 2001']);
      expect(table.values().at(-1)).toBe('request 2064');
      expect(table.get('kept')).toBe('string id');
      expect(table.get(2000)).toBeUndefined();
      expect(table.get(2001)).toBe('request 2001');
      for (let id = 2001; id <= 2064; id++) table.delete(id);
      table.delete('kept');
      expect(table.values()).toEqual(['oldest']);
      table.delete(0);
      table.set(3000, 'alone');
      expect(table.values()).toEqual(['alone']);
      expect(table.size).toBe(1);
    });
  });

  describe('#values', () => {
    it('returns a copy, so entries can be deleted while walking it', () => {
      const table = new RecordTable<number, number>();
      for (let i = 0; i < 5; i++) table.set(i, i * 10);
      for (const value of table.values()) table.delete(value / 10);
      expect(table.size).toBe(0);
      expect(table.values()).toEqual([]);
    });
  });
});

describe('OutboundTable', () => {
  const record = (id: number | string, name = String(id)) => ({ id, name });

  it('finds, deletes and lists requests by their ids, in the order of the ids', () => {
    const table = new OutboundTable<{ id: number | string; name: string }>();
    expect(table.get(1)).toBeUndefined();
    for (let id = 1; id <= 10; id++) table.add(record(id));
    expect(table.size).toBe(10);
    expect(table.get(3)?.name).toBe('3');
    expect(table.get('3')).toBeUndefined(); // a peer's string id is not our number
    expect(table.get(3.5)).toBeUndefined();
    expect(table.delete(3)).toBe(true);
    expect(table.delete(3)).toBe(false);
    expect(table.get(3)).toBeUndefined();
    expect(table.values().map((entry) => entry.id)).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('moves a request still in flight when a much newer id lands on its slot, and keeps finding it', () => {
    const table = new OutboundTable<{ id: number | string; name: string }>();
    table.add(record(1, 'long'));
    // Thousands of short requests, one at a time, while request 1 stays in flight.
    for (let id = 2; id < 5_000; id++) {
      table.add(record(id));
      expect(table.get(1)?.name).toBe('long');
      expect(table.delete(id)).toBe(true);
    }
    expect(table.size).toBe(1);
    expect(table.values().map((entry) => entry.name)).toEqual(['long']);
    expect(table.delete(1)).toBe(true);
    expect(table.size).toBe(0);
  });

  it('grows when half full and keeps every request findable, a request sent again under a new id moving to the end', () => {
    const table = new OutboundTable<{ id: number | string; name: string }>();
    const live = Array.from({ length: 1_000 }, (_, i) => record(i + 1));
    for (const entry of live) table.add(entry);
    for (const entry of live) expect(table.get(entry.id)).toBe(entry);
    const again = live[10] as { id: number | string; name: string };
    table.delete(again.id);
    again.id = 5_000;
    table.add(again);
    expect(table.get(11)).toBeUndefined();
    expect(table.get(5_000)).toBe(again);
    expect(table.values().at(-1)).toBe(again);
    expect(table.size).toBe(1_000);
    for (const entry of live) expect(table.delete(entry.id)).toBe(true);
    expect(table.size).toBe(0);
    expect(table.values()).toEqual([]);
  });

  it('keeps a key that is not a safe integer beside the ring', () => {
    const table = new OutboundTable<{ id: number | string; name: string }>();
    table.add(record('x'));
    table.add(record(2 ** 60));
    expect(table.get('x')?.name).toBe('x');
    expect(table.get(2 ** 60)?.id).toBe(2 ** 60);
    expect(table.size).toBe(2);
  });
});
