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
  if (result.stacks.includes('statemcp')) {
    const others = result.stacks.filter((s) => s !== 'statemcp');
    const ratios: string[] = [];
    for (const metric of result.ratioMetrics) {
      const label = result.metrics.find((m) => m.key === metric)?.label ?? metric;
      for (const other of others) {
        const r = ratio(result, metric, other);
        if (r.n > 0) ratios.push(`${label} statemcp ÷ ${STACK_LABELS[other] ?? other}: **${cell(r, ratioDigits(r))}×**`);
      }
    }
    if (ratios.length > 0) lines.push('', `Paired ratios (per repetition, then median): ${ratios.join('; ')}.`);
  }
  if (result.errors.length > 0) lines.push('', `Errors: ${result.errors.map((e) => `\`${e}\``).join('; ')}`);
  return lines.join('\n');
}

export interface TargetCheck {
  readonly name: string;
  readonly measured: string;
  readonly met: boolean | undefined;
}

export function targets(results: readonly WorkloadResult[]): TargetCheck[] {
  const byId = new Map(results.map((r) => [r.id, r]));
  const checks: TargetCheck[] = [];
  const ratioTarget = (name: string, id: string, metric: string, other: string, test: (v: number) => boolean): void => {
    const result = byId.get(id);
    if (result === undefined) return;
    const r = ratio(result, metric, other);
    checks.push({ name, measured: r.n === 0 ? 'n/a' : `${fmt(r.median, 2)}×`, met: r.n === 0 ? undefined : test(r.median) });
  };
  const absoluteTarget = (name: string, id: string, metric: string, unit: string, test: (v: number) => boolean): void => {
    const result = byId.get(id);
    if (result === undefined) return;
    const s = median(result, 'statemcp', metric);
    checks.push({ name, measured: s.n === 0 ? 'n/a' : `${fmt(s.median, 1)} ${unit}`, met: s.n === 0 ? undefined : test(s.median) });
  };
  ratioTarget('in-memory sequential calls/s ≥ 3× official 1.x', 'call.memory.seq', 'callsPerSec', 'sdk1', (v) => v >= 3);
  ratioTarget('in-memory handshake p50 ≤ 0.25× official 1.x', 'handshake.memory', 'p50', 'sdk1', (v) => v <= 0.25);
  ratioTarget('stdio sequential calls/s ≥ 0.8× raw floor', 'call.stdio.seq', 'callsPerSec', 'raw', (v) => v >= 0.8);
  ratioTarget('stdio 64-concurrent calls/s ≥ 2.5× official 1.x', 'call.stdio.c64', 'callsPerSec', 'sdk1', (v) => v >= 2.5);
  ratioTarget('Streamable HTTP sequential calls/s ≥ 0.9× raw floor', 'call.http.seq', 'callsPerSec', 'raw', (v) => v >= 0.9);
  absoluteTarget('≤ 25 KB server RSS per idle HTTP session (right after opening + GC)', 'http.sessions', 'rssKB', 'KB', (v) => v <= 25);
  if (byId.get('http.sessions')?.metrics.some((m) => m.key === 'idleRssKB') === true) {
    absoluteTarget('≤ 25 KB server RSS per idle HTTP session (after the idle wait + GC)', 'http.sessions', 'idleRssKB', 'KB', (v) => v <= 25);
  }
  ratioTarget('1 MiB over stdio ≥ 0.9× raw pipe floor', 'stdio.1mib', 'mibPerSec', 'floor', (v) => v >= 0.9);
  absoluteTarget('≤ 150 KB server heap retained after the timeouts', 'timeouts.stdio', 'serverKB', 'KB', (v) => v <= 150);
  // statemcp ÷ inspected ≤ 1/0.9: the page costs less than 10 % of the calls/s.
  ratioTarget('stdio calls/s at ≈1 000 events/s with a live inspector page ≥ 0.9× without', 'inspector.stdio.1k', 'callsPerSec', 'inspected', (v) => v <= 1 / 0.9);
  const stalled = byId.get('inspector.stdio.seq');
  if (stalled !== undefined) {
    const s = median(stalled, 'stalled', 'retainedMiB');
    checks.push({ name: 'memory with a stalled inspector page at full rate stays bounded (≤ 16 MiB heap + external growth)', measured: s.n === 0 ? 'n/a' : `${fmt(s.max, 1)} MiB (max)`, met: s.n === 0 ? undefined : s.max <= 16 });
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
    for (const check of checks) lines.push(`| ${check.name} | ${check.measured} | ${check.met === undefined ? 'n/a' : check.met ? 'yes' : 'no'} |`);
    lines.push('');
  }
  for (const result of results) lines.push(workloadMarkdown(result), '');
  return lines.join('\n');
}
