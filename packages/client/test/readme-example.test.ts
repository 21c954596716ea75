import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../examples/readme-example.js';

describe('README', () => {
  it('shows the example file verbatim', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../examples/readme-example.ts', import.meta.url), 'utf8');
    const fence = '`'.repeat(3);
    expect(readme).toContain(`${fence}ts\n${example.trim()}\n${fence}`);
  });

  it('runs the example end to end', async () => {
    const lines: string[] = [];
    await main((...parts) => lines.push(parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' ')));
    expect(lines).toEqual([
      'connected to demo-server with protocol 2025-11-25',
      'tool: add',
      'tool: haiku',
      'progress: 1/1',
      'sum: {"sum":5}',
      'haiku: An old silent pond / a frog jumps in / splash! silence again',
      expect.stringMatching(/^no prompts here: prompts\/list needs the prompts capability/),
      'state: terminated',
    ]);
  });
});
