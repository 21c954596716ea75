// The whole quickstart, with real child processes over stdio and over HTTP on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { ALL_STATES, runQuickstart } from '../src/tour.js';

describe('runQuickstart', () => {
  it('walks both transports through all six connection states and shows the timeout and its cancellation', async () => {
    const lines: string[] = [];
    const ok = await runQuickstart((line) => lines.push(line));
    const output = lines.join('\n');
    expect(ok, output).toBe(true);
    const [stdio = '', http = ''] = output.split('━━ Streamable HTTP');
    for (const leg of [stdio, http]) {
      for (const state of ALL_STATES) expect(leg).toContain(state);
      expect(leg).toContain('negotiated protocol 2025-11-25');
      expect(leg).toContain('tools/call greet: "Hello, statemcp!"');
      expect(leg).toContain('notifications/cancelled');
      expect(leg).toMatch(/client {2}request {5}→ tools\/call #\d+ {2}dispatched → expired/);
      expect(leg).toMatch(/server {2}request {5}← tools\/call #\d+ {2}processing → cancelled/);
      expect(leg).toContain('server  connection  ShuttingDown → Terminated');
    }
  });
});
