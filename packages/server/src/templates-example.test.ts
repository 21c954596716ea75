import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../examples/templates-and-updates.js';

describe('README templates and updates example', () => {
  describe('#main', () => {
    it('runs end to end', async () => {
      await expect(main()).resolves.toEqual([
        'uri: files://docs/guide/intro.md?rev=7',
        'read: {"uri":"files://docs/guide/intro.md?rev=7","text":"docs: guide > intro.md @ 7"}',
        'templates: documents docs://{+path}',
        'prompts: summarise',
        'doc: {"uri":"docs://guide/intro.md","text":"# guide/intro.md"}',
      ]);
    });
  });

  it('is in the README verbatim', () => {
    const example = readFileSync(new URL('../examples/templates-and-updates.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain('```ts\n' + example + '```');
  });
});
