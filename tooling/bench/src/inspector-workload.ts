/**
 * What a live inspector page costs the MCP traffic: statemcp's client over stdio, sequential
 * calls, without an inspector and with `@statemcp/inspector` running in the client's process
 * and one viewer connected over WebSocket. The viewer runs in its own process, as a browser
 * tab does: `inspected` reads and parses every frame; `stalled` never reads (a frozen tab), and
 * the harness's heap + external memory growth shows what the inspector kept for it. Client
 * CPU µs/call (this process, user + system) is the steadier measure on a shared machine.
 *
 * - `inspector.stdio.1k` (the acceptance point: ≈1 000 events/s into the endpoint): `big` calls,
 *   five events each, in a CPU-bound stream. At the start of every repetition the result size is
 *   calibrated on a plain client (no inspector) so that it runs ≈200 calls/s on this machine now,
 *   and all three stacks of the repetition use that size: the page gets ≈1 000 events/s when the
 *   inspected stack keeps pace, and fewer by exactly what the page costs (the calls are not paced,
 *   so a page that slows them is not hidden by a rate both stacks reach).
 * - `inspector.stdio.seq` (full rate): short echo calls as fast as they go (tens of thousands
 *   of events/s) plus 1 000 synthetic events/s published on the diagnostics channel.
 * - `inspector.memory.seq`: short echo calls in memory, both sessions in this process, so the
 *   CPU per call with and without the page is the inspector's cost per event (×10) plus the MCP
 *   work, with no pipe in between.
 */
import { spawn } from 'node:child_process';
import { channel } from 'node:diagnostics_channel';
import { createInterface } from 'node:readline';
import { DIAGNOSTIC_CHANNEL_NAMES } from '@statemcp/protocol';
import { startInspector } from '@statemcp/inspector';
import { adapter, fixturePath } from './adapters.js';
import type { BenchClient } from './clients/types.js';
import type { Counts } from './config.js';
import { closedLoop, withTimeout, type Metric, type Workload } from './runner.js';
import { ECHO_TEXT, fullGc } from './spec.js';
import { latencyPercentiles } from './stats.js';

/** The plain stack's call rate the 1k workload is sized for: five events per call, ≈1 000 events/s. */
const PAGE_RATE_CALLS_PER_SEC = 200;

/** The first guess of the 1k workload's result size (≈200 calls/s on the quiet 2-core reference machine). */
const PAGE_RATE_START_BYTES = 160 * 1024;

/** Calibrated sizes stay within these bounds and are whole KiB (the servers cache one text per size). */
const PAGE_RATE_MIN_BYTES = 16 * 1024;
const PAGE_RATE_MAX_BYTES = 2 * 1024 * 1024;

/** Publishes `perSecond` diagnostic events, in bursts every 10 ms; returns the stop function. */
function syntheticEvents(perSecond: number): () => void {
  const diagnostic = channel(DIAGNOSTIC_CHANNEL_NAMES.diagnostic);
  const perTick = Math.max(1, Math.round(perSecond / 100));
  const timer = setInterval(() => {
    for (let i = 0; i < perTick; i++) diagnostic.publish({ type: 'diagnostic', sessionId: 'bench-synthetic', at: performance.now(), message: 'synthetic inspector load' });
  }, 10);
  return () => clearInterval(timer);
}

interface Viewed {
  /** Events the viewer has parsed so far (0 for a stalled viewer). */
  events(): Promise<number>;
  close(): Promise<void>;
}

/** An inspector with one viewer process connected (`read` or `stall`); resolves once the viewer is live. */
async function inspectedByOneViewer(mode: 'read' | 'stall'): Promise<Viewed> {
  const inspector = await startInspector();
  const child = spawn(process.execPath, [fixturePath('inspector-viewer'), `ws://127.0.0.1:${inspector.port}/events?token=${inspector.token}`, mode], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const nextLine = (): Promise<string> => withTimeout(new Promise<string>((resolve) => waiting.push(resolve)), 10_000, 'the inspector viewer');
  const opened = nextLine();
  try {
    if ((await opened) !== 'OPEN') throw new Error('the inspector viewer did not connect');
  } catch (error) {
    child.kill();
    await inspector.close();
    throw error;
  }
  return {
    events: async () => {
      if (mode === 'stall') return 0;
      const answer = nextLine();
      child.stdin.write('count\n');
      return Number((await answer).replace('EVENTS ', ''));
    },
    close: async () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin.end();
      await inspector.close();
      child.kill();
      await exited;
    },
  };
}

/** Heap and external (Buffer) bytes of this process after a full GC. */
function retainedBytes(): number {
  fullGc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

const METRICS: readonly Metric[] = [
  { key: 'callsPerSec', label: 'calls/s', digits: 0, higherIsBetter: true },
  { key: 'p50', label: 'p50 ms', digits: 3, higherIsBetter: false },
  { key: 'cpuUs', label: 'client CPU µs/call', digits: 1, higherIsBetter: false },
  { key: 'eventsPerSec', label: 'events/s to the page', digits: 0, higherIsBetter: true },
  { key: 'retainedMiB', label: 'heap + external growth MiB', digits: 1, higherIsBetter: false },
];

const STACKS = ['statemcp', 'inspected', 'stalled'] as const;

interface Shape {
  readonly id: string;
  readonly title: string;
  readonly detail: string;
  readonly calls: number;
  readonly warmup: number;
  readonly syntheticPerSecond: number;
  /** Longest measured loop, in milliseconds. */
  readonly maxMs: number;
  /** One call; `resultBytes` is the calibrated size when `pageRate` is set. */
  readonly op: (client: BenchClient, resultBytes: number) => Promise<unknown>;
  /** Calibrate a result size per repetition (see `pageRateBytes`), `probeCalls` calls per round. */
  readonly pageRate?: { readonly probeCalls: number };
  /** Client and server in this process, connected in memory (both sessions' events are inspected). */
  readonly inMemory?: boolean;
}

async function memoryPair(): Promise<{ client: BenchClient; close: () => Promise<void> }> {
  const pair = await adapter('statemcp').inMemory({});
  return { client: pair.client, close: () => pair.close() };
}

async function stdioClient(): Promise<{ client: BenchClient; close: () => Promise<void> }> {
  const { client } = await adapter('statemcp').stdio(fixturePath('stdio-statemcp'), []);
  return { client, close: () => client.close() };
}

/**
 * The result size at which statemcp's plain stdio client (no inspector in the process) runs
 * `PAGE_RATE_CALLS_PER_SEC` calls/s now. A call's time is a fixed part plus a part that grows
 * with the size, so scaling the size by the measured rate undershoots the correction: up to
 * three rounds of `probeCalls` calls each, stopping once a round lands within 5 %. One round
 * changes the size by at most 2× either way, so a load spike during a probe cannot throw it far.
 */
async function pageRateBytes(startBytes: number, probeCalls: number): Promise<number> {
  const { client, close } = await stdioClient();
  try {
    let bytes = startBytes;
    for (let i = 0; i < 3; i++) await client.big(bytes);
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      for (let i = 0; i < probeCalls; i++) await client.big(bytes);
      const callsPerSec = (probeCalls * 1000) / (performance.now() - started);
      if (Math.abs(callsPerSec / PAGE_RATE_CALLS_PER_SEC - 1) <= 0.05) break;
      const factor = Math.min(2, Math.max(0.5, callsPerSec / PAGE_RATE_CALLS_PER_SEC));
      const scaled = Math.round((bytes * factor) / 1024) * 1024;
      bytes = Math.min(PAGE_RATE_MAX_BYTES, Math.max(PAGE_RATE_MIN_BYTES, scaled));
    }
    return bytes;
  } finally {
    await close();
  }
}

function inspectorRun(shape: Shape): Workload {
  // The 1k workload's size, calibrated by the first run of each repetition (whatever its stack).
  let calibratedFor = -1;
  let resultBytes = PAGE_RATE_START_BYTES;
  return {
    id: shape.id,
    title: shape.title,
    detail: shape.detail,
    stacks: STACKS,
    metrics: shape.pageRate === undefined ? METRICS : [...METRICS, { key: 'resultKiB', label: 'result KiB (calibrated)', digits: 0, higherIsBetter: false }],
    ratioMetrics: ['callsPerSec', 'cpuUs'],
    run: async (stack, repetition) => {
      const pageRate = shape.pageRate;
      if (pageRate !== undefined && calibratedFor !== repetition) {
        calibratedFor = repetition;
        resultBytes = await pageRateBytes(resultBytes, pageRate.probeCalls);
      }
      const op = (client: BenchClient): Promise<unknown> => shape.op(client, resultBytes);
      const stop = shape.syntheticPerSecond > 0 ? syntheticEvents(shape.syntheticPerSecond) : () => undefined;
      const before = retainedBytes();
      const viewed = stack === 'statemcp' ? undefined : await inspectedByOneViewer(stack === 'stalled' ? 'stall' : 'read');
      const { client, close } = shape.inMemory === true ? await memoryPair() : await stdioClient();
      try {
        for (let i = 0; i < shape.warmup; i++) await op(client);
        const eventsBefore = (await viewed?.events()) ?? 0;
        const started = performance.now();
        const result = await closedLoop(shape.calls, 1, shape.maxMs, () => op(client));
        const seconds = (performance.now() - started) / 1000;
        // Let the last batch reach the viewer before counting (two flush intervals).
        await new Promise((resolve) => setTimeout(resolve, 100));
        const eventsAfter = (await viewed?.events()) ?? 0;
        const retainedMiB = (retainedBytes() - before) / (1024 * 1024);
        const { p50 } = latencyPercentiles(result.latencies);
        const sample = { callsPerSec: result.opsPerSec, p50, cpuUs: result.cpuUsPerOp, eventsPerSec: (eventsAfter - eventsBefore) / seconds, retainedMiB };
        return pageRate === undefined ? sample : { ...sample, resultKiB: resultBytes / 1024 };
      } finally {
        await close();
        stop();
        await viewed?.close();
      }
    },
  };
}

export function inspectorWorkloads(c: Counts): Workload[] {
  const limit = c.runLimitMs * 0.8;
  const viewers = '"inspected" = @statemcp/inspector in the client process with one viewer process reading every frame; "stalled" = the same with a viewer that never reads';
  const pageRateCalls = c.inspectorCalls;
  const pageRateWarmup = Math.min(5, pageRateCalls);
  return [
    inspectorRun(
      {
        id: 'inspector.stdio.1k',
        title: 'tools/call over stdio at ≈1 000 inspect events/s, with a live inspector page',
        detail: `${pageRateCalls} sequential calls (≈5 events per call; at most ${Math.round(limit / 2000)} s) after ${pageRateWarmup} warm-up calls, each returning a text whose size is calibrated at the start of every repetition so that the plain stack runs ≈${PAGE_RATE_CALLS_PER_SEC} calls/s (≈1 000 events/s) on this machine then (${PAGE_RATE_START_BYTES / 1024} KiB on the quiet reference machine), the same size for the three stacks of the repetition; the calls are not paced; ${viewers}`,
        calls: pageRateCalls,
        warmup: pageRateWarmup,
        syntheticPerSecond: 0,
        // Under load these calls slow down most: leave the run time for setup and the other stacks.
        maxMs: limit / 2,
        op: (client, resultBytes) => client.big(resultBytes),
        pageRate: { probeCalls: Math.min(25, Math.max(3, pageRateCalls)) },
      },
    ),
    inspectorRun(
      {
        id: 'inspector.stdio.seq',
        title: 'tools/call echo over stdio at full rate with a live inspector page (1 000 extra events/s)',
        detail: `${c.stdioSeq} calls after ${c.warmup} warm-up calls, 5 events per call plus 1 000 synthetic events/s; ${viewers}`,
        calls: c.stdioSeq,
        warmup: c.warmup,
        syntheticPerSecond: 1000,
        maxMs: limit,
        op: (client) => client.echo(ECHO_TEXT),
      },
    ),
    inspectorRun(
      {
        id: 'inspector.memory.seq',
        title: 'tools/call echo in memory at full rate with a live inspector page (the per-event cost)',
        detail: `${c.inMemorySeq} calls after ${c.warmup * 5} warm-up calls; client and server in this process, 10 events per call; ${viewers}`,
        calls: c.inMemorySeq,
        warmup: c.warmup * 5,
        syntheticPerSecond: 0,
        maxMs: limit,
        op: (client) => client.echo(ECHO_TEXT),
        inMemory: true,
      },
    ),
  ];
}
