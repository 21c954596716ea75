/** Turns workload results into Markdown: environment, targets, and one table per workload. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { STACK_LABELS } from './clients/types.js';
import type { WorkloadResult } from './runner.js';
import { spread } from './stats.js';
import { cell, fmt, ratio, ratioDigits } from './figures.js';
import { atAGlance } from './glance.js';
import { targets } from './targets.js';

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
  const glance = atAGlance(results);
  if (glance.length > 0) lines.push('### At a glance', '', ...glance, '');
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
