/** The README's response cache example, run as written. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../examples/cache-example.js';

describe('README response cache example', () => {
  it('is shown in the README verbatim', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../examples/cache-example.ts', import.meta.url), 'utf8');
    const fence = '`'.repeat(3);
    expect(readme).toContain(`${fence}ts\n${example.trim()}\n${fence}`);
  });

  it('runs end to end: one hit, two requests', async () => {
    const lines: string[] = [];
    await main((...parts) => lines.push(parts.map(String).join(' ')));
    expect(lines).toEqual([
      'cache miss tools/list',
      'cache store tools/list',
      'cache hit tools/list',
      'cache miss tools/list',
      'cache store tools/list',
      'tools/list sent 2 times; hits 1',
    ]);
  });
});
