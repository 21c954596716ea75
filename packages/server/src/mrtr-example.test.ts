import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../examples/mrtr-example.js';

describe('README Multi Round-Trip example', () => {
  describe('#main', () => {
    it('greets through a server request in the legacy era and through an MRTR round in the modern one', async () => {
      await expect(main()).resolves.toEqual(['Hello, Ada! (2025-11-25)', 'Hello, Ada! (2026-07-28)']);
    });
  });

  it('is in the README verbatim', () => {
    const example = readFileSync(new URL('../examples/mrtr-example.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain('```ts\n' + example + '```');
  });
});
