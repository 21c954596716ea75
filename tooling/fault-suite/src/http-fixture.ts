/** The fault HTTP server fixture as a child process: its URL, its output, its memory. */
import type { ChildProcess } from 'node:child_process';
import { exited, LineReader, spawnFixture, stop, within, type ExitInfo } from './child-process.js';

export class HttpFixture {
  exit: ExitInfo | undefined;

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    readonly stdout: LineReader,
    readonly stderr: LineReader,
  ) {
    void exited(child).then((info) => {
      this.exit = info;
    });
  }

  /** Starts `fixtures/http-server.ts` (with `--expose-gc`) and waits until it listens. */
  static async start(): Promise<HttpFixture> {
    const child = await spawnFixture('http-server.ts', { nodeArgs: ['--expose-gc'] });
    if (child.stdout === null || child.stderr === null) throw new Error('the fixture needs piped stdio');
    const stdout = new LineReader(child.stdout);
    const stderr = new LineReader(child.stderr);
    const line = await stdout.waitFor((l) => l.startsWith('LISTENING '), 20_000, 'the HTTP fixture to listen');
    return new HttpFixture(child, line.slice('LISTENING '.length), stdout, stderr);
  }

  /** Heap used + external after a full GC, in bytes. */
  async memory(): Promise<number> {
    const before = this.stdout.lines.length;
    this.child.stdin?.write('MEM\n');
    const line = await this.stdout.waitFor((l) => l.startsWith('MEM '), 20_000, 'a memory report', before);
    return Number(line.slice('MEM '.length));
  }

  /** Ends the fixture (stdin end: it closes its server and exits); kills it if it lingers. */
  async close(): Promise<ExitInfo> {
    this.child.stdin?.end();
    return within(exited(this.child), 10_000, 'the HTTP fixture exiting').catch(() => stop(this.child));
  }
}
