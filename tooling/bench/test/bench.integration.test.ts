/**
 * Proves the harness works end to end: compiles the harness against statemcp's built `dist`
 * (turbo runs the packages' `build` first: `@statemcp/bench#test` depends on `^build`), runs
 * every workload once in `--smoke` mode (tiny counts, one repetition) against every stack,
 * and checks the report. The run is split in two concurrent runs (the scale-out, task,
 * inspector and 2026-07-28 HTTP rows, and the rest), of about the same CPU time, so the suite's
 * wall time is the longer half.
 * No timing assertions: only that each workload ran on each stack without errors and
 * produced finite numbers.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { COUNTS } from '../src/config.js';

const run = promisify(execFile);
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = mkdtempSync(join(tmpdir(), 'statemcp-bench-'));

interface Report {
  readonly results: {
    readonly id: string;
    readonly stacks: readonly string[];
    readonly errors: readonly string[];
    readonly values: Record<string, Record<string, number[]>>;
  }[];
  readonly targets: { readonly name: string; readonly measured: string }[];
}

afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The workloads of the second run (`--only`); the first runs every other one (`--skip`). */
const SIDE = ['cluster', 'tasks', 'inspector', 'call.http.modern'];

/** Runs the smoke bench over one half of the workloads and reads its report. */
async function smoke(half: '--only' | '--skip'): Promise<{ stdout: string; report: Report }> {
  const dir = join(out, half.slice(2));
  const { stdout } = await run(process.execPath, ['--expose-gc', 'dist/bench.mjs', '--smoke', half, SIDE.join(','), '--out', dir], {
    cwd: root,
    timeout: 460_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return { stdout, report: JSON.parse(readFileSync(join(dir, 'latest.json'), 'utf8')) as Report };
}

/** (With the running test's `expect`: the two tests run concurrently.) Every workload ran on every stack without an error and produced finite numbers. */
function expectClean(expect: ExpectStatic, report: Report, ids: readonly string[]): void {
  const ran = report.results.map((r) => r.id);
  for (const id of ids) expect(ran).toContain(id);
  for (const result of report.results) {
    expect(result.errors, result.id).toEqual([]);
    for (const stack of result.stacks) {
      for (const [metric, values] of Object.entries(result.values[stack] ?? {})) {
        expect(values.every((v) => Number.isFinite(v)), `${result.id} ${stack} ${metric}`).toBe(true);
      }
    }
  }
}

// statemcp's dist comes from turbo's `^build` (turbo.json); this compiles the harness only.
beforeAll(() => run(process.execPath, ['build.mjs', '--skip-packages'], { cwd: root, timeout: 60_000 }), 60_000);

describe.concurrent('pnpm bench', () => {
  it('runs the scale-out, task, inspector and 2026-07-28 HTTP workloads on every stack in --smoke mode', async ({ expect }) => {
    const { stdout, report } = await smoke('--only');
    expect(stdout).toContain('### Targets');
    expectClean(expect, report, ['cluster.http.seq', 'cluster.http.8x4', 'tasks.roundtrip', 'tasks.worker.c16', 'inspector.stdio.1k', 'inspector.stdio.seq', 'inspector.memory.seq', 'call.http.modern', 'call.http.modern16x8']);
    expect(report.results.find((r) => r.id === 'cluster.http.seq')?.stacks).toEqual(expect.arrayContaining(['redis', 'cluster', 'cluster-replicas', 'cluster-modern', 'memory-rtt', 'raw', 'raw-cluster']));
    // Each cluster target shows its same-run floor beside statemcp's ratio.
    const cluster = report.targets.filter((t) => t.name.startsWith('cluster.http.seq:') && !t.name.endsWith('for information'));
    expect(cluster.map((t) => t.measured)).toEqual([expect.stringMatching(/× \(floor, in memory \+ one Redis round trip: [\d.]+×\)$/), ...Array.from({ length: 3 }, () => expect.stringMatching(/× \(floor, raw fixture 3 ÷ 1: [\d.]+×\)$/))]);
  }, 480_000);

  it('runs every other workload on every stack in --smoke mode', async ({ expect }) => {
    const { stdout, report } = await smoke('--skip');
    expect(stdout).toContain('### At a glance');
    expect(stdout).toContain('### Targets');
    expectClean(expect, report, ['handshake.memory', 'call.memory.seq', 'call.memory.c64', 'list.memory', 'call.stdio.seq', 'call.stdio.c64', 'stdio.1mib', 'stdio.lifecycle', 'call.http.seq', 'call.http.16x8', 'call.memory.modern', 'http.sessions', 'timeouts.stdio', 'floor.json', 'era.memory', 'era.stdio', 'era.http', 'era.timeouts']);
    expect(report.results.some((r) => SIDE.some((prefix) => r.id.startsWith(prefix)))).toBe(false);
    // Every timed-out call sent its notifications/cancelled, in both eras.
    for (const timeouts of report.results.filter((r) => r.id === 'timeouts.stdio' || r.id === 'era.timeouts')) {
      for (const stack of timeouts.stacks) {
        const values = timeouts.values[stack];
        expect(values?.rejected, `${timeouts.id} ${stack}`).toEqual(values?.cancels);
      }
    }
    // HTTP rows: statemcp and the raw floor on both client stacks, ratios paired per stack.
    const http = report.results.find((r) => r.id === 'call.http.seq');
    expect(http?.stacks).toEqual(expect.arrayContaining(['statemcp', 'statemcp-fetch', 'raw', 'raw-fetch']));
    // stdio cold start has a second floor (raw + zod), shown beside the target in Targets.
    expect(report.results.find((r) => r.id === 'stdio.lifecycle')?.stacks).toContain('raw-zod');
    expect(report.targets.some((t) => t.name.startsWith('stdio cold start ÷ raw floor + zod'))).toBe(true);
    // Every session held its GET stream, and statemcp ended each one when the session was DELETEd.
    const sessions = report.results.find((r) => r.id === 'http.sessions');
    expect(sessions?.values.statemcp?.streamsEnded).toEqual([COUNTS.smoke.sessions]);
    expect(sessions?.values.statemcp?.closedHeapKB?.length).toBe(1);
    const allocated = report.results.find((r) => r.id === 'call.memory.seq')?.values.statemcp?.allocBytes ?? [];
    expect(allocated.length === 1 && (allocated[0] ?? 0) > 0).toBe(true);
    expect(report.targets.length).toBeGreaterThanOrEqual(8);
  }, 480_000);
});
