import { describe, expect, it } from 'vitest';
import { CATEGORIES, generateCases } from './malformed-inputs.js';

describe('generateCases', () => {
  const stdio = generateCases({ seed: 0x5eed, count: 2000, target: 'stdio' });
  const http = generateCases({ seed: 0x5eed, count: 2000, target: 'http', maxBodyBytes: 1024 });

  it('gives the same cases for the same seed', () => {
    expect(generateCases({ seed: 0x5eed, count: 2000, target: 'stdio' })).toEqual(stdio);
    expect(generateCases({ seed: 1, count: 50, target: 'stdio' })).not.toEqual(stdio.slice(0, 50));
  });

  it('covers every category (no-session over HTTP only)', () => {
    expect(new Set(http.map((c) => c.category))).toEqual(new Set(CATEGORIES));
    expect(new Set(stdio.map((c) => c.category))).toEqual(new Set(CATEGORIES.filter((c) => c !== 'no-session')));
  });

  it('writes every case as one line', () => {
    for (const fuzzCase of [...stdio, ...http]) expect(fuzzCase.frame.includes('\n'), `case ${String(fuzzCase.index)}`).toBe(false);
  });

  it('uses every readable id once, and puts it in the frame', () => {
    const ids = stdio.flatMap((c) => (c.expect.kind === 'reply' ? [c.expect.id] : []));
    expect(new Set(ids).size).toBe(ids.length);
    for (const fuzzCase of stdio) {
      if (fuzzCase.expect.kind !== 'reply') continue;
      const parsed = JSON.parse(fuzzCase.frame) as { id?: unknown };
      expect(parsed.id).toBe(fuzzCase.expect.id);
    }
  });

  it('expects "id": null only where no valid id can be read', () => {
    for (const fuzzCase of stdio) {
      if (fuzzCase.expect.kind !== 'null-id-error') continue;
      let value: unknown;
      try {
        value = JSON.parse(fuzzCase.frame);
      } catch {
        continue;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      const id = (value as { id?: unknown }).id;
      expect(typeof id === 'string' || Number.isSafeInteger(id), `case ${String(fuzzCase.index)}: ${fuzzCase.frame}`).toBe(false);
    }
  });

  it('sends HTTP oversized bodies past the limit and stdio ones within 64 MiB', () => {
    const tooLarge = http.filter((c) => c.expect.kind === 'too-large');
    expect(tooLarge.length).toBeGreaterThan(0);
    for (const fuzzCase of tooLarge) expect(Buffer.byteLength(fuzzCase.frame)).toBeGreaterThan(1024);
    expect(stdio.some((c) => c.expect.kind === 'too-large')).toBe(false);
    expect(Math.max(...stdio.map((c) => Buffer.byteLength(c.frame)))).toBeLessThan(64 * 1024 * 1024);
  });
});
