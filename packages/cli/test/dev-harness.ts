/**
 * Test harness for `statemcp dev` as a real process: a temp copy of the fixture project, the
 * command line that runs the CLI from source, a reader that waits for stderr lines, and the
 * process checks (children, ports) done at the end.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { bundleNodeScript } from '@statemcp/testing/node-bundle';

const here = fileURLToPath(new URL('.', import.meta.url));

/** The versions of the fixture entry the tests write, in order. */
export type FixtureVersion = 'v2-added' | 'v3-changed' | 'v4-removed';

/** A temp copy of `test/fixtures/project`, with `zod` linked into its `node_modules`. */
export interface FixtureProject {
  readonly dir: string;
  readonly entry: string;
  /** A folder outside the project for signal files. */
  readonly signals: string;
  /** Writes `server.<version>.ts` over the entry. */
  writeVersion(version: FixtureVersion): void;
  /** Writes `text` as the entry. */
  writeEntry(text: string): void;
  remove(): void;
}

export function makeProject(): FixtureProject {
  const root = mkdtempSync(join(tmpdir(), 'statemcp-dev-test-'));
  const dir = join(root, 'project');
  const signals = join(root, 'signals');
  cpSync(join(here, 'fixtures', 'project'), dir, { recursive: true });
  mkdirSync(signals);
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(realpathSync(join(here, '..', 'node_modules', 'zod')), join(dir, 'node_modules', 'zod'), 'dir');
  const entry = join(dir, 'src', 'server.ts');
  return {
    dir,
    entry,
    signals,
    writeVersion: (version) => writeFileSync(entry, readFileSync(join(dir, 'src', `server.${version}.ts`), 'utf8')),
    writeEntry: (text) => writeFileSync(entry, text),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * `node` and the arguments that run `statemcp …` from source: `statemcp-source.ts` bundled once
 * per test process (`@statemcp/testing/node-bundle`; third-party imports such as tsx keep their
 * absolute paths, so they resolve from the temp project too).
 */
export async function statemcpCommand(args: readonly string[]): Promise<{ command: string; args: string[] }> {
  return { command: process.execPath, args: [await bundleNodeScript(join(here, 'statemcp-source.ts')), ...args] };
}

/** Collects a stream's lines and resolves waits for lines matching a pattern. */
export class LineReader {
  readonly lines: string[] = [];
  #partial = '';
  readonly #waiters: { pattern: RegExp; from: number; resolve: (line: string) => void }[] = [];

  constructor(stream: Readable) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (this.#partial + chunk).split('\n');
      this.#partial = parts.pop() ?? '';
      for (const line of parts) this.#push(line);
    });
  }

  #push(line: string): void {
    this.lines.push(line);
    for (const waiter of [...this.#waiters]) {
      if (this.lines.length > waiter.from && waiter.pattern.test(line)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  }

  /** The next line matching `pattern` from line index `from` on (default: any line read so far). */
  waitFor(pattern: RegExp, from = 0): Promise<string> {
    const seen = this.lines.slice(from).find((line) => pattern.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.#waiters.push({ pattern, from, resolve }));
  }
}

/** The pids of `pid`'s child processes (`pgrep -P`, on Linux and macOS). */
export function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((child) => Number.isInteger(child) && child > 0);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

/** Whether a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The port in the first line of `reader` that names `label` with a URL. */
export async function portOf(reader: LineReader, label: RegExp): Promise<{ url: string; port: number }> {
  const line = await reader.waitFor(label);
  const url = /https?:\/\/\S+/.exec(line)?.[0] ?? '';
  return { url, port: Number(new URL(url).port) };
}
