import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../examples/tasks-example.js';

describe('README tasks example', () => {
  describe('#main', () => {
    it('runs end to end', async () => {
      await expect(main()).resolves.toEqual([
        'running as a task: 43 char id',
        '[{"type":"text","text":"q3: accept"}]',
        'statuses: input_required → working → completed',
      ]);
    }, 30_000);
  });

  it('is in the README verbatim', () => {
    const example = readFileSync(new URL('../examples/tasks-example.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain('```ts\n' + example + '```');
  });
});
