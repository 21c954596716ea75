/** Turns workload results into Markdown: environment, targets, and one table per workload. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { STACK_LABELS } from './clients/types.js';
import type { WorkloadResult } from './runner.js';
import { pairedRatios, spread, type Spread } from './stats.js';

export interface Environment {
  readonly date: string;
  readonly mode: string;
  readonly nproc: number;
  readonly cpu: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly versions: Record<string, string>;
  readonly commit: string;
  /** 1-minute load average when the run started (other processes on the machine skew results). */
  readonly loadAtStart: number;
}

export function environment(benchRoot: string, mode: string): Environment {
  const version = (name: string): string => {
    try {
      return (JSON.parse(readFileSync(join(benchRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      return 'unknown';
    }
  };
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: benchRoot, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', '../../packages'], { cwd: benchRoot, encoding: 'utf8' }).trim();
    if (dirty.length > 0) commit += ' + uncommitted changes in packages/';
  } catch {
    // not a git checkout
  }
  return {
    date: new Date().toISOString(),
    mode,
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    versions: {
      '@modelcontextprotocol/sdk': version('@modelcontextprotocol/sdk'),
      '@modelcontextprotocol/client': version('@modelcontextprotocol/client'),
      '@modelcontextprotocol/server': version('@modelcontextprotocol/server'),
      esbuild: version('esbuild'),
    },
    commit,
    loadAtStart: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

function fmt(value: number, digits: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function cell(s: Spread, digits: number): string {
  if (s.n === 0) return 'n/a';
  if (s.n === 1) return fmt(s.median, digits);
  return `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;
}

function ratioDigits(s: Spread): number {
  return Math.abs(s.median) >= 10 ? 1 : 2;
}

/** Median of per-repetition ratios statemcp / other for `metric`. */
export function ratio(result: WorkloadResult, metric: string, other: string, mine = 'statemcp'): Spread {
  const a = result.values[mine]?.[metric] ?? [];
  const b = result.values[other]?.[metric] ?? [];
  return spread(pairedRatios(a, b));
}

export function median(result: WorkloadResult | undefined, stack: string, metric: string): Spread {
  return spread(result?.values[stack]?.[metric] ?? []);
}

export function workloadMarkdown(result: WorkloadResult): string {
  const lines: string[] = [];
  const reps = Math.max(...Object.values(result.values).flatMap((byMetric) => Object.values(byMetric).map((v) => v.length)));
  lines.push(`### ${result.title}`, '', `${result.detail}. ${reps} repetition${reps === 1 ? '' : 's'}; median (min–max).`, '');
  lines.push(`| stack | ${result.metrics.map((m) => m.label).join(' | ')} |`);
  lines.push(`|---|${result.metrics.map(() => '---:').join('|')}|`);
  for (const stack of result.stacks) {
    const cells = result.metrics.map((m) => cell(spread(result.values[stack]?.[m.key] ?? []), m.digits));
    lines.push(`| ${STACK_LABELS[stack] ?? stack} | ${cells.join(' | ')} |`);
  }
  const ratios: string[] = [];
  for (const metric of result.ratioMetrics) {
    const label = result.metrics.find((m) => m.key === metric)?.label ?? metric;
    for (const { mine, others } of result.comparisons) {
      for (const other of others) {
        const r = ratio(result, metric, other, mine);
        if (r.n > 0) ratios.push(`${label} ${STACK_LABELS[mine] ?? mine} ÷ ${STACK_LABELS[other] ?? other}: **${cell(r, ratioDigits(r))}×**`);
      }
    }
  }
  if (ratios.length > 0) lines.push('', `Paired ratios (per repetition, then median): ${ratios.join('; ')}.`);
  if (result.errors.length > 0) lines.push('', `Errors: ${result.errors.map((e) => `\`${e}\``).join('; ')}`);
  return lines.join('\n');
}

export interface TargetCheck {
  readonly name: string;
  readonly measured: string;
  readonly met: boolean | undefined;
}

/**
 * Issue 19's targets, checked against statemcp's medians (paired ratios where the target is
 * relative). HTTP rows are checked on both client stacks, each against the raw floor on the
 * same client: statemcp's default `nodeHttpFetch` against raw over node:http, statemcp on the
 * global `fetch` against raw over the global `fetch`.
 */
export function targets(results: readonly WorkloadResult[]): TargetCheck[] {
  const byId = new Map(results.map((r) => [r.id, r]));
  const checks: TargetCheck[] = [];
  /** `test` returns undefined for a ratio shown for information (no target). */
  const ratioTarget = (name: string, id: string, metric: string, other: string, test: (v: number) => boolean | undefined, mine = 'statemcp'): void => {
    const result = byId.get(id);
    if (result === undefined || !result.stacks.includes(mine) || !result.stacks.includes(other)) return;
    const r = ratio(result, metric, other, mine);
    checks.push({ name, measured: r.n === 0 ? 'n/a' : `${fmt(r.median, 2)}×`, met: r.n === 0 ? undefined : test(r.median) });
  };
  const absoluteTarget = (name: string, id: string, metric: string, unit: string, test: (v: number) => boolean): void => {
    const result = byId.get(id);
    if (result === undefined || !result.metrics.some((m) => m.key === metric)) return;
    const s = median(result, 'statemcp', metric);
    checks.push({ name, measured: s.n === 0 ? 'n/a' : `${fmt(s.median, 1)} ${unit}`, met: s.n === 0 ? undefined : test(s.median) });
  };
  ratioTarget('in-memory sequential calls/s ≥ 4× official 1.x', 'call.memory.seq', 'callsPerSec', 'sdk1', (v) => v >= 4);
  ratioTarget('in-memory handshake p50 ≤ 0.25× official 1.x', 'handshake.memory', 'p50', 'sdk1', (v) => v <= 0.25);
  ratioTarget('stdio sequential calls/s ≥ 0.8× raw floor', 'call.stdio.seq', 'callsPerSec', 'raw', (v) => v >= 0.8);
  ratioTarget('stdio 64-concurrent calls/s ≥ 0.8× raw floor', 'call.stdio.c64', 'callsPerSec', 'raw', (v) => v >= 0.8);
  ratioTarget('stdio cold start ≤ 1.5× raw floor', 'stdio.lifecycle', 'coldMs', 'raw', (v) => v <= 1.5);
  // No target: what statemcp adds to a start-up that already imports zod and builds the tools' shapes.
  ratioTarget('stdio cold start ÷ raw floor + zod (import, tool shapes), for information', 'stdio.lifecycle', 'coldMs', 'raw-zod', () => undefined);
  ratioTarget('stdio shutdown ≤ 1.2× raw floor', 'stdio.lifecycle', 'shutdownMs', 'raw', (v) => v <= 1.2);
  for (const [id, what] of [
    ['call.http.seq', 'Streamable HTTP 1 client sequential'],
    ['call.http.16x8', 'Streamable HTTP 16 clients × 8 concurrent'],
  ] as const) {
    ratioTarget(`${what} calls/s ≥ 0.8× raw floor (default nodeHttpFetch vs raw on node:http)`, id, 'callsPerSec', 'raw', (v) => v >= 0.8);
    ratioTarget(`${what} calls/s ≥ 0.8× raw floor (global fetch vs raw on global fetch)`, id, 'callsPerSec', 'raw-fetch', (v) => v >= 0.8, 'statemcp-fetch');
  }
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
  absoluteTarget('≤ 150 KB server heap retained after the timeouts', 'timeouts.stdio', 'serverKB', 'KB', (v) => v <= 150);
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

export function fullMarkdown(env: Environment, results: readonly WorkloadResult[], totalMs: number): string {
  const lines: string[] = [];
  const loadAtEnd = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  lines.push(`## Run of ${env.date} (${env.mode} mode, ${fmt(totalMs / 1000, 0)} s)`, '');
  lines.push(
    `- Machine: ${env.nproc} CPUs (\`nproc\`), ${env.cpu}, ${env.memoryGiB} GiB memory`,
    `- Node ${env.node}; ${Object.entries(env.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `- statemcp commit ${env.commit}`,
    `- 1-minute load average: ${env.loadAtStart} at start, ${loadAtEnd} at end (the bench itself keeps ≈1–2 cores busy; more means other processes shared the machine)`,
    '',
  );
  const checks = targets(results);
  if (checks.length > 0) {
    lines.push('### Targets', '', '| target | statemcp | met |', '|---|---:|:---:|');
    for (const check of checks) {
      const met = check.met === undefined ? (check.measured === 'n/a' ? 'n/a' : '—') : check.met ? 'yes' : 'no';
      lines.push(`| ${check.name} | ${check.measured} | ${met} |`);
    }
    lines.push('');
  }
  for (const result of results) lines.push(workloadMarkdown(result), '');
  return lines.join('\n');
}
