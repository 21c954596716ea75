/** The `client.listen` example of the client README: shown verbatim there, and run here (it needs both packages). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../examples/listen-example.js';

describe('client README listen example', () => {
  it('is in the client README verbatim', () => {
    const readme = readFileSync(new URL('../../client/README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../examples/listen-example.ts', import.meta.url), 'utf8');
    const fence = '`'.repeat(3);
    expect(readme).toContain(`${fence}ts\n${example.trim()}\n${fence}`);
  });

  it('runs end to end', async () => {
    const lines: string[] = [];
    await main((...parts) => lines.push(parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' ')));
    expect(lines).toEqual([
      'modern stream 2 acknowledged: {"toolsListChanged":true,"resourceSubscriptions":["file:///notes.md"]}',
      'notifications/resources/updated file:///notes.md',
      'notifications/tools/list_changed ',
      'ended: closed',
    ]);
  });
});
