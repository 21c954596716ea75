/**
 * `pnpm bench`: statemcp against the official MCP TypeScript SDK (1.x and 2.x) and
 * hand-written floors, interleaved in one run.
 *
 *   node build.mjs && node --expose-gc dist/bench.mjs [--quick | --smoke] [--only id,id] [--skip id,id] [--reps N] [--out dir]
 *     [--stacks statemcp,sdk1,…] [--scale F]
 *
 * `--only` takes workload id prefixes, `--skip` prefixes of workloads to leave out; `--stacks` keeps only those stacks; `--scale`
 * multiplies every operation count (for profiling: `node --cpu-prof … --stacks statemcp --scale 10`).
 *
 * Prints the Markdown report on stdout (progress on stderr) and writes
 * `results/latest.{md,json}` (or `<out>/…`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COUNTS, scaleCounts, type Mode } from './config.js';
import { environment, fullMarkdown } from './report.js';
import { stopSharedDeployments } from './cluster-workload.js';
import { targets } from './targets.js';
import { runWorkload, type WorkloadResult } from './runner.js';
import { CHILD_WORKLOADS, SLOW_WORKLOADS, workloads } from './workloads.js';

interface Args {
  mode: Mode;
  only: string[] | undefined;
  skip: string[];
  reps: number | undefined;
  out: string;
  stacks: string[] | undefined;
  scale: number;
}

function parseArgs(argv: readonly string[], benchRoot: string): Args {
  const args: Args = { mode: 'full', only: undefined, skip: [], reps: undefined, out: join(benchRoot, 'results'), stacks: undefined, scale: 1 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') args.mode = 'quick';
    else if (arg === '--smoke') args.mode = 'smoke';
    else if (arg === '--full') args.mode = 'full';
    else if (arg === '--only') args.only = (argv[++i] ?? '').split(',').filter((s) => s.length > 0);
    else if (arg === '--skip') args.skip = (argv[++i] ?? '').split(',').filter((s) => s.length > 0);
    else if (arg === '--reps') args.reps = Number(argv[++i]);
    else if (arg === '--out') args.out = resolve(argv[++i] ?? '.');
    else if (arg === '--stacks') args.stacks = (argv[++i] ?? '').split(',').filter((s) => s.length > 0);
    else if (arg === '--scale') args.scale = Number(argv[++i]);
    else if (arg === '--') continue;
    else throw new Error(`unknown argument ${arg}`);
  }
  return args;
}

async function main(): Promise<void> {
  // dist/bench.mjs → the package root.
  const benchRoot = dirname(dirname(fileURLToPath(import.meta.url)));
  const args = parseArgs(process.argv.slice(2), benchRoot);
  if ((globalThis as { gc?: unknown }).gc === undefined) console.error('warning: run with --expose-gc for memory workloads and fair GC between runs');
  const counts = scaleCounts(COUNTS[args.mode], args.scale);
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const selected = workloads(counts)
    .filter((w) => args.only === undefined || args.only.some((prefix) => w.id.startsWith(prefix)))
    .filter((w) => !args.skip.some((prefix) => w.id.startsWith(prefix)))
    .map((w) => (args.stacks === undefined ? w : { ...w, stacks: w.stacks.filter((s) => args.stacks?.includes(s)) }))
    .filter((w) => w.stacks.length > 0);
  const env = environment(benchRoot, args.mode);
  log(`statemcp bench, ${args.mode} mode: ${selected.length} workloads`);
  const started = performance.now();
  const results: WorkloadResult[] = [];
  try {
    for (const workload of selected) {
      const reps = args.reps ?? (SLOW_WORKLOADS.has(workload.id) ? counts.slowReps : CHILD_WORKLOADS.has(workload.id) ? counts.childReps : counts.reps);
      log(`- ${workload.id} (${reps} × ${workload.stacks.join(', ')})`);
      const result = await runWorkload(workload, { reps, runLimitMs: counts.runLimitMs, log });
      log(`  done in ${(result.elapsedMs / 1000).toFixed(1)} s`);
      results.push(result);
    }
  } finally {
    await stopSharedDeployments();
  }
  const totalMs = performance.now() - started;
  const markdown = fullMarkdown(env, results, totalMs);
  process.stdout.write(`${markdown}\n`);
  mkdirSync(args.out, { recursive: true });
  writeFileSync(join(args.out, 'latest.md'), markdown);
  writeFileSync(join(args.out, 'latest.json'), JSON.stringify({ env, totalMs, targets: targets(results), results }, null, 2));
  const failed = results.reduce((n, r) => n + r.errors.length, 0);
  log(`finished in ${(totalMs / 1000).toFixed(1)} s; ${failed} failed runs; results in ${args.out}`);
  if (failed > 0) process.exitCode = 1;
}

main().then(
  // Child processes and sockets are closed by now; exit even if a library left a handle open.
  () => process.exit(),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
