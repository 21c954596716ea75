/** The composition example of the README: shown verbatim there, and run here. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/compose-example.js';

describe('server README composition example', () => {
  it('is in the README verbatim', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../../examples/compose-example.ts', import.meta.url), 'utf8');
    const fence = '`'.repeat(3);
    expect(readme).toContain(`${fence}ts\n${example.trim()}\n${fence}`);
  });

  it('runs end to end', async () => {
    const lines: string[] = [];
    await main((line) => lines.push(line));
    expect(lines).toEqual([
      'tools: weather_forecast, notes_ask',
      'resources: notes+file:///todo.md',
      'forecast: {"type":"text","text":"Sunny in Lisbon"}',
      'ask: {"type":"text","text":"noted gateway"}',
    ]);
  });
});
