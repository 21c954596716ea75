import type { ConnectionClosedError, TransportCloseInfo } from '@statemcp/protocol';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../src/process-tree.js';
import { StdioClientTransport, type StdioClientDiagnostic, type StdioClientTransportOptions } from '../src/index.js';
import { fixture, node } from './support/paths.js';
import { RawPeer } from './support/raw-peer.js';

const transports: StdioClientTransport[] = [];

/** Starts `echo-server.mjs` (or `wrapper.mjs`) with the given flags and a RawPeer as its sink. */
async function startEcho(flags: string[] = [], options: Partial<StdioClientTransportOptions> & { script?: string } = {}) {
  const diagnostics: StdioClientDiagnostic[] = [];
  const { script = 'echo-server.mjs', ...rest } = options;
  const transport = new StdioClientTransport({
    command: node,
    args: [fixture(script), ...flags],
    onDiagnostic: (event) => diagnostics.push(event),
    ...rest,
  });
  transports.push(transport);
  const peer = new RawPeer(transport);
  await transport.start(peer);
  return { transport, peer, diagnostics };
}

const fastShutdown = { closeTimeoutMs: 300, terminateTimeoutMs: 300, killTimeoutMs: 2000 } as const;

afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.terminate()));
});

describe('StdioClientTransport (real child processes)', () => {
  describe('message exchange', () => {
    it('answers 10 000 sequential and 10 000 concurrent requests', async () => {
      const { transport, peer } = await startEcho();
      for (let index = 0; index < 10_000; index += 1) {
        const result = await peer.request<{ params: { n: number } }>('echo', { n: index });
        expect(result.params.n).toBe(index);
      }
      const results = await Promise.all(
        Array.from({ length: 10_000 }, (_, index) => peer.request<{ params: { n: number } }>('echo', { n: index })),
      );
      expect(results.map((result) => result.params.n)).toEqual(Array.from({ length: 10_000 }, (_, index) => index));
      await transport.close();
    });

    it('frames a 10 MiB message each way over real pipes', async () => {
      const { transport, peer } = await startEcho();
      const payload = `${'α'.repeat(1024)}${'z'.repeat(10 * 1024 * 1024)}`;
      const echoed = await peer.request<{ params: { payload: string } }>('echo', { payload });
      expect(echoed.params.payload).toBe(payload);
      const big = await peer.request<{ data: string }>('big', { size: 10 * 1024 * 1024 });
      expect(big.data.length).toBe(10 * 1024 * 1024);
      await transport.close();
    });

    it('keeps answering when the server writes 1 MB to stderr, and keeps only a bounded tail', async () => {
      let forwarded = 0;
      const { transport, peer } = await startEcho(['--stderr-bytes=1048576'], {
        onStderr: (chunk) => (forwarded += chunk.length),
      });
      const result = await peer.request<{ params: { ok: boolean } }>('echo', { ok: true });
      expect(result.params.ok).toBe(true);
      await transport.close();
      expect(forwarded).toBe(1024 * 1024);
      expect(transport.stderrTail().length).toBe(64 * 1024);
      expect(transport.stderrTail().endsWith('e\n')).toBe(true);
    });

    it('keeps answering with stderr ignored, and keeps no tail', async () => {
      const { transport, peer } = await startEcho(['--stderr-bytes=1048576'], { stderr: 'ignore' });
      expect(await peer.request('echo', { ok: true })).toEqual({ params: { ok: true } });
      expect(transport.stderrTail()).toBe('');
      await transport.close();
    });

    it('reports non-JSON lines from the server and keeps going', async () => {
      const { transport, peer, diagnostics } = await startEcho(['--noise']);
      const result = await peer.request<{ params: { n: number } }>('echo', { n: 1 });
      expect(result.params.n).toBe(1);
      await peer.waitForMalformed(1);
      expect(peer.malformed[0]?.text).toBe('this line is not JSON');
      expect(diagnostics).toContainEqual(expect.objectContaining({ type: 'malformed-line', text: 'this line is not JSON' }));
      await transport.close();
    });

    it('passes the default environment allow-list plus user variables, not the whole environment', async () => {
      process.env.STATEMCP_TEST_SECRET = 'must-not-leak';
      try {
        const { transport, peer } = await startEcho([], { env: { STATEMCP_TEST_VAR: 'visible' } });
        const { env } = await peer.request<{ env: Record<string, string> }>('env');
        expect(env.STATEMCP_TEST_VAR).toBe('visible');
        expect(env.STATEMCP_TEST_SECRET).toBeUndefined();
        if (process.env.PATH !== undefined) expect(env.PATH).toBe(process.env.PATH);
        await transport.close();
      } finally {
        delete process.env.STATEMCP_TEST_SECRET;
      }
    });
  });

  describe('#start', () => {
    it('rejects with a TransportError when the command does not exist', async () => {
      const transport = new StdioClientTransport({ command: 'statemcp-no-such-command-xyz' });
      const peer = new RawPeer(transport);
      await expect(transport.start(peer)).rejects.toMatchObject({ name: 'TransportError', code: 'TRANSPORT_ERROR' });
      expect(transport.status).toBe('closed');
      expect(peer.closeCount).toBe(0);
      await transport.close();
    });

    it('rejects with a TransportError when the working directory does not exist', async () => {
      const transport = new StdioClientTransport({ command: node, args: [fixture('echo-server.mjs')], cwd: '/statemcp/no/such/dir' });
      await expect(transport.start(new RawPeer(transport))).rejects.toMatchObject({ name: 'TransportError' });
      expect(transport.status).toBe('closed');
    });

    it('starts the child in the given working directory', async () => {
      const cwd = tmpdir();
      const { transport, peer } = await startEcho([], { cwd });
      const result = await peer.request<{ cwd: string }>('env');
      expect(realpathSync(result.cwd)).toBe(realpathSync(cwd));
      await transport.close();
    });

    it('cannot be started twice', async () => {
      const { transport, peer } = await startEcho();
      await expect(transport.start(peer)).rejects.toMatchObject({ name: 'InvalidStateError' });
      await transport.close();
    });
  });

  describe('#close', () => {
    it('lets a well-behaved server exit on stdin end without any signal', async () => {
      const { transport, peer, diagnostics } = await startEcho();
      await peer.request('echo');
      const pid = transport.pid ?? -1;
      await transport.close();
      expect(diagnostics.some((event) => event.type === 'signal')).toBe(false);
      expect(peer.closeInfo).toMatchObject({ initiator: 'local', details: { pid, exitCode: 0, signal: null } });
      expect(peer.closeCount).toBe(1);
      expect(await isProcessAlive(pid)).toBe(false);
    });

    it('kills a server that ignores stdin end and SIGTERM within the configured grace', async () => {
      const { transport, peer, diagnostics } = await startEcho(['--ignore-sigterm', '--ignore-stdin-end'], fastShutdown);
      await peer.request('echo');
      const pid = transport.pid ?? -1;
      const started = performance.now();
      await transport.close();
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(550);
      expect(elapsed).toBeLessThan(300 + 300 + 2000);
      expect(diagnostics.filter((event) => event.type === 'signal').map((event) => event.type === 'signal' && event.signal)).toEqual([
        'SIGTERM',
        'SIGKILL',
      ]);
      expect(peer.closeInfo).toMatchObject({ initiator: 'local', details: { exitCode: null, signal: 'SIGKILL' } });
      expect(peer.closeInfo?.details?.stderrTail).toContain('ignoring SIGTERM');
      expect(await isProcessAlive(pid)).toBe(false);
    });

    it('leaves no live process when a wrapper started the real server as a grandchild', async () => {
      const { transport, peer } = await startEcho(['--ignore-sigterm', '--ignore-stdin-end'], {
        script: 'wrapper.mjs',
        ...fastShutdown,
      });
      const { pid: grandchild, ppid } = await peer.request<{ pid: number; ppid: number }>('pid');
      const wrapper = transport.pid ?? -1;
      expect(ppid).toBe(wrapper);
      expect(await isProcessAlive(grandchild)).toBe(true);
      await transport.close();
      expect(await isProcessAlive(wrapper)).toBe(false);
      expect(await isProcessAlive(grandchild)).toBe(false);
    });

    it('kills a background process the server started, after the server itself exited', async () => {
      // The server must exit on stdin end before the SIGTERM step (the background child holds the close wait for its whole length).
      const { transport, peer } = await startEcho([], { ...fastShutdown, closeTimeoutMs: 2000 });
      const { pid: background } = await peer.request<{ pid: number }>('spawn');
      expect(await isProcessAlive(background)).toBe(true);
      await transport.close();
      expect(peer.closeInfo?.details).toMatchObject({ exitCode: 0 });
      expect(await isProcessAlive(background)).toBe(false);
    });

    it('settles while a large write is stuck in a pipe nobody reads, rejecting that send', async () => {
      let resolveReady: () => void = () => undefined;
      const ready = new Promise<void>((resolve) => (resolveReady = resolve));
      const { transport, peer } = await startEcho(['--no-read'], {
        ...fastShutdown,
        onStderr: (chunk) => {
          if (chunk.toString().includes('not reading stdin')) resolveReady();
        },
      });
      await ready;
      const stuck = transport.send({ jsonrpc: '2.0', method: 'x', params: { data: 'q'.repeat(16 * 1024 * 1024) } });
      const queued = transport.send({ jsonrpc: '2.0', method: 'y' });
      const outcomes = Promise.allSettled([stuck, queued]);
      await transport.close();
      for (const outcome of await outcomes) {
        expect(outcome).toMatchObject({ status: 'rejected', reason: { name: 'ConnectionClosedError' } });
      }
      expect(peer.closeInfo).toMatchObject({ initiator: 'local', details: { signal: 'SIGTERM' } });
    });

    it('is idempotent, calls onClose once, and refuses later sends', async () => {
      const { transport, peer } = await startEcho();
      await Promise.all([transport.close(), transport.close(), transport.terminate()]);
      await transport.close();
      expect(peer.closeCount).toBe(1);
      expect(transport.status).toBe('closed');
      await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ name: 'ConnectionClosedError' });
    });

    it('settles when called before start', async () => {
      const transport = new StdioClientTransport({ command: node });
      await transport.close();
      expect(transport.status).toBe('closed');
    });
  });

  describe('#terminate', () => {
    it('sends SIGKILL to the group at once', async () => {
      const { transport, peer, diagnostics } = await startEcho(['--ignore-sigterm', '--ignore-stdin-end'], {
        closeTimeoutMs: 60_000,
        terminateTimeoutMs: 60_000,
      });
      await peer.request('echo');
      await transport.terminate();
      expect(diagnostics.filter((event) => event.type === 'signal')).toEqual([
        { type: 'signal', signal: 'SIGKILL', pid: transport.pid },
      ]);
      expect(peer.closeInfo).toMatchObject({ initiator: 'local', details: { signal: 'SIGKILL' } });
    });
  });

  describe('when the server goes away', () => {
    it('rejects a pending request at once with the exit details when the child crashes', async () => {
      const { transport, peer } = await startEcho();
      const hanging = peer.request('hang');
      const started = performance.now();
      const crashing = peer.request('crash', { code: 3 });
      const [hangResult, crashResult] = await Promise.allSettled([hanging, crashing]);
      // "At once": far below any request timeout, with room for a loaded 2-core machine.
      expect(performance.now() - started).toBeLessThan(5000);
      for (const outcome of [hangResult, crashResult]) {
        expect(outcome.status).toBe('rejected');
        const error = (outcome as PromiseRejectedResult).reason as ConnectionClosedError;
        expect(error).toMatchObject({ name: 'ConnectionClosedError', details: { exitCode: 3, signal: null } });
        expect(error.details?.stderrTail).toContain('crashing on purpose');
      }
      const info = peer.closeInfo as TransportCloseInfo;
      expect(info.initiator).toBe('error');
      expect(info.error?.message).toMatch(/exited with code 3.*crashing on purpose/);
      await transport.close();
      expect(peer.closeCount).toBe(1);
    });

    it('closes with initiator remote when the server exits cleanly', async () => {
      const { peer } = await startEcho([], fastShutdown);
      const info = await new Promise<TransportCloseInfo>((resolve) => {
        void peer.closed.then(resolve);
        void peer.request('crash', { code: 0 }).catch(() => undefined);
      });
      expect(info).toMatchObject({ initiator: 'remote', details: { exitCode: 0 } });
      expect(info.error).toBeUndefined();
    });

    it('shuts the server down when it closes its stdout', async () => {
      const { transport, peer } = await startEcho([], fastShutdown);
      const pending = peer.request('close-stdout');
      await expect(pending).rejects.toMatchObject({ name: 'ConnectionClosedError' });
      expect(peer.closeInfo).toMatchObject({ initiator: 'remote', details: { exitCode: 0 } });
      await transport.close();
      expect(await isProcessAlive(transport.pid ?? -1)).toBe(false);
    });

    it('reaps an orphaned grandchild after the wrapper exits on its own', async () => {
      let stderr = '';
      let resolveGrandchild: (pid: number) => void = () => undefined;
      const grandchildPid = new Promise<number>((resolve) => (resolveGrandchild = resolve));
      const { transport, peer } = await startEcho(['--exit-early', '--ignore-sigterm', '--ignore-stdin-end'], {
        script: 'wrapper.mjs',
        ...fastShutdown,
        onStderr: (chunk) => {
          stderr += chunk.toString();
          const match = /grandchild pid (\d+)/.exec(stderr);
          if (match?.[1] !== undefined) resolveGrandchild(Number(match[1]));
        },
      });
      const grandchild = await grandchildPid;
      const info = await peer.closed;
      expect(info).toMatchObject({ initiator: 'remote', details: { exitCode: 0 } });
      await transport.close();
      expect(await isProcessAlive(grandchild)).toBe(false);
    });

    it('closes with MessageTooLargeError when a line exceeds maxMessageSize', async () => {
      const { transport, peer } = await startEcho([], { maxMessageSize: 1024 });
      await expect(peer.request('big', { size: 4096 })).rejects.toMatchObject({ name: 'ConnectionClosedError' });
      expect(peer.closeInfo).toMatchObject({ initiator: 'error', error: { name: 'MessageTooLargeError' } });
      await transport.close();
    });
  });
});
