// The whole quickstart, with real child processes over stdio and over HTTP on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { ALL_STATES, runQuickstart } from '../src/tour.js';

describe('runQuickstart', () => {
  it('walks both legacy legs through all six connection states with the timeout and its cancellation, and the modern leg through discovery and a cached list', async () => {
    const lines: string[] = [];
    const ok = await runQuickstart((line) => lines.push(line));
    const output = lines.join('\n');
    expect(ok, output).toBe(true);
    const [legacy = '', modern = ''] = output.split('━━ 2026-07-28');
    const [stdio = '', http = ''] = legacy.split('━━ Streamable HTTP');
    for (const leg of [stdio, http]) {
      for (const state of ALL_STATES) expect(leg).toContain(state);
      expect(leg).toContain('negotiated protocol 2025-11-25');
      expect(leg).toContain('tools/call greet: "Hello, statemcp!"');
      expect(leg).toContain('notifications/cancelled');
      expect(leg).toMatch(/client {2}request {5}→ tools\/call #\d+ {2}dispatched → expired/);
      expect(leg).toMatch(/server {2}request {5}← tools\/call #\d+ {2}processing → cancelled/);
      expect(leg).toContain('server  connection  ShuttingDown → Terminated');
    }
    expect(modern).toContain('server/discover: era modern, protocol 2026-07-28');
    expect(modern).not.toMatch(/→ initialize #/);
    expect(modern).toContain('tools/list again: served from the response cache, nothing sent (cache hits 1, misses 1)');
    expect(modern.match(/client {2}request {5}→ tools\/list #\d+ {2}created\n/g)).toHaveLength(1);
  });
});
