/** Counts per mode: `smoke` (the test), `quick` (under a minute) and `full` (under ten minutes on 2 cores). */
export type Mode = 'smoke' | 'quick' | 'full';

export interface Counts {
  readonly reps: number;
  /** Repetitions of the workloads that spawn a child process per run. */
  readonly childReps: number;
  /** Repetitions of the slow, memory-oriented workloads (sessions, timeouts, cold start). */
  readonly slowReps: number;
  readonly runLimitMs: number;
  readonly warmup: number;
  readonly handshakes: number;
  readonly inMemorySeq: number;
  readonly inMemoryConcurrent: number;
  readonly stdioSeq: number;
  readonly stdioConcurrent: number;
  readonly httpSeq: number;
  readonly httpConcurrent: number;
  /**
   * Warm-up calls of the Streamable HTTP rows, on each fresh server process before its timed
   * loop: enough for a server's CPU per call to settle (a server's JIT work runs over its first
   * few thousand POSTs; tooling/bench/profiling/README.md, fifth pass: "what the HTTP server does beyond the raw fixture").
   */
  readonly httpWarmup: number;
  /**
   * Warm-up POSTs every server process of the cluster rows receives before their timed loop
   * (counted by each instance): enough for one instance's CPU per call to stop falling.
   */
  readonly clusterWarmup: number;
  /**
   * Warm-up of the concurrent HTTP and cluster rows (`call.http.16x8`, `call.http.modern16x8`,
   * `cluster.http.8x4`), in rounds of one call per worker: in quick and full at least one, so
   * every connection is open before the timed loop, and more let the JIT settle at that
   * concurrency. 0 in smoke, whose figures are not read: those rows then warm up with `httpWarmup`
   * (`clusterWarmup` per instance) calls only, and their timed loop opens the other connections.
   */
  readonly concurrentWarmupRounds: number;
  /**
   * 1: the two cluster rows share one deployment (Redis, instances, proxy) per stack, started by
   * the first of them to run and stopped by `cluster.http.8x4` (or at the end of the run), so a
   * smoke run starts each stack's processes once; the second row's warm-up then counts the first
   * row's POSTs. 0 (quick, full): every run deploys its own, so each row is measured on fresh
   * processes warmed to `clusterWarmup`.
   */
  readonly shareClusterDeployments: number;
  readonly coldStarts: number;
  readonly bigCalls: number;
  /** Calls of the inspector's ≈1 000 events/s workload (160 KiB results). */
  readonly inspectorCalls: number;
  readonly listCalls: number;
  readonly sessions: number;
  /**
   * How long the sessions workload lets the server sit idle before a second memory reading
   * (V8's memory reducer returns the heap pages the opening burst left committed after a few
   * seconds without allocation). 0 skips the idle reading.
   */
  readonly idleWaitMs: number;
  readonly timeouts: number;
  readonly jsonOps: number;
  /** Tasks of the one-at-a-time task round trip (`tasks.roundtrip`). */
  readonly tasksSeq: number;
  /** Tasks of the 16-in-flight task workload (`tasks.worker.c16`). */
  readonly tasksConcurrent: number;
}

export const COUNTS: Readonly<Record<Mode, Counts>> = {
  smoke: {
    reps: 1,
    childReps: 1,
    slowReps: 1,
    runLimitMs: 30_000,
    warmup: 20,
    handshakes: 10,
    inMemorySeq: 100,
    inMemoryConcurrent: 128,
    stdioSeq: 50,
    stdioConcurrent: 128,
    httpSeq: 20,
    httpConcurrent: 128,
    httpWarmup: 20,
    clusterWarmup: 10,
    concurrentWarmupRounds: 0,
    shareClusterDeployments: 1,
    coldStarts: 1,
    bigCalls: 2,
    inspectorCalls: 4,
    listCalls: 20,
    sessions: 10,
    idleWaitMs: 0,
    timeouts: 20,
    jsonOps: 1000,
    tasksSeq: 10,
    tasksConcurrent: 32,
  },
  quick: {
    reps: 3,
    childReps: 2,
    slowReps: 1,
    runLimitMs: 30_000,
    warmup: 60,
    handshakes: 50,
    inMemorySeq: 500,
    inMemoryConcurrent: 1024,
    stdioSeq: 300,
    stdioConcurrent: 640,
    httpSeq: 100,
    httpConcurrent: 384,
    httpWarmup: 60,
    clusterWarmup: 300,
    concurrentWarmupRounds: 2,
    shareClusterDeployments: 0,
    coldStarts: 2,
    bigCalls: 6,
    inspectorCalls: 96,
    listCalls: 100,
    sessions: 100,
    idleWaitMs: 0,
    timeouts: 200,
    jsonOps: 20_000,
    tasksSeq: 100,
    tasksConcurrent: 400,
  },
  full: {
    reps: 5,
    childReps: 5,
    slowReps: 3,
    runLimitMs: 120_000,
    warmup: 2000,
    handshakes: 300,
    inMemorySeq: 60_000,
    inMemoryConcurrent: 60_000,
    stdioSeq: 8000,
    stdioConcurrent: 16_000,
    httpSeq: 1000,
    httpConcurrent: 1280,
    httpWarmup: 4000,
    clusterWarmup: 4000,
    concurrentWarmupRounds: 2,
    shareClusterDeployments: 0,
    coldStarts: 5,
    bigCalls: 40,
    inspectorCalls: 1200,
    listCalls: 400,
    sessions: 1000,
    idleWaitMs: 8000,
    timeouts: 1000,
    jsonOps: 200_000,
    tasksSeq: 1000,
    tasksConcurrent: 4000,
  },
};

const SCALED: readonly (keyof Counts)[] = [
  'warmup',
  'handshakes',
  'inMemorySeq',
  'inMemoryConcurrent',
  'stdioSeq',
  'stdioConcurrent',
  'httpSeq',
  'httpConcurrent',
  'httpWarmup',
  'clusterWarmup',
  'bigCalls',
  'inspectorCalls',
  'listCalls',
  'jsonOps',
  'tasksSeq',
  'tasksConcurrent',
];

/** Multiplies the operation counts (not repetitions, sessions or timeouts) by `factor`. */
export function scaleCounts(counts: Counts, factor: number): Counts {
  if (factor === 1 || !Number.isFinite(factor) || factor <= 0) return counts;
  const scaled: Record<string, number> = { ...counts };
  for (const key of SCALED) scaled[key] = Math.max(1, Math.round(counts[key] * factor));
  scaled.runLimitMs = counts.runLimitMs * Math.max(1, factor);
  return scaled as unknown as Counts;
}
