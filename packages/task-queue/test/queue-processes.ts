/**
 * Real processes for the job-queue tests (`fixtures/queue-process.ts`, bundled from source by
 * `@statemcp/testing/node-bundle`): instances with an HTTP
 * front and worker-only processes, each collecting the events its tools print, with SIGKILL (a
 * crash), `drain` (a deploy) and `release` (held tasks may end) — and a wait for an event that the test's own timeout bounds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { bundleNodeScript } from '@statemcp/testing/node-bundle';
import type { QueueEvent } from './queue-fixture.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/queue-process.ts', import.meta.url));

/** One running process. */
export interface QueueProcess {
  readonly id: string;
  /** An instance's MCP endpoint (undefined for a worker). */
  readonly url: URL | undefined;
  readonly child: ChildProcess;
  /** Every event printed so far. */
  readonly events: QueueEvent[];
  readonly stderr: string[];
  /** Resolves with the first event (already printed or to come) that `match` accepts. */
  waitFor(match: (event: QueueEvent) => boolean): Promise<QueueEvent>;
  /** SIGKILL: as abrupt as a crash. */
  kill(): Promise<void>;
  /** Sends `drain <deadlineMs>` and resolves with the exit code. */
  drain(deadlineMs: number): Promise<number | null>;
  /** A worker: sends `release`, letting its held `count` tasks (`hold: true`) take their last step. */
  release(): void;
}

/** Where the processes of one test meet: the Redis URL, the stores' key prefix, the queue's name. */
export interface QueuePlace {
  readonly redisUrl: string;
  readonly keyPrefix: string;
  readonly queueName: string;
}

/** Starts `role` process `id` at `place`. */
export async function startProcess(role: 'instance' | 'worker', place: QueuePlace, id: string): Promise<QueueProcess> {
  // The fixture bundled from source once: a process started through tsx spent seconds compiling it.
  const args = [await bundleNodeScript(fixture), role, place.redisUrl, place.keyPrefix, place.queueName, id];
  const child = spawn(process.execPath, args, { cwd: packageRoot, stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  const events: QueueEvent[] = [];
  const watchers = new Set<() => void>();
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  let buffered = '';
  let ready!: (line: { ready: string }) => void;
  const started = new Promise<{ ready: string }>((resolve, reject) => {
    ready = resolve;
    child.once('exit', (code) => reject(new Error(`${role} ${id} exited (${String(code)}): ${stderr.join('')}`)));
  });
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const parsed = JSON.parse(line) as QueueEvent | { ready: string };
      if ('ready' in parsed) ready(parsed);
      else events.push(parsed);
    }
    for (const watcher of [...watchers]) watcher();
  });
  const { ready: said } = await started;
  return {
    id,
    url: role === 'instance' ? new URL(said) : undefined,
    child,
    events,
    stderr,
    waitFor: (match) =>
      new Promise((resolve) => {
        const check = (): void => {
          const found = events.find(match);
          if (found === undefined) return;
          watchers.delete(check);
          resolve(found);
        };
        watchers.add(check);
        check();
      }),
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
    drain: async (deadlineMs) => {
      const exited = once(child, 'exit') as Promise<[number | null]>;
      child.stdin?.write(`drain ${String(deadlineMs)}\n`);
      const [code] = await exited;
      return code;
    },
    release: () => void child.stdin?.write('release\n'),
  };
}
