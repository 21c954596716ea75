/**
 * Runs workloads: every repetition runs each stack once, in alternating order (forward on
 * even repetitions, reversed on odd ones) so drift and warm-up favour nobody; a full GC
 * precedes every run; each run is bounded in time. Keeps every per-repetition value so
 * medians, spreads and paired ratios can be computed afterwards.
 */
import { fullGc } from './spec.js';

export interface Metric {
  readonly key: string;
  readonly label: string;
  /** Digits after the decimal point in the table. */
  readonly digits: number;
  readonly higherIsBetter: boolean;
}

export type Sample = Record<string, number>;

/** Paired ratios to report: `mine` ÷ each of `others`, per repetition. */
export interface Comparison {
  readonly mine: string;
  readonly others: readonly string[];
}

export interface Workload {
  readonly id: string;
  readonly title: string;
  /** Counts and details for the table (e.g. "2000 calls"). */
  readonly detail: string;
  readonly stacks: readonly string[];
  readonly metrics: readonly Metric[];
  /** Metric keys whose statemcp ratios are reported (default: the first metric). */
  readonly ratioMetrics?: readonly string[];
  /** Which ratios (default: statemcp ÷ every other stack). */
  readonly comparisons?: readonly Comparison[];
  /** This workload's bound on one run, ms, when it needs longer than the mode's `runLimitMs`. */
  readonly runLimitMs?: number;
  /** One run of `stack` in repetition `repetition` (0-based; every stack runs once per repetition). */
  run(stack: string, repetition: number): Promise<Sample>;
}

export interface WorkloadResult {
  readonly id: string;
  readonly title: string;
  readonly detail: string;
  readonly stacks: readonly string[];
  readonly metrics: readonly Metric[];
  readonly ratioMetrics: readonly string[];
  readonly comparisons: readonly Comparison[];
  /** values[stack][metric][rep] (NaN when the run failed). */
  readonly values: Record<string, Record<string, number[]>>;
  readonly errors: string[];
  readonly elapsedMs: number;
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

/** An error's message with its causes (`fetch failed` says nothing without them). */
function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 4; depth++) {
    if (!(e instanceof Error)) {
      parts.push(typeof e === 'string' ? e : safeJson(e));
      break;
    }
    const code = (e as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${e.message} (${code})` : e.message);
    e = e.cause;
  }
  return parts.join(' ← ');
}

export async function runWorkload(
  workload: Workload,
  options: { reps: number; runLimitMs: number; log: (line: string) => void },
): Promise<WorkloadResult> {
  const started = performance.now();
  const values: Record<string, Record<string, number[]>> = {};
  for (const stack of workload.stacks) {
    values[stack] = Object.fromEntries(workload.metrics.map((m) => [m.key, [] as number[]]));
  }
  const errors: string[] = [];
  for (let rep = 0; rep < options.reps; rep++) {
    const order = rep % 2 === 0 ? [...workload.stacks] : [...workload.stacks].reverse();
    for (const stack of order) {
      fullGc();
      let sample: Sample | undefined;
      try {
        sample = await withTimeout(workload.run(stack, rep), workload.runLimitMs ?? options.runLimitMs, `${workload.id} on ${stack}`);
      } catch (error) {
        const message = `${workload.id} / ${stack} / rep ${rep + 1}: ${describeError(error)}`;
        errors.push(message);
        options.log(`  ! ${message}`);
      }
      for (const metric of workload.metrics) values[stack]?.[metric.key]?.push(sample?.[metric.key] ?? Number.NaN);
    }
  }
  return {
    id: workload.id,
    title: workload.title,
    detail: workload.detail,
    stacks: workload.stacks,
    metrics: workload.metrics,
    ratioMetrics: workload.ratioMetrics ?? [workload.metrics[0]?.key ?? ''],
    comparisons:
      workload.comparisons ?? (workload.stacks.includes('statemcp') ? [{ mine: 'statemcp', others: workload.stacks.filter((s) => s !== 'statemcp') }] : []),
    values,
    errors,
    elapsedMs: performance.now() - started,
  };
}

/**
 * Closed-loop load: `concurrency` workers issue `op(worker)` back to back until `total`
 * operations were issued or `maxMs` passed. Returns throughput and per-op latencies.
 */
export async function closedLoop(
  total: number,
  concurrency: number,
  maxMs: number,
  op: (worker: number) => Promise<unknown>,
): Promise<{ opsPerSec: number; latencies: number[]; completed: number; elapsedMs: number; cpuUsPerOp: number }> {
  const latencies: number[] = [];
  let issued = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + maxMs;
  const worker = async (index: number): Promise<void> => {
    while (issued < total && performance.now() < deadline) {
      issued++;
      const t0 = performance.now();
      await op(index);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, (_, i) => worker(i)));
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    opsPerSec: (latencies.length / elapsedMs) * 1000,
    latencies,
    completed: latencies.length,
    elapsedMs,
    // CPU time of this process (user + system) per operation: less sensitive to other load than wall time.
    cpuUsPerOp: (cpu.user + cpu.system) / latencies.length,
  };
}
