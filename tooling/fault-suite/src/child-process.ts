/**
 * Real child processes for the fault suite: fixtures written in TypeScript against the
 * workspace packages' `src/` (the `@statemcp/source` export condition, through their public
 * entry points, exactly as the tests use them), each bundled once per test process by
 * `@statemcp/testing/node-bundle` and run by plain `node`.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { bundleNodeScript } from '@statemcp/testing/node-bundle';

/** The fault-suite package folder (the working directory of every fixture). */
export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Node arguments that run a TypeScript fixture against the workspace sources. */
export async function fixtureCommand(fixture: string, args: readonly string[] = [], nodeArgs: readonly string[] = []): Promise<{ command: string; args: string[] }> {
  const bundle = await bundleNodeScript(fileURLToPath(new URL(`../fixtures/${fixture}`, import.meta.url)));
  return { command: process.execPath, args: [...nodeArgs, bundle, ...args] };
}

export interface SpawnFixtureOptions {
  readonly args?: readonly string[];
  readonly nodeArgs?: readonly string[];
  readonly stdio?: StdioOptions;
}

/** Spawns a fixture from `fixtures/` with pipes on all three streams unless told otherwise. */
export async function spawnFixture(fixture: string, options: SpawnFixtureOptions = {}): Promise<ChildProcess> {
  const { command, args } = await fixtureCommand(fixture, options.args, options.nodeArgs);
  return spawn(command, args, { cwd: PACKAGE_DIR, stdio: options.stdio ?? ['pipe', 'pipe', 'pipe'] });
}

/** How a child ended. */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Resolves when the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<ExitInfo> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Rejects with `message` when `promise` has not settled after `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} (no answer within ${String(ms)} ms)`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Kills a child that is still running and waits for its exit. */
export async function stop(child: ChildProcess): Promise<ExitInfo> {
  const done = exited(child);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  return done;
}

/**
 * Splits a stream into lines and lets a test wait for the first line matching a predicate.
 * Everything read is kept in `text` for assertions and failure messages.
 */
export class LineReader {
  text = '';
  readonly #lines: string[] = [];
  readonly #waiters = new Set<{ match: (line: string) => boolean; resolve: (line: string) => void }>();
  #partial = '';

  constructor(stream: Readable) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => this.#push(chunk));
  }

  /** Every complete line so far. */
  get lines(): readonly string[] {
    return this.#lines;
  }

  #push(chunk: string): void {
    this.text += chunk;
    const parts = (this.#partial + chunk).split('\n');
    this.#partial = parts.pop() ?? '';
    for (const line of parts) {
      this.#lines.push(line);
      for (const waiter of this.#waiters) {
        if (!waiter.match(line)) continue;
        this.#waiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  }

  /** The first line from index `from` on (already read or still to come) for which `match` holds. */
  waitFor(match: (line: string) => boolean, ms: number, what: string, from = 0): Promise<string> {
    const seen = this.#lines.slice(from).find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return within(
      new Promise<string>((resolve) => this.#waiters.add({ match, resolve })),
      ms,
      `waiting for ${what}; read so far: ${this.text.slice(-400)}`,
    );
  }
}

/** What a script fixture left behind: how it ended and everything it printed. */
export interface ScriptRun {
  readonly exit: ExitInfo;
  readonly stdout: LineReader;
  readonly stderr: LineReader;
}

/** Runs a script fixture (stdin closed) until it exits by itself; kills it after `ms`. */
export async function runScript(fixture: string, ms: number): Promise<ScriptRun> {
  const child = await spawnFixture(fixture, { stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.stdout === null || child.stderr === null) throw new Error('the fixture needs piped stdout and stderr');
  const stdout = new LineReader(child.stdout);
  const stderr = new LineReader(child.stderr);
  try {
    const exit = await within(exited(child), ms, `${fixture} exiting by itself`);
    return { exit, stdout, stderr };
  } finally {
    await stop(child);
  }
}
