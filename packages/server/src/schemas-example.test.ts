import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../examples/schemas-example.js';

describe('README schemas example', () => {
  describe('#main', () => {
    it('runs end to end', async () => {
      await expect(main()).resolves.toEqual([
        'arguments: [{"name":"text","description":"What to translate","required":true},{"name":"to","required":false}]',
        'prompt: {"type":"text","text":"Translate into de: hello"}',
        'invite: {"type":"text","text":"Invalid arguments for tool invite: #/email: must match format \\"email\\""}',
      ]);
    }, 30_000); // Ajv generates code on first use, slow on a loaded machine
  });

  it('is in the README verbatim', () => {
    const example = readFileSync(new URL('../examples/schemas-example.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain('```ts\n' + example + '```');
  });
});
