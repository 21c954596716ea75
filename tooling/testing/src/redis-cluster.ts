/**
 * A throw-away Redis Cluster for tests: Debian's `redis-server` in cluster mode, three masters
 * and one replica each by default, every node on free 127.0.0.1 ports (its client port and its
 * cluster-bus port, `cluster-port`), without persistence, its node files in a private temporary
 * directory. The cluster is formed with `redis-cli --cluster create … --cluster-replicas 1
 * --cluster-yes`, and {@link startRedisCluster} resolves once every node reports
 * `cluster_state:ok` and agrees that every slot is served, and every replica is in sync.
 *
 * ```
 *   master A (slots 0–5460)      ◀── replica A'
 *   master B (slots 5461–10922)  ◀── replica B'
 *   master C (slots 10923–16383) ◀── replica C'
 * ```
 *
 * {@link TestRedisCluster.failover} promotes a replica the way an operator's manual failover does
 * (`CLUSTER FAILOVER` sent to the replica: its master stops taking writes, the replica catches up,
 * then takes over), so no acknowledged write is lost; {@link TestRedisCluster.killMaster} is the
 * abrupt kind (SIGKILL, the replica is promoted after `cluster-node-timeout`).
 *
 * `CLUSTER FAILOVER` answers OK before anything happens, and the replica gives the manual failover
 * up, silently, when it is not done within Redis's manual-failover timeout (5 s: the master's
 * offset, then a majority of the masters' votes, must reach it in time). On a loaded machine that
 * happens, so {@link TestRedisCluster.failover} sends it again while the replica is still one.
 * A wait that times out names what it waited for and ends with each node's last log lines.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { launchRedisServer } from './redis-server.js';

/** One node of a {@link TestRedisCluster}. */
export interface TestClusterNode {
  readonly port: number;
  readonly url: string;
}

/** A node's role as `CLUSTER NODES` reports it. */
export interface ClusterNodeRole {
  readonly port: number;
  readonly role: 'master' | 'replica';
  /** The port of its master (replicas only). */
  readonly masterPort: number | undefined;
}

/** A running Redis Cluster for tests. */
export interface TestRedisCluster {
  /** Every node, masters and replicas as first started (roles change on failover: see {@link roles}). */
  readonly nodes: readonly TestClusterNode[];
  /** The `redis://` URLs of every node: the seed list clients discover the cluster from. */
  readonly urls: readonly string[];
  /** Each live node's current role. */
  roles(): Promise<ClusterNodeRole[]>;
  /** The port of the master now serving `key`'s slot. */
  masterOf(key: string): Promise<number>;
  /**
   * Manual failover of the master serving `key`'s slot (or of `masterPort`): `CLUSTER FAILOVER`
   * on one of its replicas; resolves once that replica is master and the cluster is ok again.
   * Lossless: the old master hands over only after the replica has caught up.
   */
  failover(target: { key: string } | { masterPort: number }): Promise<{ promoted: number; demoted: number }>;
  /** SIGKILLs the master serving `key`'s slot and resolves once a replica took its place. */
  killMaster(key: string): Promise<{ promoted: number; killed: number }>;
  /** Stops every node and removes its files. Idempotent. */
  stop(): Promise<void>;
}

/** Options of {@link startRedisCluster}. */
export interface RedisClusterOptions {
  /** Masters (default 3, the least Redis accepts). */
  readonly masters?: number;
  /** Replicas per master (default 1). */
  readonly replicasPerMaster?: number;
  /** `cluster-node-timeout`, ms: how soon a silent master is failed over (default 1000). */
  readonly nodeTimeoutMs?: number;
  /** How long forming the cluster may take, ms (default 30 000). */
  readonly formTimeoutMs?: number;
}

const POLL_MS = 100;
/** Redis's manual-failover timeout (`CLUSTER_MF_TIMEOUT`, 5 s) and a margin: past it, a replica that is still one gave up. */
const MANUAL_FAILOVER_RETRY_MS = 6_000;
/** Log lines kept per node for the message of a wait that timed out. */
const LOG_LINES = 12;

function redisCli(port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 20_000 }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`redis-cli -p ${port} ${args.join(' ')}: ${error.message} ${stderr}`));
      else resolve(stdout);
    });
  });
}

async function launchNode(port: number, busPort: number, dir: string, nodeTimeoutMs: number, log: string[]): Promise<ChildProcess> {
  // No 5 s wait before a replica's first (diskless) sync: a replica is in sync soon after it attaches.
  const args = ['--port', String(port), '--cluster-port', String(busPort), '--bind', '127.0.0.1', '--protected-mode', 'yes', '--save', '', '--appendonly', 'no', '--repl-diskless-sync-delay', '0'];
  args.push('--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', String(nodeTimeoutMs), '--dir', dir);
  const child = await launchRedisServer(args);
  // Its last log lines (roles, elections, syncs), for the message of a wait that times out.
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    log.push(...chunk.split('\n').filter((line) => line.trim() !== ''));
    log.splice(0, Math.max(0, log.length - LOG_LINES));
  });
  return child;
}

async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Parses `CLUSTER NODES`: `<id> <ip:port@cport> <flags> <master id|-> …`. Failed nodes are left out. */
function parseRoles(text: string): ClusterNodeRole[] {
  const lines = text
    .split('\n')
    .map((line) => line.trim().split(' '))
    .filter((fields) => fields.length >= 8);
  const portOf = new Map(lines.map((fields) => [fields[0], Number(/:(\d+)@/.exec(fields[1] ?? '')?.[1])]));
  return lines
    .filter((fields) => !(fields[2] ?? '').includes('fail'))
    .map((fields): ClusterNodeRole => {
      const replica = (fields[2] ?? '').includes('slave');
      return { port: portOf.get(fields[0]) ?? 0, role: replica ? 'replica' : 'master', masterPort: replica ? portOf.get(fields[3]) : undefined };
    });
}

/** Polls `check` every 100 ms until it holds (`held`) or `timeoutMs` passed (with the last error it threw). */
async function poll(timeoutMs: number, check: () => Promise<boolean>): Promise<{ held: boolean; error?: unknown }> {
  const deadline = Date.now() + timeoutMs;
  let error: unknown;
  for (;;) {
    try {
      if (await check()) return { held: true };
    } catch (thrown) {
      error = thrown;
    }
    if (Date.now() > deadline) return { held: false, error };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Polls `check` until it holds, failing after `timeoutMs` with `what` and each node's last log lines. */
async function until(what: string, timeoutMs: number, check: () => Promise<boolean>, logs: Map<number, string[]>): Promise<void> {
  const { held, error } = await poll(timeoutMs, check);
  if (held) return;
  const tails = [...logs].map(([port, lines]) => `--- node ${port}\n${lines.join('\n')}`).join('\n');
  throw new Error(`Redis Cluster: timed out waiting for ${what}${error instanceof Error ? ` (${error.message})` : ''}\n${tails}`);
}

/** Starts the nodes, forms the cluster and waits until it serves every slot. */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<TestRedisCluster> {
  const masters = options.masters ?? 3;
  const replicas = options.replicasPerMaster ?? 1;
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 1000;
  const formTimeoutMs = options.formTimeoutMs ?? 30_000;
  if (!Number.isInteger(masters) || masters < 3) throw new RangeError('A Redis Cluster needs at least 3 masters');
  const dir = mkdtempSync(join(tmpdir(), 'statemcp-redis-cluster-'));
  const children = new Map<number, ChildProcess>();
  const logs = new Map<number, string[]>();
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await Promise.all([...children.values()].map(killChild));
    rmSync(dir, { recursive: true, force: true });
  };
  const live = (): number[] => [...children].filter(([, child]) => child.exitCode === null && child.signalCode === null).map(([port]) => port);
  const allOk = async (): Promise<boolean> => {
    for (const port of live()) {
      const info = await redisCli(port, 'CLUSTER', 'INFO');
      if (!info.includes('cluster_state:ok') || !info.includes('cluster_slots_ok:16384')) return false;
    }
    return true;
  };
  const roles = async (): Promise<ClusterNodeRole[]> => {
    const [port] = live();
    if (port === undefined) throw new Error('Redis Cluster: no node is running');
    return parseRoles(await redisCli(port, 'CLUSTER', 'NODES'));
  };
  /** True when every live node sees `promoted` as a master and `demoted` (unless killed) as a replica. */
  const everyNodeSees = async (promoted: number, demoted: number | undefined): Promise<boolean> => {
    for (const port of live()) {
      const seen = parseRoles(await redisCli(port, 'CLUSTER', 'NODES'));
      if (!seen.some((node) => node.port === promoted && node.role === 'master')) return false;
      if (demoted !== undefined && !seen.some((node) => node.port === demoted && node.role === 'replica')) return false;
    }
    return true;
  };
  const masterOf = async (key: string): Promise<number> => {
    const [port] = live();
    if (port === undefined) throw new Error('Redis Cluster: no node is running');
    const slot = Number((await redisCli(port, 'CLUSTER', 'KEYSLOT', key)).trim());
    return portOfSlot(await redisCli(port, 'CLUSTER', 'NODES'), slot);
  };
  /** True when the replica on `port` has its replication link up (its initial sync done). */
  const inSync = async (port: number): Promise<boolean> => (await redisCli(port, 'INFO', 'replication')).includes('master_link_status:up');
  const replicaOf = async (masterPort: number): Promise<number> => {
    const replica = (await roles()).find((node) => node.role === 'replica' && node.masterPort === masterPort);
    if (replica === undefined) throw new Error(`Redis Cluster: master ${masterPort} has no replica`);
    return replica.port;
  };
  try {
    const count = masters * (1 + replicas);
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const [port, busPort] = [await freePort(), await freePort()];
      ports.push(port);
      const log: string[] = [];
      logs.set(port, log);
      children.set(port, await launchNode(port, busPort, dir, nodeTimeoutMs, log));
    }
    const create = ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', String(replicas), '--cluster-yes'];
    await new Promise<void>((resolve, reject) => {
      execFile('redis-cli', create, { timeout: formTimeoutMs }, (error, stdout) => {
        if (error !== null) reject(new Error(`redis-cli --cluster create: ${error.message} ${stdout}`));
        else resolve();
      });
    });
    await until('cluster_state:ok on every node', formTimeoutMs, allOk, logs);
    // Every replica attached (the failover helpers need them).
    await until('every replica to attach', formTimeoutMs, async () => (await roles()).filter((node) => node.role === 'replica').length === masters * replicas, logs);
    // … and to hold the data: a replica promoted before its first sync would lose every write.
    await until(
      'every replica in sync',
      formTimeoutMs,
      async () => {
        for (const node of await roles()) if (node.role === 'replica' && !(await inSync(node.port))) return false;
        return true;
      },
      logs,
    );
    const nodes = ports.map((port) => ({ port, url: `redis://127.0.0.1:${port}` }));
    return {
      nodes,
      urls: nodes.map((node) => node.url),
      roles,
      masterOf,
      failover: async (target) => {
        const demoted = 'key' in target ? await masterOf(target.key) : target.masterPort;
        const promoted = await replicaOf(demoted);
        await until(`replica ${promoted} in sync`, formTimeoutMs, () => inSync(promoted), logs);
        const tookOver = () => everyNodeSees(promoted, demoted);
        const deadline = Date.now() + formTimeoutMs;
        do {
          await redisCli(promoted, 'CLUSTER', 'FAILOVER');
          if ((await poll(Math.min(MANUAL_FAILOVER_RETRY_MS, deadline - Date.now()), tookOver)).held) break;
          // Still a replica: it gave the manual failover up (see the header), so ask again.
        } while (Date.now() < deadline && (await redisCli(promoted, 'ROLE')).startsWith('slave'));
        await until(`every node to see replica ${promoted} take over from ${demoted}`, Math.max(0, deadline - Date.now()), tookOver, logs);
        await until('cluster_state:ok after the failover', formTimeoutMs, allOk, logs);
        // The demoted master now replicates the promoted one: ready to be promoted back.
        await until(`node ${demoted} in sync as a replica`, formTimeoutMs, () => inSync(demoted), logs);
        return { promoted, demoted };
      },
      killMaster: async (key) => {
        const killed = await masterOf(key);
        const promoted = await replicaOf(killed);
        const child = children.get(killed);
        if (child !== undefined) await killChild(child);
        await until(`every node to see replica ${promoted} promoted`, formTimeoutMs, () => everyNodeSees(promoted, undefined), logs);
        await until('cluster_state:ok after the promotion', formTimeoutMs, allOk, logs);
        return { promoted, killed };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The port of the master whose slot ranges (`CLUSTER NODES`, fields 9 on: `0-5460`, `5461`) hold `slot`. */
function portOfSlot(text: string, slot: number): number {
  for (const line of text.split('\n')) {
    const fields = line.trim().split(' ');
    if (!(fields[2] ?? '').includes('master') || (fields[2] ?? '').includes('fail')) continue;
    for (const range of fields.slice(8)) {
      const match = /^(\d+)(?:-(\d+))?$/.exec(range);
      if (match === null) continue;
      const start = Number(match[1]);
      const end = match[2] === undefined ? start : Number(match[2]);
      if (slot >= start && slot <= end) return Number(/:(\d+)@/.exec(fields[1] ?? '')?.[1]);
    }
  }
  throw new Error(`Redis Cluster: no master serves slot ${slot}`);
}
