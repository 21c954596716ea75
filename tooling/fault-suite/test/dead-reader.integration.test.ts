// Issue 18, item 3: the client dies while the server's stdout is full. After the pipe breaks
// (EPIPE), the server must fail its writer and every queued frame at once and exit — not wait out
// `flushTimeoutMs` (2 s by default) for a 'drain' that never comes. On a quiet machine it exits
// some tens of milliseconds after the break; the budget here is half the flush timeout so that a
// loaded CI machine cannot fail it while a writer that waits for 'drain' always does.
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { exited, LineReader, spawnFixture, stop, within } from '../src/child-process.js';
import { INITIALIZED_NOTIFICATION, initializeRequest } from '../src/handshake-messages.js';
import { StdioWire } from '../src/stdio-wire.js';

const EXIT_BUDGET_MS = 1000;

describe('stdio server with a dead reader', () => {
  it(`exits within ${String(EXIT_BUDGET_MS)} ms of its stdout pipe breaking while stdout is full`, async () => {
    const child = await spawnFixture('stdio-server.ts', { args: ['--report-stdout-full'] });
    const { stdin, stdout, stderr } = child;
    if (stdin === null || stdout === null || stderr === null) throw new Error('the fixture needs piped stdio');
    stdin.on('error', () => undefined);
    const errors = new LineReader(stderr);
    try {
      const wire = new StdioWire(stdin, stdout);
      await wire.write(`${JSON.stringify(initializeRequest(1))}\n`);
      await within(wire.response(1), 10_000, 'the initialize result');
      // From here on this side reads nothing: the server's stdout fills up.
      stdout.pause();
      stdout.removeAllListeners('data');
      await wire.write(
        [INITIALIZED_NOTIFICATION, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'fill-stdout', arguments: { count: 256, bytes: 64 * 1024 } } }]
          .map((frame) => `${JSON.stringify(frame)}\n`)
          .join(''),
      );
      await errors.waitFor((line) => line === 'STDOUT-FULL', 20_000, 'the server reporting a full stdout');

      // The client dies: both pipe ends close. The pipe is broken once both handles closed.
      const exit = exited(child);
      const stdoutClosed = once(stdout, 'close');
      const stdinClosed = once(stdin, 'close');
      stdout.destroy();
      stdin.destroy();
      await Promise.all([stdoutClosed, stdinClosed]);
      const broken = performance.now();
      const info = await within(exit, 10_000, 'the server exiting after its client died');
      const elapsed = performance.now() - broken;

      expect(info.signal).toBeNull();
      expect(elapsed, `exited ${elapsed.toFixed(0)} ms after the pipe broke; stderr: ${errors.text.slice(-500)}`).toBeLessThan(EXIT_BUDGET_MS);
    } finally {
      await stop(child);
    }
  });
});
