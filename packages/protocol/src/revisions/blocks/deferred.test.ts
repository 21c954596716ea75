import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { deferred, deferredShape } from './deferred.js';

describe('deferred', () => {
  it('builds the schema at its first read, once', () => {
    let builds = 0;
    const Point = deferred(() => {
      builds += 1;
      return z.looseObject({ x: z.number() });
    });
    const Named = deferred(() => Point.extend({ name: z.string() }));
    expect(builds).toBe(0);
    expect(Named.safeParse({ x: 1, name: 'a' }).success).toBe(true);
    expect(Named.safeParse({ x: '1', name: 'a' }).success).toBe(false);
    expect(Point.parse({ x: 2, extra: true })).toEqual({ x: 2, extra: true });
    expect(builds).toBe(1);
  });

  it('is then the schema: instanceof, in, prototype, own keys, nesting', () => {
    const Text = deferred(() => z.looseObject({ type: z.literal('text'), text: z.string() }));
    const Content = deferred(() => z.discriminatedUnion('type', [Text]));
    expect('_zod' in Text).toBe(true);
    expect(Text).toBeInstanceOf(z.ZodObject);
    expect(Object.getPrototypeOf(Text)).toBe(Object.getPrototypeOf(z.looseObject({})));
    expect(Object.keys(Text)).toEqual(Object.keys(z.looseObject({ type: z.literal('text'), text: z.string() })));
    expect(z.array(Content).safeParse([{ type: 'text', text: 'hi' }]).success).toBe(true);
    expect(z.array(Content).safeParse([{ type: 'image' }]).success).toBe(false);
    expect(Text.optional().safeParse(undefined).success).toBe(true);
  });

  it('builds without the memoizer classic zod installs, and leaves it installed', () => {
    z.object({ a: z.string() }); // a classic object schema installs zod's memoizer
    const memoizer = z.config().memoizer;
    expect(memoizer).toBeDefined();
    let builds = 0;
    const Deep = deferred(() => {
      builds += 1;
      return zm.looseObject({ x: zm.number() });
    });
    const Outer = deferred(() => zm.looseObject({ deep: zm.optional(zm.looseObject({ deeper: Deep })) }));
    // With the memoizer attached, the first parse walks the whole tree and builds `Deep`.
    expect(Outer.safeParse({}).success).toBe(true);
    expect(builds).toBe(0);
    expect(Outer.safeParse({ deep: { deeper: { x: 1 } } }).success).toBe(true);
    expect(builds).toBe(1);
    expect(z.config().memoizer).toBe(memoizer);
  });

  it('throws the build error at each read until the build succeeds', () => {
    const Broken = deferred((): z.ZodString => {
      throw new Error('no schema');
    });
    expect(() => Broken.safeParse('x')).toThrow('no schema');
    expect(() => Broken.parse('x')).toThrow('no schema');
  });
});

describe('deferredShape', () => {
  it('builds the fragment at its first spread, extend or read, once', () => {
    let builds = 0;
    const meta = deferredShape(() => {
      builds += 1;
      return { _meta: z.record(z.string(), z.unknown()).optional() };
    });
    const Point = deferred(() => z.looseObject({ x: z.number(), ...meta }));
    const Named = deferred(() => z.object({ name: z.string() }).extend(meta));
    expect(builds).toBe(0);
    expect(Point.safeParse({ x: 1, _meta: { a: 1 } }).success).toBe(true);
    expect(Point.safeParse({ x: 1, _meta: 'no' }).success).toBe(false);
    expect(Object.keys(Named.shape)).toEqual(['name', '_meta']);
    expect(Named.safeParse({ name: 'n', _meta: 3 }).success).toBe(false);
    expect('_meta' in meta).toBe(true);
    expect(Object.keys(meta)).toEqual(['_meta']);
    expect(builds).toBe(1);
  });
});
