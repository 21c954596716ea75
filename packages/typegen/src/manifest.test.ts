import { describe, expect, it } from 'vitest';
import { describeChanges, diffManifests, fingerprint, MANIFEST_MARKER, readManifest, type Manifest } from './manifest.js';

const before: Manifest = {
  tools: { a: { input: 'i1', output: null }, b: { input: 'i2', output: 'o2' }, gone: { input: 'i3', output: null } },
  prompts: { p: 'args1' },
  resources: { r: 't1' },
};

describe('diffManifests', () => {
  it('names added, removed and changed definitions, and which schema of a tool changed', () => {
    const after: Manifest = {
      tools: { a: { input: 'i1', output: 'o1' }, b: { input: 'i2b', output: null }, added: { input: 'i4', output: null } },
      prompts: { p: 'args2' },
      resources: { r: 't1' },
    };
    expect(describeChanges(diffManifests(before, after))).toEqual([
      '+ tool added',
      '~ tool a: output schema added',
      '~ tool b: input schema, output schema removed',
      '- tool gone',
      '~ prompt p: arguments',
    ]);
    expect(diffManifests(before, structuredClone(before))).toEqual([]);
  });
});

describe('fingerprint', () => {
  it('ignores key order and tells different values apart', () => {
    expect(fingerprint({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(fingerprint({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }));
  });
});

describe('readManifest', () => {
  it('reads the manifest line of a module, and nothing from a module without a readable one', () => {
    expect(readManifest(`// x\n${MANIFEST_MARKER} ${JSON.stringify(before)}\n`)).toEqual(before);
    expect(readManifest('export type A = 1;\n')).toBeUndefined();
    expect(readManifest(`${MANIFEST_MARKER} {not json\n`)).toBeUndefined();
  });
});
