import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../examples/readme-example.js';

describe('README example', () => {
  describe('#main', () => {
    it('runs end to end', async () => {
      await expect(main()).resolves.toEqual([
        'tools: add',
        'add: {"sum":5}',
        'config: {"uri":"config://app","mimeType":"application/json","text":"{\\"theme\\":\\"dark\\"}"}',
        'prompt: 1 message(s)',
      ]);
    });
  });

  it('is in the README verbatim', () => {
    const example = readFileSync(new URL('../examples/readme-example.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain('```ts\n' + example + '```');
  });
});
