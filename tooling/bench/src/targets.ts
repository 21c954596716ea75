/**
 * The performance targets a full run is checked against: issue 39's (stateless HTTP, the default
 * client, the cluster, stdio, the default era) and those of issue 19 still standing. Ratios are
 * paired per repetition (then the median), absolute targets use statemcp's median. HTTP rows are
 * checked on both client stacks, each against the raw floor on the same client: the default
 * `nodeHttpFetch` against raw over node:http, the global `fetch` against raw over the global `fetch`.
 */
import { fmt, median, ratio } from './figures.js';
import type { WorkloadResult } from './runner.js';

export interface TargetCheck {
  readonly name: string;
  readonly measured: string;
  readonly met: boolean | undefined;
}

const HTTP_ROWS = [
  ['call.http.seq', 'Streamable HTTP 1 client sequential'],
  ['call.http.16x8', 'Streamable HTTP 16 clients × 8 concurrent'],
  ['call.http.modern', 'Streamable HTTP 2026-07-28 stateless, 1 client sequential'],
  ['call.http.modern16x8', 'Streamable HTTP 2026-07-28 stateless, 16 clients × 8 concurrent'],
] as const;

const ERA_ROWS = [
  ['era.memory', 'in memory'],
  ['era.stdio', 'stdio'],
  ['era.http', 'Streamable HTTP'],
] as const;

/**
 * A control of the same row measured in the same run, whose ratio (same metric, `mine` ÷ `other`)
 * is shown beside statemcp's: the floor the target meets on this machine.
 */
interface Floor {
  readonly label: string;
  readonly mine: string;
  readonly other: string;
}

export function targets(results: readonly WorkloadResult[]): TargetCheck[] {
  const byId = new Map(results.map((r) => [r.id, r]));
  const checks: TargetCheck[] = [];
  /** `test` returns undefined for a ratio shown for information (no target). */
  const ratioTarget = (name: string, id: string, metric: string, other: string, test: (v: number) => boolean | undefined, mine = 'statemcp', floor?: Floor): void => {
    const result = byId.get(id);
    if (result === undefined || !result.stacks.includes(mine) || !result.stacks.includes(other)) return;
    const r = ratio(result, metric, other, mine);
    let measured = r.n === 0 ? 'n/a' : `${fmt(r.median, 2)}×`;
    if (floor !== undefined && r.n > 0 && result.stacks.includes(floor.mine) && result.stacks.includes(floor.other)) {
      const f = ratio(result, metric, floor.other, floor.mine);
      measured += ` (${floor.label}: ${f.n === 0 ? 'n/a' : `${fmt(f.median, 2)}×`})`;
    }
    checks.push({ name, measured, met: r.n === 0 ? undefined : test(r.median) });
  };
  const absoluteTarget = (name: string, id: string, metric: string, unit: string, test: (v: number) => boolean, stack = 'statemcp'): void => {
    const result = byId.get(id);
    if (result === undefined || !result.stacks.includes(stack) || !result.metrics.some((m) => m.key === metric)) return;
    const s = median(result, stack, metric);
    checks.push({ name, measured: s.n === 0 ? 'n/a' : `${fmt(s.median, 1)} ${unit}`, met: s.n === 0 ? undefined : test(s.median) });
  };

  ratioTarget('in-memory sequential calls/s ≥ 4× official 1.x', 'call.memory.seq', 'callsPerSec', 'sdk1', (v) => v >= 4);
  ratioTarget('in-memory handshake p50 ≤ 0.25× official 1.x', 'handshake.memory', 'p50', 'sdk1', (v) => v <= 0.25);

  // Issue 39, items 1 and 2: every HTTP row ≥ 0.8× raw on the default client, and the default
  // client at least as fast as the same client on the global fetch.
  for (const [id, what] of HTTP_ROWS) {
    ratioTarget(`${what} calls/s ≥ 0.8× raw floor (default nodeHttpFetch vs raw on node:http)`, id, 'callsPerSec', 'raw', (v) => v >= 0.8);
    ratioTarget(`${what} calls/s ≥ 0.8× raw floor (global fetch vs raw on global fetch), for information`, id, 'callsPerSec', 'raw-fetch', () => undefined, 'statemcp-fetch');
    ratioTarget(`${what}: default client calls/s ≥ 1× statemcp on the global fetch`, id, 'callsPerSec', 'statemcp-fetch', (v) => v >= 1);
  }

  // Item 4: the cluster rows (one instance in memory, one on the Redis stores, three behind the
  // proxy), each beside its floor from the same run: the in-memory instance plus one awaited Redis
  // round trip per call, and the raw HTTP fixture as three instances behind the proxy ÷ one.
  const roundTrip: Floor = { label: 'floor, in memory + one Redis round trip', mine: 'memory-rtt', other: 'statemcp' };
  const rawSplit: Floor = { label: 'floor, raw fixture 3 ÷ 1', mine: 'raw-cluster', other: 'raw' };
  for (const id of ['cluster.http.seq', 'cluster.http.8x4']) {
    ratioTarget(`${id}: one instance on Redis calls/s ≥ 0.8× one in memory`, id, 'callsPerSec', 'statemcp', (v) => v >= 0.8, 'redis', roundTrip);
    ratioTarget(`${id}: three instances' server CPU per call ≤ 2× one instance on Redis (handshake sessions)`, id, 'serverCpuUs', 'redis', (v) => v <= 2, 'cluster', rawSplit);
    ratioTarget(`${id}: three instances' server CPU per call ≤ 2× one instance on Redis (handshake sessions, opt-in cluster.replicas)`, id, 'serverCpuUs', 'redis', (v) => v <= 2, 'cluster-replicas', rawSplit);
    ratioTarget(`${id}: three instances' server CPU per call ≤ 1.2× one instance on Redis (2026-07-28 stateless)`, id, 'serverCpuUs', 'redis-modern', (v) => v <= 1.2, 'cluster-modern', rawSplit);
    // The control for the line above: one instance behind the same proxy (what the proxy hop costs it).
    ratioTarget(`${id}: one instance behind the proxy, server CPU per call ÷ one instance direct (2026-07-28 stateless), for information`, id, 'serverCpuUs', 'redis-modern', () => undefined, 'proxied-modern');
  }

  // Item 5: stdio.
  ratioTarget('stdio sequential calls/s ≥ 0.8× raw floor', 'call.stdio.seq', 'callsPerSec', 'raw', (v) => v >= 0.8);
  ratioTarget('stdio 64-concurrent calls/s ≥ 0.8× raw floor', 'call.stdio.c64', 'callsPerSec', 'raw', (v) => v >= 0.8);
  ratioTarget('stdio cold start ≤ 2× raw floor', 'stdio.lifecycle', 'coldMs', 'raw', (v) => v <= 2);
  // No target: what statemcp adds to a start-up that already imports zod and builds the tools' shapes.
  ratioTarget('stdio cold start ÷ raw floor + zod (import, tool shapes), for information', 'stdio.lifecycle', 'coldMs', 'raw-zod', () => undefined);
  ratioTarget('stdio shutdown ≤ 1.5× raw floor', 'stdio.lifecycle', 'shutdownMs', 'raw', (v) => v <= 1.5);

  // Item 6: the default era (what `era: 'auto'` speaks to a statemcp server) within 1.25× of the
  // handshake, with sync and async handlers; the heap kept after the timeouts on both sides.
  for (const [id, where] of ERA_ROWS) {
    ratioTarget(`default era ${where} calls/s ≥ 0.8× the handshake era (sync handlers)`, id, 'callsPerSec', 'legacy', (v) => v >= 0.8, 'default');
    ratioTarget(`default era ${where} calls/s ≥ 0.8× the handshake era (async handlers)`, id, 'callsPerSec', 'legacy-async', (v) => v >= 0.8, 'default-async');
  }
  ratioTarget('default era: server heap retained after the timeouts ≤ 1.25× the handshake era', 'era.timeouts', 'serverKB', 'legacy', (v) => v <= 1.25, 'default');
  ratioTarget('default era: client heap retained after the timeouts ≤ 1.25× the handshake era', 'era.timeouts', 'clientKB', 'legacy', (v) => v <= 1.25, 'default');
  absoluteTarget('≤ 150 KB server heap retained after the timeouts (handshake era)', 'timeouts.stdio', 'serverKB', 'KB', (v) => v <= 150);
  absoluteTarget('≤ 150 KB server heap retained after the timeouts (default era)', 'era.timeouts', 'serverKB', 'KB', (v) => v <= 150, 'default');

  const sessions = byId.get('http.sessions');
  absoluteTarget('sessions each holding its GET stream: ≤ 10 KB server heap per session', 'http.sessions', 'heapKB', 'KB', (v) => v <= 10);
  absoluteTarget('sessions each holding its GET stream: ≤ 25 KB server RSS per session', 'http.sessions', 'rssKB', 'KB', (v) => v <= 25);
  absoluteTarget('sessions each holding its GET stream: ≤ 25 KB server RSS per session after the idle wait', 'http.sessions', 'idleRssKB', 'KB', (v) => v <= 25);
  if (sessions !== undefined) {
    const mine = median(sessions, 'statemcp', 'closedHeapKB');
    const theirs = median(sessions, 'sdk1', 'closedHeapKB');
    const known = mine.n > 0 && theirs.n > 0;
    checks.push({
      name: 'heap left after closing all those sessions ≤ official 1.x',
      measured: known ? `${fmt(mine.median, 0)} KB (1.x: ${fmt(theirs.median, 0)} KB)` : 'n/a',
      met: known ? mine.median <= theirs.median : undefined,
    });
  }
  ratioTarget('1 MiB escaped text over stdio MiB/s ≥ 0.9× raw JSON-RPC floor', 'stdio.1mib', 'mibPerSec', 'raw', (v) => v >= 0.9);
  // statemcp ÷ inspected ≤ 1/0.9: the page costs less than 10 % of the calls/s.
  ratioTarget('stdio calls/s at ≈1 000 events/s with a live inspector page ≥ 0.9× without', 'inspector.stdio.1k', 'callsPerSec', 'inspected', (v) => v <= 1 / 0.9);
  const stalled = byId.get('inspector.stdio.seq');
  if (stalled !== undefined) {
    const s = median(stalled, 'stalled', 'retainedMiB');
    checks.push({ name: 'memory with a stalled inspector page at full rate stays bounded (≤ 16 MiB heap + external growth)', measured: s.n === 0 ? 'n/a' : `${fmt(s.max, 1)} MiB (max)`, met: s.n === 0 ? undefined : s.max <= 16 });
  }
  const allocated = median(byId.get('call.memory.seq'), 'statemcp', 'allocBytes');
  if (allocated.n > 0) {
    // A record, not a threshold: compare it with the previous run's figure.
    checks.push({ name: 'bytes allocated per sequential in-memory call, both sides (no more than the previous run)', measured: `${fmt(allocated.median, 0)} B`, met: undefined });
  }
  return checks;
}
