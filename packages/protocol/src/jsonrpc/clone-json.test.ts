import { describe, expect, it } from 'vitest';
import { cloneJson, isSealedJson, sealJson, transferJson } from './clone-json.js';

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

describe('sealJson and transferJson', () => {
  it('seals a JSON copy: frozen all the way down, equal to a JSON round trip', () => {
    const value = { name: 'x', skip: undefined, icons: [{ src: 'a.png', sizes: ['16x16'] }] };
    const sealed = sealJson(value);
    expect(sealed).toEqual(JSON.parse(JSON.stringify(value)));
    expect(sealed).not.toBe(value);
    for (const part of [sealed, sealed.icons, sealed.icons[0], sealed.icons[0]?.sizes]) {
      expect(Object.isFrozen(part)).toBe(true);
      expect(isSealedJson(part as object)).toBe(true);
    }
    expect(isSealedJson(value)).toBe(false);
  });

  it('hands a sealed value over as it is and copies everything around it', () => {
    const info = sealJson({ name: 'client', version: '1.0.0' });
    const message = { params: { _meta: { info }, list: [1] } };
    const moved = transferJson(message) as typeof message;
    expect(moved.params._meta.info).toBe(info);
    expect(moved.params).not.toBe(message.params);
    expect(moved.params._meta).not.toBe(message.params._meta);
    expect(moved.params.list).not.toBe(message.params.list);
    // cloneJson still copies it: a copy the caller may change.
    const copied = cloneJson(message) as typeof message;
    expect(copied.params._meta.info).not.toBe(info);
    expect(Object.isFrozen(copied.params._meta.info)).toBe(false);
  });

  it('shares only what sealJson made, not any frozen object', () => {
    const frozen = Object.freeze({ when: new Date(0) });
    const moved = transferJson({ frozen }) as { frozen: unknown };
    expect(moved.frozen).not.toBe(frozen);
    expect(moved.frozen).toEqual({ when: '1970-01-01T00:00:00.000Z' });
  });
});
