// Issue 18, item 9: a stray console.log in a stdio server must not vanish silently. With
// default options the client warns once on stderr (rate limited), naming the line's first
// bytes — here for five stray lines in a row.
import { describe, expect, it } from 'vitest';
import { runScript } from '../src/child-process.js';

const MARKER = 'STRAY-OUTPUT';

describe('a stdio client whose server writes stray lines to stdout', () => {
  it('keeps working and warns once on stderr, naming the stray line', async () => {
    const { exit, stdout, stderr } = await runScript('pollution-client.ts', 30_000);
    expect(exit.code, `stderr: ${stderr.text.slice(-1000)}`).toBe(0);
    expect(stdout.lines.some((line) => line.startsWith('DONE ') && line.includes('echo'))).toBe(true);
    const mentions = stderr.text.split(MARKER).length - 1;
    expect(mentions, `the client's stderr: ${JSON.stringify(stderr.text.slice(0, 1000))}`).toBe(1);
    expect(stderr.lines.filter((line) => line.trim() !== '').length).toBeLessThanOrEqual(3);
  });
});
