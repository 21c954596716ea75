// Issue 18, item 9: a stray console.log in a stdio server must not vanish silently. With
// default options the client warns once on stderr (rate limited), naming the line's first
// bytes — here for five stray lines in a row.
import { describe, expect, it } from 'vitest';
import { exited, LineReader, spawnFixture, stop, within } from '../src/child-process.js';

const MARKER = 'STRAY-OUTPUT';

describe('a stdio client whose server writes stray lines to stdout', () => {
  it('keeps working and warns once on stderr, naming the stray line', async () => {
    const child = spawnFixture('pollution-client.ts', { stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.stdout === null || child.stderr === null) throw new Error('the fixture needs piped stdout and stderr');
    const stdout = new LineReader(child.stdout);
    const stderr = new LineReader(child.stderr);
    try {
      const info = await within(exited(child), 30_000, 'the client script finishing');
      expect(info.code, `stderr: ${stderr.text.slice(-1000)}`).toBe(0);
      expect(stdout.lines.some((line) => line.startsWith('DONE ') && line.includes('echo'))).toBe(true);
      const mentions = stderr.text.split(MARKER).length - 1;
      expect(mentions, `the client's stderr: ${JSON.stringify(stderr.text.slice(0, 1000))}`).toBe(1);
      expect(stderr.lines.filter((line) => line.trim() !== '').length).toBeLessThanOrEqual(3);
    } finally {
      await stop(child);
    }
  });
});
