import { describe, expect, it } from 'vitest';
import { cloneJson } from './clone-json.js';

describe('cloneJson', () => {
  it.each([
    ['a request', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: { a: [1, 'b', true, null] } } }],
    ['undefined members and array holes', { a: undefined, b: [undefined, () => 1, Symbol('s')], c: () => 1 }],
    ['non-finite numbers', { n: Number.NaN, i: Number.POSITIVE_INFINITY, z: -0 }],
    ['toJSON', { when: new Date(0), nested: { toJSON: () => ({ replaced: true }) } }],
    ['non-ASCII', { text: 'héllo — 世界 🚀' }],
    ['a scalar', 'just a string'],
  ])('equals a JSON round trip for %s', (_name, value) => {
    expect(cloneJson(value)).toEqual(JSON.parse(JSON.stringify(value)));
  });

  it('copies deeply: nothing is shared', () => {
    const original = { params: { list: [{ x: 1 }] } };
    const copy = cloneJson(original) as typeof original;
    const [item] = copy.params.list;
    if (item !== undefined) item.x = 2;
    expect(copy.params.list).toEqual([{ x: 2 }]);
    expect(original.params.list).toEqual([{ x: 1 }]);
  });

  it('throws on a cycle and on a bigint, like JSON.stringify', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => cloneJson(cyclic)).toThrow(TypeError);
    expect(() => cloneJson({ n: 1n })).toThrow(TypeError);
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { v: 1 };
    expect(cloneJson({ a: shared, b: shared })).toEqual({ a: { v: 1 }, b: { v: 1 } });
  });

  it('copies a "__proto__" member as a member, as JSON.parse made it, never as the prototype', () => {
    const parsed = JSON.parse('{"__proto__":{"admin":true},"name":"x"}') as Record<string, unknown>;
    const copy = cloneJson(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(copy.admin).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify(parsed));
  });
});
