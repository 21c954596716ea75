import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/skills-example.js';

describe('README skills example', () => {
  describe('#main', () => {
    it('runs end to end', async () => {
      await expect(main()).resolves.toEqual([
        'listed: git-workflow (Branch and commit the way this team does)',
        'body: Read references/naming.md first.',
        'naming.md: Branches: feature/<issue>-<slug>',
        'refused: frontmatter',
      ]);
    });
  });

  it('is in the README verbatim', () => {
    const example = readFileSync(new URL('../../examples/skills-example.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain('```ts\n' + example + '```');
  });
});
