/**
 * Shutdown reaches the whole process tree in both spawn modes: by default (the child stays in
 * this process's group; its descendants are followed) and with `processGroup: true` (the
 * child leads a group that is signalled as a whole). Wrappers such as `npx` are stood in for
 * by wrapper.mjs, which starts echo-server.mjs as a grandchild and forwards no signal.
 */
import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { DescendantTree } from '../src/descendant-tree.js';
import { isProcessAlive } from '../src/process-tree.js';
import { StdioClientTransport, type StdioClientDiagnostic, type StdioClientTransportOptions } from '../src/index.js';
import { fixture, node, sourceFixture } from './support/paths.js';
import { RawPeer } from './support/raw-peer.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const transports: StdioClientTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.terminate()));
});

const fastShutdown = { closeTimeoutMs: 300, terminateTimeoutMs: 300, killTimeoutMs: 2000 } as const;
/**
 * For a test whose server must exit on stdin end by itself while something it started survives:
 * that survivor holds the close step for its whole wait, so the wait costs its full length, but
 * 300 ms is too short for the server to exit on a loaded machine (its SIGTERM would then end it).
 */
const closeWaitForExit = { ...fastShutdown, closeTimeoutMs: 2000 } as const;

async function startWrapper(flags: string[], options: Partial<StdioClientTransportOptions> = {}) {
  const diagnostics: StdioClientDiagnostic[] = [];
  let stderr = '';
  let resolveGrandchild: (pid: number) => void = () => undefined;
  const grandchild = new Promise<number>((resolve) => (resolveGrandchild = resolve));
  const transport = new StdioClientTransport({
    command: node,
    args: [fixture('wrapper.mjs'), ...flags],
    onDiagnostic: (event) => diagnostics.push(event),
    onStderr: (chunk) => {
      stderr += chunk.toString();
      const match = /grandchild pid (\d+)/.exec(stderr);
      if (match?.[1] !== undefined) resolveGrandchild(Number(match[1]));
    },
    ...fastShutdown,
    ...options,
  });
  transports.push(transport);
  const peer = new RawPeer(transport);
  await transport.start(peer);
  return { transport, peer, diagnostics, grandchild: await grandchild };
}

/** The process group of `pid` (POSIX `ps`). */
const processGroupOf = (pid: number): number => Number(execFileSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' }).trim());

const signalsOf = (diagnostics: StdioClientDiagnostic[]): string[] =>
  diagnostics.flatMap((event) => (event.type === 'signal' ? [event.signal] : []));

/** Polls until `pid` is gone (the parent-exit hook's SIGTERM is not awaited by anyone). */
async function gone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  while (performance.now() < deadline) {
    if (!(await isProcessAlive(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !(await isProcessAlive(pid));
}

describe.each([
  { mode: 'default (descendants)', processGroup: false },
  { mode: 'processGroup', processGroup: true },
])('StdioClientTransport process tree, $mode', ({ processGroup }) => {
  it('spawns the child in this process group by default, in a group of its own with processGroup', async () => {
    const { transport } = await startWrapper([], { processGroup });
    const pid = transport.pid ?? -1;
    expect(processGroupOf(pid)).toBe(processGroup ? pid : processGroupOf(process.pid));
  });

  it('leaves neither wrapper nor grandchild alive after close(), SIGKILLing a grandchild that ignores SIGTERM', async () => {
    const { transport, peer, diagnostics, grandchild } = await startWrapper(['--ignore-sigterm', '--ignore-stdin-end'], { processGroup });
    const { ppid } = await peer.request<{ ppid: number }>('pid');
    const wrapper = transport.pid ?? -1;
    expect(ppid).toBe(wrapper);
    await transport.close();
    expect(signalsOf(diagnostics)).toEqual(['SIGTERM', 'SIGKILL']);
    expect(await isProcessAlive(wrapper)).toBe(false);
    expect(await isProcessAlive(grandchild)).toBe(false);
    expect(diagnostics.some((event) => event.type === 'shutdown-incomplete')).toBe(false);
  });

  it('finds a grandchild the wrapper started from another thread, and SIGKILLs it', async () => {
    const { transport, peer, diagnostics, grandchild } = await startWrapper(['--from-worker', '--ignore-sigterm', '--ignore-stdin-end'], { processGroup });
    const { ppid } = await peer.request<{ ppid: number }>('pid');
    expect(ppid).toBe(transport.pid);
    await transport.close();
    expect(signalsOf(diagnostics)).toEqual(['SIGTERM', 'SIGKILL']);
    expect(await isProcessAlive(grandchild)).toBe(false);
    expect(diagnostics.some((event) => event.type === 'shutdown-incomplete')).toBe(false);
  });

  it('kills a grandchild reparented because the wrapper exited before close() began', async () => {
    const { transport, peer, grandchild } = await startWrapper(['--exit-early', '--ignore-sigterm', '--ignore-stdin-end'], { processGroup });
    await peer.closed;
    expect(await isProcessAlive(grandchild)).toBe(true);
    await transport.close();
    expect(await isProcessAlive(grandchild)).toBe(false);
  });

  it('kills a background process without stdio whose parent exited during the shutdown', async () => {
    const { transport, peer, diagnostics } = await startWrapper([], { processGroup, ...closeWaitForExit });
    // echo-server's `spawn`: a child with stdio 'ignore' that ignores SIGTERM.
    const { pid: background } = await peer.request<{ pid: number }>('spawn');
    await transport.close();
    expect(peer.closeInfo?.details).toMatchObject({ exitCode: 0 });
    expect(signalsOf(diagnostics)).toEqual(['SIGTERM', 'SIGKILL']);
    expect(await isProcessAlive(background)).toBe(false);
  });

  it('takes the tree down when the client process exits without closing', async () => {
    const args = [await sourceFixture('exiting-client.mjs'), fixture('wrapper.mjs'), ...(processGroup ? ['--process-group'] : [])];
    const { stdout } = await promisify(execFile)(node, args, { cwd: packageRoot, encoding: 'utf8' });
    const grandchild = Number(/grandchild (\d+)/.exec(stdout)?.[1]);
    expect(Number.isInteger(grandchild)).toBe(true);
    expect(await gone(grandchild, 5000)).toBe(true);
  });
});

describe('DescendantTree', () => {
  it('finds a grandchild started from another thread of the child by parentage alone', async () => {
    const { transport, grandchild } = await startWrapper(['--from-worker']);
    const tree = await DescendantTree.forChild(transport.pid ?? -1);
    // While the wrapper runs, the snapshot reads no descriptors: only the threads' children lists.
    expect(await tree.snapshot()).toEqual(expect.arrayContaining([transport.pid, grandchild]));
  });
});
