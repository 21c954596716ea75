/** The per-user views example of the README: shown verbatim there, and run here in both eras. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../examples/per-user-views.js';

describe('README per-user views example', () => {
  it('is in the README verbatim', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../examples/per-user-views.ts', import.meta.url), 'utf8');
    const fence = '`'.repeat(3);
    expect(readme).toContain(`${fence}ts\n${example.trim()}\n${fence}`);
  });

  it.each(['legacy', 'modern'] as const)('runs end to end (%s era)', async (era) => {
    const lines: string[] = [];
    await main(era, (line) => lines.push(line));
    expect(lines).toEqual(['tools: read_notes, archive_notes', 'delete_notes: -32602', 'archive_notes: Tool archive_notes needs scope notes:archive', 'after the step-up: read_notes, delete_notes, archive_notes']);
  });
});
