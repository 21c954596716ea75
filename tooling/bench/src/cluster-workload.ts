/**
 * What scale-out costs and buys on this machine: statemcp's client (handshake era, one session
 * per client) calling `tools/call echo` over Streamable HTTP against
 *
 * - `statemcp` — one instance whose stores are in memory (the single-server baseline);
 * - `redis` — one instance whose session records, relay bus and SSE event store are
 *   `@statemcp/redis-store`'s (the per-request price of the shared stores, nothing relayed);
 * - `cluster` — three such instances behind the round-robin proxy of `apps/cluster-example`,
 *   so about two requests in three reach an instance that does not run their session and are
 *   relayed to its owner over Redis (the default: a session's machine runs on its owner);
 * - `cluster-replicas` — the same three instances with `cluster.replicas` on (opt-in): an instance
 *   serves a session's requests on a replica of it, and relays only what needs the owner;
 * - `redis-modern`, `cluster-modern` — the same two deployments called with 2026-07-28 stateless
 *   requests (no session): every instance serves what it receives, nothing is relayed;
 * - `proxied-modern` — one instance behind the same proxy, 2026-07-28 requests: what the proxy
 *   hop alone costs the instance (the control for `cluster-modern`).
 *
 * And two floors, controls measured in the same run (never statemcp's figures):
 *
 * - `memory-rtt` — the in-memory instance plus one awaited Redis `PING` per turn that appends
 *   events (the fixture's `--round-trip`): what the one round trip a Redis-stored answer needs
 *   costs on this machine, without the store's own work (the floor for `redis` ÷ `statemcp`);
 * - `raw`, `raw-cluster` — the raw JSON-RPC HTTP fixture of the HTTP rows (its own client), one
 *   instance direct and three behind the same proxy: what splitting the same calls over three
 *   processes costs a server with no state at all (the floor for the three-instance ratios).
 *
 * Each run starts its own `redis-server` (or uses `STATEMCP_REDIS_URL`) and fixture processes
 * (in `--smoke`, one deployment per stack serves both rows: `shareClusterDeployments`).
 * Before the timed loop every server process — the one instance, or each of the three — has
 * received the same number of warm-up POSTs, counted by the instance itself (`clusterWarmup`:
 * 4 000 in full mode, by which one instance's CPU per call has stopped falling), so every stack
 * is measured at the same point of its processes' JIT warm-up whatever share of the timed calls
 * each then serves. Server CPU µs/call is the CPU time of every instance over the timed loop
 * (user + system, read through the fixture control channel without forcing a GC: the GCs the
 * loop triggers are in it, a forced full GC per instance is not) divided by the calls; Redis's own
 * CPU is not in it. Client CPU µs/call is this process's, which for `cluster` includes the proxy.
 * On a 2-core machine the three instances, Redis, the proxy and the client share two cores, so
 * `cluster` shows the relay's cost more than any gain in throughput.
 *
 * - `cluster.http.seq`: one client, sequential calls (per-request latency and CPU overhead).
 * - `cluster.http.8x4`: 8 clients × 4 calls in flight (throughput).
 */
import { randomUUID } from 'node:crypto';
import { startRoundRobinProxy, type RoundRobinProxy } from '@statemcp/cluster-example/round-robin-proxy';
import { testRedisUrl } from '@statemcp/testing';
import { adapter, fixturePath } from './adapters.js';
import { httpModern } from './clients/statemcp.js';
import { spawnHttpServer, type HttpChild } from './children.js';
import type { BenchClient } from './clients/types.js';
import type { Counts } from './config.js';
import { closedLoop, type Metric, type Sample, type Workload } from './runner.js';
import { ECHO_TEXT } from './spec.js';
import { latencyPercentiles } from './stats.js';

const STACKS = ['statemcp', 'redis', 'cluster', 'cluster-replicas', 'redis-modern', 'cluster-modern', 'proxied-modern', 'memory-rtt', 'raw', 'raw-cluster'] as const;
type Stack = (typeof STACKS)[number];

const METRICS: readonly Metric[] = [
  { key: 'callsPerSec', label: 'calls/s', digits: 0, higherIsBetter: true },
  { key: 'p50', label: 'p50 ms', digits: 3, higherIsBetter: false },
  { key: 'p99', label: 'p99 ms', digits: 3, higherIsBetter: false },
  { key: 'serverCpuUs', label: 'server CPU µs/call', digits: 1, higherIsBetter: false },
  { key: 'cpuUs', label: 'client CPU µs/call', digits: 1, higherIsBetter: false },
  { key: 'warmedPosts', label: 'warm-up POSTs, fewest on an instance', digits: 0, higherIsBetter: true },
];

/** The instances of one stack, the endpoint clients use, and how to read their CPU. */
interface Deployment {
  readonly url: string;
  /** How many instances serve it. */
  readonly instances: number;
  /** Each instance's own count of POSTs received and its CPU time so far (µs), read without a GC. */
  stats(): Promise<readonly InstanceStats[]>;
  stop(): Promise<void>;
}

interface InstanceStats {
  readonly posts: number;
  readonly cpuUs: number;
}

async function statsOf(children: readonly HttpChild[]): Promise<InstanceStats[]> {
  const reports = await Promise.all(children.map((child) => child.stats()));
  return reports.map((report) => ({ posts: report.posts ?? Number.NaN, cpuUs: report.cpuUs ?? Number.NaN }));
}

/** Fixture arguments of each instance of `stack` (one entry per instance), given Redis's URL and a key prefix. */
function instanceArgs(stack: Stack, redisUrl: string, prefix: string): string[][] {
  if (stack === 'memory-rtt') return [['--round-trip', redisUrl]];
  const count = stack === 'redis' || stack === 'redis-modern' || stack === 'proxied-modern' ? 1 : 3;
  const replicas = stack === 'cluster-replicas' ? ['--replicas'] : [];
  return Array.from({ length: count }, (_, i) => ['--redis', redisUrl, '--instance-id', `bench-${i + 1}`, '--prefix', prefix, ...replicas]);
}

async function deploy(stack: Stack): Promise<Deployment> {
  if (stack === 'statemcp') {
    const child = await spawnHttpServer(fixturePath('http-cluster'));
    return { url: child.url, instances: 1, stats: () => statsOf([child]), stop: () => child.stop() };
  }
  const raw = stack === 'raw' || stack === 'raw-cluster';
  const redis = raw ? undefined : await testRedisUrl();
  const children: HttpChild[] = [];
  let proxy: RoundRobinProxy | undefined;
  const stop = async (): Promise<void> => {
    await proxy?.close();
    await Promise.all(children.map((child) => child.stop()));
    await redis?.stop();
  };
  try {
    const args = redis === undefined ? (stack === 'raw' ? [[]] : [[], [], []]) : instanceArgs(stack, redis.url, `bench-cluster:${randomUUID()}:`);
    // Started together, each waiting for its own LISTENING line; every one that started is stopped on a failure.
    const fixture = fixturePath(raw ? 'http-raw' : 'http-cluster');
    const started = await Promise.allSettled(args.map((list) => spawnHttpServer(fixture, list)));
    for (const outcome of started) if (outcome.status === 'fulfilled') children.push(outcome.value);
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    if (children.length === 3 || stack === 'proxied-modern') proxy = await startRoundRobinProxy({ targets: children.map((child) => new URL(child.url)) });
    const url = proxy === undefined ? (children[0] as HttpChild).url : new URL('/mcp', proxy.url).href;
    return { url, instances: children.length, stats: () => statsOf(children), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Deployments the first cluster row left running for the second (`shareClusterDeployments`, smoke), by stack. */
const shared = new Map<string, Deployment>();

/** Stops the deployments a cluster row left for a row that did not run (`--only`, `--skip`); none otherwise. */
export async function stopSharedDeployments(): Promise<void> {
  const left = [...shared.values()];
  shared.clear();
  await Promise.all(left.map((deployment) => deployment.stop().catch(() => undefined)));
}

/** The client of `stack`: statemcp's on the handshake or stateless, or the raw floor's own. */
function connectTo(stack: string): (url: string) => Promise<BenchClient> {
  if (stack === 'raw' || stack === 'raw-cluster') return (url) => adapter('raw').http(url);
  if (stack.endsWith('-modern')) return httpModern;
  return (url) => adapter('statemcp').http(url);
}

/** `BENCH_CLUSTER_WARMUP_TRACE=1`: warm up in eight steps and print each instance's CPU per POST of every step. */
const TRACE = process.env.BENCH_CLUSTER_WARMUP_TRACE === '1';

/**
 * Calls until every instance has itself counted `perInstance` POSTs (its share of the handshake
 * included), within `maxMs` (60 % of the run's bound; the timed loop gets 30 %): the round-robin
 * proxy gives each instance its share of a batch, and what an instance still lacks is topped up
 * by another batch. Returns the fewest POSTs an instance received, which the row reports, so a
 * warm-up cut short by its time bound shows.
 */
async function warmUp(stack: string, deployment: Deployment, perInstance: number, workers: number, maxMs: number, call: (worker: number) => Promise<unknown>): Promise<number> {
  const deadline = performance.now() + maxMs;
  const step = TRACE ? Math.max(1, Math.ceil(perInstance / 8)) : perInstance;
  let last = await deployment.stats();
  let fewest = Math.min(...last.map((s) => s.posts));
  for (let batch = 0; batch < 64 && fewest < perInstance && performance.now() < deadline; batch++) {
    await closedLoop(Math.min(step, perInstance - fewest) * deployment.instances, workers, deadline - performance.now(), call);
    const now = await deployment.stats();
    if (TRACE) {
      const perPost = now.map((s, i) => ((s.cpuUs - (last[i] as InstanceStats).cpuUs) / Math.max(1, s.posts - (last[i] as InstanceStats).posts)).toFixed(0));
      process.stderr.write(`[cluster warm-up] ${stack} POSTs ${now.map((s) => s.posts).join('/')} CPU µs/POST ${perPost.join('/')}\n`);
    }
    last = now;
    fewest = Math.min(...now.map((s) => s.posts));
  }
  return fewest;
}

/** `keep`: leave the deployment running for the next cluster row instead of stopping it (after a run without an error only). */
function clusterCalls(id: string, title: string, clients: number, perClient: number, total: number, warmup: number, runLimitMs: number, keep: boolean): Workload {
  const workers = clients * perClient;
  return {
    id,
    title,
    detail: `${total} calls after ${warmup} warm-up POSTs received by every instance (counted by each), ${clients} client${clients === 1 ? '' : 's'} × ${perClient} in flight (handshake era, one session per client); statemcp = 1 instance, in-memory stores; redis = 1 instance, Redis stores; cluster = 3 Redis instances behind the round-robin proxy (client CPU includes the proxy); cluster-replicas = the same with cluster.replicas on (opt-in); -modern = the same called with 2026-07-28 stateless requests; controls (floors, not statemcp's figures): memory-rtt = the in-memory instance + one awaited Redis PING per call, raw / raw-cluster = the raw JSON-RPC HTTP floor (its own client), 1 instance / 3 behind the same proxy`,
    stacks: STACKS,
    metrics: METRICS,
    ratioMetrics: ['callsPerSec', 'serverCpuUs'],
    runLimitMs,
    run: async (stack): Promise<Sample> => {
      const deployment = shared.get(stack) ?? (await deploy(stack as Stack));
      shared.delete(stack);
      const list: BenchClient[] = [];
      let ran = false;
      try {
        const connect = connectTo(stack);
        for (let i = 0; i < clients; i++) list.push(await connect(deployment.url));
        const call = (worker: number): Promise<unknown> => (list[worker % clients] as BenchClient).echo(ECHO_TEXT);
        const warmed = await warmUp(stack, deployment, warmup, workers, runLimitMs * 0.6, call);
        const before = await deployment.stats();
        const result = await closedLoop(total, workers, runLimitMs * 0.3, call);
        const after = await deployment.stats();
        const perInstance = after.map((s, i) => (s.cpuUs - (before[i] as InstanceStats).cpuUs) / Math.max(1, s.posts - (before[i] as InstanceStats).posts));
        if (TRACE) process.stderr.write(`[cluster timed] ${stack} POSTs ${after.map((s, i) => s.posts - (before[i] as InstanceStats).posts).join('/')} CPU µs/POST ${perInstance.map((us) => us.toFixed(0)).join('/')}\n`);
        const serverCpuUs = after.reduce((sum, s, i) => sum + s.cpuUs - (before[i] as InstanceStats).cpuUs, 0) / Math.max(1, result.completed);
        const { p50, p99 } = latencyPercentiles(result.latencies);
        ran = true;
        return { callsPerSec: result.opsPerSec, p50, p99, serverCpuUs, cpuUs: result.cpuUsPerOp, warmedPosts: warmed };
      } finally {
        await Promise.all(list.map((client) => client.close().catch(() => undefined)));
        if (keep && ran) shared.set(stack, deployment);
        else await deployment.stop();
      }
    },
  };
}

/** The cluster workloads (registered in workloads.ts; both spawn children per run). */
export function clusterWorkloads(c: Counts): Workload[] {
  // Three instances warmed to the same count take three times one instance's warm-up calls: on
  // this loaded 2-core machine that needs longer than the mode's bound on one run.
  const runLimitMs = c.runLimitMs * 2.5;
  return [
    clusterCalls('cluster.http.seq', 'tools/call echo over Streamable HTTP: 1 instance in memory vs 1 on Redis vs 3 behind a round-robin proxy, sequential', 1, 1, c.httpSeq, c.clusterWarmup, runLimitMs, c.shareClusterDeployments === 1),
    clusterCalls('cluster.http.8x4', 'tools/call echo over Streamable HTTP: 1 instance in memory vs 1 on Redis vs 3 behind a round-robin proxy, 8 clients × 4 concurrent', 8, 4, c.httpConcurrent, Math.max(c.clusterWarmup, c.concurrentWarmupRounds * 8 * 4), runLimitMs, false),
  ];
}

/** Ids of {@link clusterWorkloads}. */
export const CLUSTER_WORKLOAD_IDS: readonly string[] = ['cluster.http.seq', 'cluster.http.8x4'];
