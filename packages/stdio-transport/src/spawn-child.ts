/**
 * Starting the server process: no shell, the environment allow-list, stdio pipes (stderr as
 * configured), and with `processGroup: true` on POSIX a process group of its own (`detached`)
 * that shutdown signals as a whole. By default the child stays in this process's group, as
 * the official SDKs spawn it: `detached` means `setsid()`, which on Linux also starts a new
 * scheduling autogroup, and a busy stdio exchange between two autogroups loses most of its
 * throughput. Resolves once the process has spawned, or rejects with a
 * `TransportError` that names the command.
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { TransportError } from '@statemcp/protocol';
import { buildChildEnvironment } from './default-environment.js';
import type { StdioClientTransportOptions } from './stdio-client-options.js';

/** A spawned server with its pipes. */
export interface SpawnedChild {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable | null;
}

const isWindows = process.platform === 'win32';

export async function spawnChild(options: StdioClientTransportOptions): Promise<SpawnedChild> {
  const failed = (error: unknown): InstanceType<typeof TransportError> =>
    new TransportError(`Could not start ${options.command}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  let child: ChildProcess;
  try {
    // Loaded here, not at import: a server process imports this package too and never spawns.
    const { spawn } = await import('node:child_process');
    child = spawn(options.command, [...(options.args ?? [])], {
      cwd: options.cwd,
      env: buildChildEnvironment(options.env),
      stdio: ['pipe', 'pipe', options.stderr ?? 'pipe'],
      detached: options.processGroup === true && !isWindows,
      windowsHide: true,
      shell: false,
    });
  } catch (error) {
    throw failed(error);
  }
  try {
    await new Promise<void>((resolve, reject) => {
      const onSpawn = (): void => {
        child.off('error', onError);
        resolve();
      };
      const onError = (error: Error): void => {
        child.off('spawn', onSpawn);
        reject(error);
      };
      child.once('spawn', onSpawn);
      child.once('error', onError);
    });
  } catch (error) {
    throw failed(error);
  }
  const { stdin, stdout, stderr, pid } = child;
  if (stdin === null || stdout === null || pid === undefined) {
    child.kill('SIGKILL');
    throw new TransportError(`Could not start ${options.command}: no stdio pipes`);
  }
  return { child, pid, stdin, stdout, stderr };
}
