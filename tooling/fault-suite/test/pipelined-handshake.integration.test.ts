// Issue 18, item 1: `initialize`, `notifications/initialized` and `tools/list` written to a
// real stdio server in ONE write (what `echo … | server` and fast clients do) get two
// answers, in order: the initialize result, then the tools/list result — also with
// `strictInitialized`, where the early `initialized` must be applied, never dropped.
import { describe, expect, it } from 'vitest';
import { exited, spawnFixture, stop, within } from '../src/child-process.js';
import { INITIALIZED_NOTIFICATION, initializeRequest } from '../src/handshake-messages.js';
import { StdioWire } from '../src/stdio-wire.js';

describe.each([
  { mode: 'lenient (default)', args: [] },
  { mode: 'strictInitialized', args: ['--strict-initialized'] },
])('stdio server, pipelined handshake, $mode', ({ args }) => {
  it('answers initialize first, then tools/list with its result', async () => {
    const child = await spawnFixture('stdio-server.ts', { args });
    const { stdin, stdout } = child;
    if (stdin === null || stdout === null) throw new Error('the fixture needs piped stdio');
    try {
      const wire = new StdioWire(stdin, stdout);
      const frames = [initializeRequest(1), INITIALIZED_NOTIFICATION, { jsonrpc: '2.0', id: 2, method: 'tools/list' }];
      await wire.write(frames.map((frame) => `${JSON.stringify(frame)}\n`).join(''));
      await within(Promise.all([wire.response(1), wire.response(2)]), 10_000, 'answers to initialize and tools/list');
      // A later ping proves nothing else was sent in between.
      await wire.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' })}\n`);
      await within(wire.response(3), 10_000, 'the ping after the handshake');

      const answers = wire.received.filter((message) => typeof message === 'object' && message !== null && !('method' in message));
      expect(answers.map((message) => (message as { id?: unknown }).id)).toEqual([1, 2, 3]);
      expect(answers[0]).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
      expect(answers[1], 'tools/list must be served, not refused').toMatchObject({ id: 2, result: { tools: expect.arrayContaining([expect.objectContaining({ name: 'echo' })]) } });
      expect(answers[1]).not.toHaveProperty('error');
    } finally {
      stdin.end();
      await within(exited(child), 5_000, 'the server exiting').catch(() => stop(child));
    }
  });
});
