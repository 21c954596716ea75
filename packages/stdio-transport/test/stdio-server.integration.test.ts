import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StdioClientTransport } from '../src/index.js';
import { node, sourceFixture } from './support/paths.js';
import { RawPeer } from './support/raw-peer.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const appArgs = [await sourceFixture('stdio-server-app.mjs')];

/** Starts the StdioServerTransport fixture app and waits until it reports it is reading stdin. */
async function startApp(flags: readonly string[] = []) {
  const child = spawn(node, [...appArgs, ...flags], { cwd: packageRoot, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('stdio-server-app: ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`fixture exited early with ${String(code)}: ${stderr}`)));
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  await ready;
  const nextLine = async (): Promise<unknown> => {
    const { value, done } = await lines.next();
    if (done === true) throw new Error('stdout ended');
    return JSON.parse(value);
  };
  return { child, nextLine, exited, stderr: () => stderr };
}

describe('StdioServerTransport (real process)', () => {
  // The bound only tells "exits" from "held by the interval"; it leaves room for a loaded machine.
  it('exits within 5 s of stdin closing although a setInterval is running', async () => {
    const app = await startApp();
    app.child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"echo","params":{"n":1}}\n');
    expect(await app.nextLine()).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: { n: 1 } } });
    const started = performance.now();
    app.child.stdin.end();
    const [code, signal] = await app.exited;
    expect(performance.now() - started).toBeLessThan(5000);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(app.stderr()).toContain('closed (remote)');
  });

  it('exits with code 0 through process.exit() when its event loop empties after stdin closed', async () => {
    const app = await startApp(['--idle']);
    app.child.stdin.end();
    const [code, signal] = await app.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(app.stderr()).toContain('closed (remote)');
    // Not a natural exit: process.exit() skips the teardown.
    expect(app.stderr()).toContain('stdio-server-app: process.exit');
  });

  it("lets the application's own 'beforeExit' work finish before exiting", async () => {
    const app = await startApp(['--idle', '--before-exit-work']);
    app.child.stdin.end();
    const [code] = await app.exited;
    expect(code).toBe(0);
    const stderr = app.stderr();
    expect(stderr).toContain('stdio-server-app: cleanup done');
    expect(stderr.indexOf('cleanup done')).toBeLessThan(stderr.indexOf('stdio-server-app: process.exit'));
  });

  it('lets work started by the close callback finish before exiting', async () => {
    const app = await startApp(['--idle', '--close-work']);
    app.child.stdin.end();
    const [code] = await app.exited;
    expect(code).toBe(0);
    const stderr = app.stderr();
    expect(stderr).toContain('stdio-server-app: close work done');
    expect(stderr.indexOf('close work done')).toBeLessThan(stderr.indexOf('stdio-server-app: process.exit'));
  });

  it('exits at once without destroying the ended stdin when nothing is left to run', async () => {
    const app = await startApp(['--idle', '--report-stdin']);
    app.child.stdin.end();
    const [code] = await app.exited;
    expect(code).toBe(0);
    const stderr = app.stderr();
    expect(stderr).toContain('closed (remote)');
    expect(stderr.indexOf('stdio-server-app: process.exit')).toBeLessThan(stderr.indexOf('stdin destroyed: false'));
  });

  it('destroys the ended stdin before waiting for the close work, then exits', async () => {
    const app = await startApp(['--idle', '--close-work', '--report-stdin']);
    app.child.stdin.end();
    const [code] = await app.exited;
    expect(code).toBe(0);
    const stderr = app.stderr();
    expect(stderr).toContain('stdin destroyed: true');
    expect(stderr.indexOf('close work done')).toBeLessThan(stderr.indexOf('stdio-server-app: process.exit'));
  });

  it('answers a malformed line with -32700 and keeps serving', async () => {
    const app = await startApp();
    app.child.stdin.write('this is not json\n{"jsonrpc":"2.0","id":2,"method":"echo"}\r\n');
    expect(await app.nextLine()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(await app.nextLine()).toEqual({ jsonrpc: '2.0', id: 2, result: { echo: null } });
    app.child.stdin.end();
    await app.exited;
  });

  it('treats a broken stdout pipe (EPIPE) as the client going away, without crashing', async () => {
    const app = await startApp();
    app.child.stdout.destroy();
    app.child.stdin.write('{"jsonrpc":"2.0","id":3,"method":"echo"}\n');
    const [code, signal] = await app.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(app.stderr()).toContain('closed (remote)');
    expect(app.stderr()).not.toMatch(/Unhandled|uncaught|Error: write EPIPE/i);
  });

  it('is shut down by StdioClientTransport.close() through stdin alone', async () => {
    const signals: string[] = [];
    const transport = new StdioClientTransport({
      command: node,
      args: appArgs,
      cwd: packageRoot,
      onDiagnostic: (event) => {
        if (event.type === 'signal') signals.push(event.signal);
      },
    });
    const peer = new RawPeer(transport);
    await transport.start(peer);
    expect(await peer.request('echo', { hello: 'world' })).toEqual({ echo: { hello: 'world' } });
    await transport.close();
    expect(signals).toEqual([]);
    expect(peer.closeInfo).toMatchObject({ initiator: 'local', details: { exitCode: 0, signal: null } });
    expect(peer.closeInfo?.details?.stderrTail).toContain('closed (remote)');
  });
});
