// Issue 18, item 7: a pending request with a timeout keeps the process alive until it
// settles; idle sessions do not. The child's only pending work is an in-memory call with
// `timeoutMs`: it must get its RequestTimeoutError and exit 0 — not 13 (unsettled
// top-level await) — and not hang on its idle sessions.
import { describe, expect, it } from 'vitest';
import { runScript } from '../src/child-process.js';

describe('a script whose only pending work is a call with timeoutMs', () => {
  it('gets its RequestTimeoutError and exits 0 by itself', async () => {
    const { exit, stdout, stderr } = await runScript('timeout-client.ts', 20_000);
    expect(stdout.lines, `stderr: ${stderr.text.slice(-1000)}`).toContain('SETTLED RequestTimeoutError');
    expect(exit).toEqual({ code: 0, signal: null });
  });
});
