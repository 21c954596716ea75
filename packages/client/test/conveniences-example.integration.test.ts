/** The README's conveniences example, run as written: its list refresh waits out a real 10 ms debounce. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../examples/conveniences-example.js';

describe('README conveniences example', () => {
  it('is shown in the README verbatim', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../examples/conveniences-example.ts', import.meta.url), 'utf8');
    const fence = '`'.repeat(3);
    expect(readme).toContain(`${fence}ts\n${example.trim()}\n${fence}`);
  });

  it('runs end to end', async () => {
    const lines: string[] = [];
    await main((...parts) => lines.push(parts.map(String).join(' ')));
    expect(lines).toEqual([
      'tools: first',
      'tools now: first, second',
      'trace 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      'trace none',
    ]);
  });
});
