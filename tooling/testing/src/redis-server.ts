/**
 * A throw-away `redis-server` on a free 127.0.0.1 port (no persistence), or the Redis named by
 * `STATEMCP_REDIS_URL` when that is set: for the Redis tests (each uses its own key prefix, so
 * tests share one Redis without seeing each other's keys) and for `apps/cluster-example` when it
 * is given no Redis URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './free-port.js';

/** A running Redis for tests. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Kills the server (SIGKILL: as abrupt as a crash). Only for servers this helper started. */
  kill(): Promise<void>;
  /** Starts it again on the same port after {@link kill}. */
  restart(): Promise<void>;
  /** Stops it for good. */
  stop(): Promise<void>;
}

async function launch(port: number): Promise<ChildProcess> {
  return launchRedisServer(['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes']);
}

/** Starts Debian's `redis-server` with `args` and resolves once it accepts connections (rejects if it exits first). */
export async function launchRedisServer(args: readonly string[]): Promise<ChildProcess> {
  const child = spawn('redis-server', [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${String(code)}): ${output}`)));
  });
  child.stderr?.resume();
  return child;
}

async function killChild(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Starts a private `redis-server` (always: fault tests kill and restart it). */
export async function startRedisServer(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: async () => {
      await killChild(child);
      child = undefined;
    },
    restart: async () => {
      child = await launch(port);
    },
    stop: async () => {
      await killChild(child);
      child = undefined;
    },
  };
}

/** The Redis of `STATEMCP_REDIS_URL`, or a private server when it is not set. */
export async function testRedisUrl(): Promise<{ url: string; stop: () => Promise<void> }> {
  const fromEnv = process.env['STATEMCP_REDIS_URL'];
  if (fromEnv !== undefined && fromEnv !== '') return { url: fromEnv, stop: () => Promise.resolve() };
  const server = await startRedisServer();
  return { url: server.url, stop: () => server.stop() };
}

/** A key prefix no other test uses. */
export function uniquePrefix(): string {
  return `statemcp-test:${globalThis.crypto.randomUUID()}:`;
}
