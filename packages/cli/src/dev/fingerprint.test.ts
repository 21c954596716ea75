import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fingerprint } from './fingerprint.js';

describe('fingerprint', () => {
  it('is equal for equal listings built from new objects', () => {
    const make = () => [{ title: 'Add', inputSchema: { a: z.number().describe('first'), b: z.number() }, annotations: { readOnlyHint: true } }];
    expect(fingerprint(make())).toBe(fingerprint(make()));
  });

  it('ignores key order', () => {
    expect(fingerprint({ a: 1, b: 2 })).toBe(fingerprint({ b: 2, a: 1 }));
  });

  it('changes with a schema description, a field, or a function body', () => {
    const base = fingerprint({ inputSchema: { a: z.number().describe('first') } });
    expect(fingerprint({ inputSchema: { a: z.number().describe('First number') } })).not.toBe(base);
    expect(fingerprint({ inputSchema: { a: z.string().describe('first') } })).not.toBe(base);
    expect(fingerprint({ complete: { x: () => ['a'] } })).not.toBe(fingerprint({ complete: { x: () => ['b'] } }));
  });

  it('stops at cycles and at deep nesting', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(fingerprint(cyclic)).toBe('{"a":1,"self":"[cycle]"}');
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) deep = { next: deep };
    expect(fingerprint(deep)).toContain('[deep]');
  });
});
