/**
 * A local MCP cluster: N everything-server instances (child processes, `--http --redis`) on free
 * 127.0.0.1 ports sharing one Redis, behind the round-robin proxy. Without a Redis URL a
 * private `redis-server` is started on a free port (`@statemcp/testing`) and stopped with the
 * cluster. With `redisCluster` the shared state lives on a Redis Cluster instead (the instances
 * get `--redis-cluster`): the given nodes, or a private cluster of three masters with a replica
 * each, formed from `redis-server` processes on free ports (`startRedisCluster`).
 *
 * ```
 *                         ┌─▶ instance-1 ─┐
 *  client ──▶ round-robin ├─▶ instance-2 ─┼─▶ Redis (sessions, bus, events, tasks)
 *             proxy       └─▶ instance-3 ─┘
 * ```
 *
 * Shutdown: `stop()` closes the proxy, sends SIGTERM to every instance (SIGKILL after 5 s), then
 * stops the private Redis. Should this process exit without `stop()` (an uncaught error), an
 * `exit` hook still SIGKILLs the children, so no instance outlives it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { startRedisCluster, startRedisServer } from '@statemcp/testing';
import { startRoundRobinProxy, type RoundRobinProxy, type RoundRobinProxyOptions } from './round-robin-proxy.js';

const require = createRequire(import.meta.url);
const SERVER_BIN = require.resolve('@statemcp/app-everything-server/bin/everything-server.mjs');
const STOP_GRACE_MS = 5000;

/** Options of {@link startCluster}. */
export interface ClusterOptions {
  /** How many instances (default 3). */
  readonly instances?: number;
  /** The shared Redis; default: a private `redis-server` on a free port. */
  readonly redisUrl?: string;
  /**
   * Keep the shared state on a Redis Cluster: `true` starts a private one (3 masters, 1 replica
   * each), a list names the nodes of an existing one. Excludes `redisUrl`.
   */
  readonly redisCluster?: true | readonly string[];
  /** Port of the proxy (default 0: a free port). */
  readonly port?: number;
  /** Where the instances' log lines go, prefixed with their id (default: this process's stderr). */
  readonly log?: (line: string) => void;
  /** Told which instance (index into `instances`) each request went to. */
  readonly onForward?: RoundRobinProxyOptions['onForward'];
}

/** One running instance. */
export interface ClusterInstance {
  readonly id: string;
  /** Its own endpoint, `http://127.0.0.1:<port>/mcp` (clients use the proxy's). */
  readonly url: URL;
  readonly pid: number;
}

/** A running cluster. */
export interface Cluster {
  /** The endpoint clients use: the proxy's `/mcp`. */
  readonly url: URL;
  readonly instances: readonly ClusterInstance[];
  /** The shared Redis (on a Redis Cluster, its first node). */
  readonly redisUrl: string;
  /** The nodes of the Redis Cluster, when the state lives on one. */
  readonly redisCluster: readonly string[] | undefined;
  /** The Redis key prefix of this cluster (unique per run, so runs never share state). */
  readonly keyPrefix: string;
  /** Stops the proxy, the instances and the private Redis. Idempotent. */
  stop(): Promise<void>;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/** Starts one instance and resolves with its URL once it listens. */
function startInstance(id: string, redis: { url: string } | { cluster: readonly string[] }, keyPrefix: string, stateKey: string, log: (line: string) => void): { child: ChildProcess; ready: Promise<URL> } {
  const where = 'url' in redis ? ['--redis', redis.url] : ['--redis-cluster', redis.cluster.join(',')];
  const child = spawn(process.execPath, [SERVER_BIN, '--http', '--port', '0', ...where, '--instance-id', id, '--redis-prefix', keyPrefix], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, STATEMCP_REQUEST_STATE_KEY: stateKey },
  });
  const forwardLines = (stream: NodeJS.ReadableStream | null): void => {
    let pending = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) log(`[${id}] ${line}`);
    });
  };
  forwardLines(child.stderr);
  const ready = new Promise<URL>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve(new URL(match[1]));
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`${id} exited before listening (${signal ?? `status ${String(code)}`})`)));
  });
  return { child, ready };
}

/** Starts Redis (unless given), the instances and the proxy; resolves once all of them serve. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const count = options.instances ?? 3;
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`instances must be a positive integer, got ${count}`);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (options.redisCluster !== undefined && options.redisUrl !== undefined) throw new RangeError('give either redisUrl or redisCluster');
  const privateRedis = options.redisUrl !== undefined || options.redisCluster !== undefined ? undefined : await startRedisServer();
  const privateCluster = options.redisCluster === true ? await startRedisCluster() : undefined;
  const redisCluster = privateCluster?.urls ?? (options.redisCluster === true ? undefined : options.redisCluster);
  const redisUrl = options.redisUrl ?? privateRedis?.url ?? redisCluster?.[0] ?? '';
  const keyPrefix = `cluster-example:${randomUUID()}:`;
  // The instances seal Multi Round-Trip requestState with one key, so any of them opens it.
  const stateKey = randomBytes(32).toString('hex');
  const children: ChildProcess[] = [];
  const killAll = (): void => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.on('exit', killAll);
  let proxy: RoundRobinProxy | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await proxy?.close();
      await Promise.all(children.map(stopChild));
      process.off('exit', killAll);
      await privateRedis?.stop();
      await privateCluster?.stop();
    })();
    return stopping;
  };
  try {
    const started = Array.from({ length: count }, (_, i) => {
      const id = `instance-${i + 1}`;
      const instance = startInstance(id, redisCluster === undefined ? { url: redisUrl } : { cluster: redisCluster }, keyPrefix, stateKey, log);
      children.push(instance.child);
      return { id, child: instance.child, ready: instance.ready };
    });
    const instances = await Promise.all(started.map(async ({ id, child, ready }) => ({ id, url: await ready, pid: child.pid ?? 0 })));
    proxy = await startRoundRobinProxy({
      targets: instances.map((instance) => instance.url),
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.onForward === undefined ? {} : { onForward: options.onForward }),
    });
    return { url: new URL('/mcp', proxy.url), instances, redisUrl, redisCluster, keyPrefix, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
