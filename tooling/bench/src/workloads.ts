/**
 * The workloads. Each run sets up what it needs (a connected pair, a child process), warms
 * up, measures, and tears down, so repetitions are independent. Stack names: the MCP stacks
 * (`statemcp`, `sdk1`, `sdk2`, `raw`), plus `floor` (a byte floor where one applies) and
 * `fetch` (the raw JSON-RPC client on `fetch` instead of node:http).
 */
import { MCP_STACKS, adapter, fixturePath } from './adapters.js';
import { allocatedBytes } from './allocation.js';
import { httpPoster, spawnHttpServer, spawnPipeFloor } from './children.js';
import * as rawClients from './clients/raw.js';
import * as statemcpClients from './clients/statemcp.js';
import { waitForExit, type BenchClient } from './clients/types.js';
import type { Counts } from './config.js';
import { closedLoop, type Comparison, type Metric, type Sample, type Workload } from './runner.js';
import { ECHO_TEXT, ECHO_TOOL, MIB, bigResponseLine } from './spec.js';
import { inspectorWorkloads } from './inspector-workload.js';
import { sessionsWorkload } from './sessions-workload.js';
import { CLUSTER_WORKLOAD_IDS, clusterWorkloads } from './cluster-workload.js';
import { TASKS_WORKLOAD_IDS, tasksWorkloads } from './tasks-workload.js';
import { latencyPercentiles } from './stats.js';
import { TIMEOUTS_DETAIL, TIMEOUTS_METRICS, timeoutsRound } from './timeouts-workload.js';
import { ERA_WORKLOAD_IDS, eraWorkloads } from './era-workload.js';

const m = (key: string, label: string, digits: number, higherIsBetter: boolean): Metric => ({ key, label, digits, higherIsBetter });
const CALLS = m('callsPerSec', 'calls/s', 0, true);
const P50 = m('p50', 'p50 ms', 3, false);
const P99 = m('p99', 'p99 ms', 3, false);
/** CPU time (user + system) of the harness process per call: both sides in-memory, the client side otherwise. */
const CPU = m('cpuUs', 'CPU µs/call', 1, false);
const CLIENT_CPU = m('cpuUs', 'client CPU µs/call', 1, false);
/** V8 heap bytes allocated per call, client and server together (see allocation.ts). */
const ALLOCATED = m('allocBytes', 'bytes allocated/call', 0, false);
/** Sequential calls whose allocation is counted (after the timed loop). */
const ALLOCATION_CALLS = 5_000;

/** A tools/call request line of the same shape as the stacks send (for the byte floors). */
const ECHO_REQUEST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: ECHO_TOOL, arguments: { text: ECHO_TEXT } } });
const ECHO_RESPONSE = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: ECHO_TEXT }] } });

/**
 * HTTP rows: every MCP stack on its default client (statemcp: `nodeHttpFetch`, node:http with
 * keep-alive; the official SDKs: the global `fetch`), plus statemcp and the raw floor on the
 * global `fetch`, so each statemcp row has a floor over the same client stack.
 */
const HTTP_STACKS: readonly string[] = [...MCP_STACKS, 'statemcp-fetch', 'raw-fetch'];

/** Ratios paired by client stack: node:http against raw over node:http, global fetch against raw over global fetch. */
function httpComparisons(extra: readonly string[] = []): Comparison[] {
  return [
    { mine: 'statemcp', others: ['sdk1', 'sdk2', 'raw', ...extra] },
    { mine: 'statemcp-fetch', others: ['sdk1', 'sdk2', 'raw-fetch'] },
  ];
}

/** The server fixture behind an HTTP row's stack. */
function httpServerOf(stack: string): string {
  if (stack === 'statemcp-fetch') return 'statemcp';
  return stack === 'raw-fetch' || stack === 'floor' ? 'raw' : stack;
}

function loadSample(result: { opsPerSec: number; latencies: number[]; cpuUsPerOp: number }): Sample {
  const { p50, p99 } = latencyPercentiles(result.latencies);
  return { callsPerSec: result.opsPerSec, p50, p99, cpuUs: result.cpuUsPerOp };
}

async function warm(client: BenchClient, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await client.echo(ECHO_TEXT);
}

export function workloads(c: Counts): Workload[] {
  const limit = c.runLimitMs * 0.8;
  // Every HTTP run starts a fresh server process: warm it until its CPU per call settles.
  const httpWarmup = c.httpWarmup;
  // tools/list calls are 10–100× slower than the others: fewer warm-up calls.
  const listWarmup = Math.min(Math.ceil(c.warmup / 4), 50);
  // In-memory calls are cheap and JIT tiers take a while to settle: warm up longer.
  const memoryWarmup = c.warmup * 5;
  const stdioFixture = (stack: string) => fixturePath(`stdio-${stack}`);
  const httpFixture = (stack: string) => fixturePath(`http-${stack}`);

  const inMemoryCalls = (concurrency: number, total: number): Workload => ({
    id: concurrency === 1 ? 'call.memory.seq' : `call.memory.c${concurrency}`,
    title: `tools/call echo, in-memory, ${concurrency === 1 ? 'sequential' : `${concurrency} concurrent`}`,
    detail: `${total} calls after ${memoryWarmup} warm-up calls${concurrency === 1 ? `; then bytes allocated on the V8 heap over ${Math.min(total, ALLOCATION_CALLS)} more sequential calls (used heap growth plus what each GC freed, both sides)` : ''}`,
    stacks: MCP_STACKS,
    metrics: concurrency === 1 ? [CALLS, P50, P99, CPU, ALLOCATED] : [CALLS, P50, P99, CPU],
    ratioMetrics: concurrency === 1 ? ['callsPerSec', 'cpuUs', 'allocBytes'] : ['callsPerSec', 'cpuUs'],
    run: async (stack) => {
      const pair = await adapter(stack).inMemory({});
      try {
        await warm(pair.client, memoryWarmup);
        const sample = loadSample(await closedLoop(total, concurrency, limit, () => pair.client.echo(ECHO_TEXT)));
        if (concurrency === 1) {
          // Counted in a separate pass of plain sequential calls, after the timed loop.
          const calls = Math.min(total, ALLOCATION_CALLS);
          const bytes = await allocatedBytes(async () => {
            for (let i = 0; i < calls; i++) await pair.client.echo(ECHO_TEXT);
          });
          sample.allocBytes = bytes / calls;
        }
        return sample;
      } finally {
        await pair.close();
      }
    },
  });

  const stdioCalls = (concurrency: number, total: number): Workload => ({
    id: concurrency === 1 ? 'call.stdio.seq' : `call.stdio.c${concurrency}`,
    title: `tools/call echo, stdio child process, ${concurrency === 1 ? 'sequential' : `${concurrency} concurrent`}`,
    detail: `${total} calls after ${c.warmup} warm-up calls; byte floor = ${ECHO_REQUEST.length}-byte line echoed by a child`,
    stacks: [...MCP_STACKS, 'floor'],
    metrics: [CALLS, P50, P99, CLIENT_CPU],
    run: async (stack) => {
      if (stack === 'floor') {
        const pipe = spawnPipeFloor(fixturePath('pipe-echo'));
        try {
          for (let i = 0; i < c.warmup; i++) await pipe.roundTrip(ECHO_REQUEST);
          return loadSample(await closedLoop(total, concurrency, limit, () => pipe.roundTrip(ECHO_REQUEST)));
        } finally {
          await pipe.stop();
        }
      }
      const { client } = await adapter(stack).stdio(stdioFixture(stack), []);
      try {
        await warm(client, c.warmup);
        return loadSample(await closedLoop(total, concurrency, limit, () => client.echo(ECHO_TEXT)));
      } finally {
        await client.close();
      }
    },
  });

  const httpCalls = (clients: number, perClient: number, total: number): Workload => ({
    id: clients === 1 && perClient === 1 ? 'call.http.seq' : `call.http.${clients}x${perClient}`,
    title:
      clients === 1 && perClient === 1
        ? 'tools/call echo, Streamable HTTP child process, 1 client sequential'
        : `tools/call echo, Streamable HTTP child process, ${clients} clients × ${perClient} concurrent`,
    detail:
      clients === 1
        ? `${total} calls after ${httpWarmup} warm-up calls; statemcp on its default nodeHttpFetch and on the global fetch, the official SDKs on the global fetch; raw = JSON-RPC over node:http keep-alive or the global fetch; floor = node:http byte echo`
        : `${total} calls after ${Math.max(httpWarmup, c.concurrentWarmupRounds * clients * perClient)} warm-up calls at full concurrency; statemcp on its default nodeHttpFetch and on the global fetch, raw over node:http keep-alive and over the global fetch`,
    stacks: clients === 1 ? [...HTTP_STACKS, 'floor'] : HTTP_STACKS,
    comparisons: httpComparisons(clients === 1 ? ['floor'] : []),
    metrics: [CALLS, P50, P99, CLIENT_CPU],
    run: async (stack) => {
      const server = await spawnHttpServer(httpFixture(httpServerOf(stack)), stack === 'floor' ? ['--echo'] : []);
      try {
        if (stack === 'floor') {
          const poster = httpPoster(server.url);
          try {
            for (let i = 0; i < httpWarmup; i++) await poster.post(ECHO_REQUEST);
            return loadSample(await closedLoop(total, clients * perClient, limit, () => poster.post(ECHO_REQUEST)));
          } finally {
            poster.close();
          }
        }
        const connect = stack === 'statemcp-fetch' ? statemcpClients.httpGlobalFetch : stack === 'raw-fetch' ? rawClients.httpFetch : (url: string) => adapter(stack).http(url);
        const list: BenchClient[] = [];
        try {
          for (let i = 0; i < clients; i++) list.push(await connect(server.url));
          // Warm up at full concurrency so every connection is open before measuring.
          const workers = clients * perClient;
          await closedLoop(Math.max(httpWarmup, c.concurrentWarmupRounds * workers), workers, limit, (worker) => (list[worker % clients] as BenchClient).echo(ECHO_TEXT));
          return loadSample(
            await closedLoop(total, clients * perClient, limit, (worker) => (list[worker % clients] as BenchClient).echo(ECHO_TEXT)),
          );
        } finally {
          await Promise.all(list.map((client) => client.close().catch(() => undefined)));
        }
      } finally {
        await server.stop();
      }
    },
  });

  const handshake: Workload = {
    id: 'handshake.memory',
    title: 'handshake, in-memory (connect → Operating)',
    detail: `${c.handshakes} handshakes per repetition after ${Math.ceil(c.handshakes / 5)} warm-up; raw = one initialize round trip`,
    stacks: MCP_STACKS,
    metrics: [P50, P99, m('perSec', 'handshakes/s', 0, true)],
    run: async (stack) => {
      const a = adapter(stack);
      const once = async (): Promise<number> => {
        const timing = { ms: Number.NaN };
        const pair = await a.inMemory({}, timing);
        await pair.close();
        return timing.ms;
      };
      for (let i = 0; i < Math.ceil(c.handshakes / 5); i++) await once();
      const times: number[] = [];
      const deadline = performance.now() + limit;
      for (let i = 0; i < c.handshakes && performance.now() < deadline; i++) times.push(await once());
      const { p50, p99 } = latencyPercentiles(times);
      return { p50, p99, perSec: 1000 / (times.reduce((s, t) => s + t, 0) / times.length) };
    },
  };

  const coldStart: Workload = {
    id: 'stdio.lifecycle',
    title: 'stdio cold start (spawn → Operating) and shutdown (close → child exited)',
    detail: `${c.coldStarts} spawns per repetition, median of them; raw + zod = the raw floor that also imports zod and builds the tools' zod shapes, as a user's server module does (the target is against raw; statemcp ÷ raw + zod is what statemcp adds)`,
    stacks: [...MCP_STACKS, 'raw-zod'],
    metrics: [m('coldMs', 'cold start ms', 1, false), m('shutdownMs', 'shutdown ms', 1, false)],
    ratioMetrics: ['coldMs', 'shutdownMs'],
    run: async (stack) => {
      const cold: number[] = [];
      const shutdown: number[] = [];
      for (let i = 0; i < c.coldStarts; i++) {
        const t0 = performance.now();
        // raw + zod: the raw client on the raw server fixture that also builds the zod shapes.
        const { client, pid } = await adapter(stack === 'raw-zod' ? 'raw' : stack).stdio(stdioFixture(stack), []);
        cold.push(performance.now() - t0);
        const t1 = performance.now();
        await client.close();
        await waitForExit(pid);
        shutdown.push(performance.now() - t1);
      }
      return { coldMs: latencyPercentiles(cold).p50, shutdownMs: latencyPercentiles(shutdown).p50 };
    },
  };

  const big: Workload = {
    id: 'stdio.1mib',
    title: '1 MiB text tool result (quotes, backslashes, tabs, newlines) over stdio',
    detail: `${c.bigCalls} sequential calls after 5 warm-up; a text of 1 MiB whose JSON encoding escapes 16 of every 53 characters (${(bigResponseLine(MIB).length / MIB).toFixed(2)} MiB on the wire); byte floor = child writes the raw floor's prebuilt response line per request`,
    stacks: [...MCP_STACKS, 'floor'],
    metrics: [m('mibPerSec', 'MiB/s', 1, true), m('msPerCall', 'ms/call', 2, false)],
    run: async (stack) => {
      const measure = async (op: () => Promise<number>): Promise<Sample> => {
        for (let i = 0; i < 5; i++) await op();
        const t0 = performance.now();
        let bytes = 0;
        let calls = 0;
        const deadline = t0 + limit;
        for (; calls < c.bigCalls && performance.now() < deadline; calls++) bytes += await op();
        const ms = performance.now() - t0;
        if (bytes !== calls * MIB) throw new Error(`received ${bytes} bytes for ${calls} MiB`);
        return { mibPerSec: bytes / MIB / (ms / 1000), msPerCall: ms / calls };
      };
      if (stack === 'floor') {
        const pipe = spawnPipeFloor(fixturePath('pipe-echo'), ['--big', String(MIB)]);
        const lineBytes = Buffer.byteLength(bigResponseLine(MIB));
        try {
          // The floor counts the text it carried when the whole response line arrived.
          return await measure(async () => ((await pipe.roundTrip('1')) === lineBytes ? MIB : -1));
        } finally {
          await pipe.stop();
        }
      }
      const { client } = await adapter(stack).stdio(stdioFixture(stack), []);
      try {
        return await measure(() => client.big(MIB));
      } finally {
        await client.close();
      }
    },
  };

  const list: Workload = {
    id: 'list.memory',
    title: 'tools/list with 100 registered tools, in-memory, sequential',
    detail: `${c.listCalls} calls after ${listWarmup} warm-up`,
    stacks: MCP_STACKS,
    metrics: [CALLS, P50, P99, CPU],
    ratioMetrics: ['callsPerSec', 'cpuUs'],
    run: async (stack) => {
      const pair = await adapter(stack).inMemory({ manyTools: true });
      try {
        const count = await pair.client.listTools();
        if (count !== 100) throw new Error(`tools/list returned ${count} tools, expected 100`);
        for (let i = 0; i < listWarmup; i++) await pair.client.listTools();
        return loadSample(await closedLoop(c.listCalls, 1, limit, () => pair.client.listTools()));
      } finally {
        await pair.close();
      }
    },
  };

  const timeouts: Workload = {
    id: 'timeouts.stdio',
    title: `${c.timeouts} concurrent requests timing out at 50 ms (stdio child)`,
    detail: TIMEOUTS_DETAIL,
    stacks: MCP_STACKS,
    metrics: TIMEOUTS_METRICS,
    ratioMetrics: ['serverKB', 'settleMs'],
    run: async (stack) => {
      const { client } = await adapter(stack).stdio(stdioFixture(stack), []);
      try {
        return await timeoutsRound(client, c.timeouts);
      } finally {
        await client.close();
      }
    },
  };

  const json: Workload = {
    id: 'floor.json',
    title: 'floor: JSON stringify + parse of one tools/call request and its response',
    detail: `${c.jsonOps} round trips (4 JSON operations each)`,
    stacks: ['json'],
    metrics: [m('callsPerSec', 'round trips/s', 0, true)],
    run: async () => {
      const request = JSON.parse(ECHO_REQUEST) as unknown;
      const response = JSON.parse(ECHO_RESPONSE) as unknown;
      let sink = 0;
      const t0 = performance.now();
      for (let i = 0; i < c.jsonOps; i++) {
        sink += (JSON.parse(JSON.stringify(request)) as { id: number }).id;
        sink += (JSON.parse(JSON.stringify(response)) as { id: number }).id;
      }
      const ms = performance.now() - t0;
      if (sink !== 2 * c.jsonOps) throw new Error('unexpected');
      return { callsPerSec: (c.jsonOps / ms) * 1000 };
    },
  };

  /**
   * The 2026-07-28 rows (issue 12 / 19): statemcp with `era: 'modern'` and the raw floor sending
   * the per-request `_meta` (raw: nothing validated). The official SDKs run their default path
   * (the legacy handshake), as in the legacy rows: the same floors.
   */
  const modernInMemory: Workload = {
    id: 'call.memory.modern',
    title: 'tools/call echo, in-memory, sequential, 2026-07-28 (per-request _meta validated)',
    detail: `${c.inMemorySeq} calls after ${memoryWarmup} warm-up calls; statemcp and raw speak 2026-07-28 (no handshake), the official SDKs their default legacy path`,
    stacks: MCP_STACKS,
    metrics: [CALLS, P50, P99, CPU],
    ratioMetrics: ['callsPerSec', 'cpuUs'],
    run: async (stack) => {
      const pair = stack === 'statemcp' ? await statemcpClients.inMemoryModern({}) : stack === 'raw' ? await rawClients.inMemoryModern({}) : await adapter(stack).inMemory({});
      try {
        await warm(pair.client, memoryWarmup);
        return loadSample(await closedLoop(c.inMemorySeq, 1, limit, () => pair.client.echo(ECHO_TEXT)));
      } finally {
        await pair.close();
      }
    },
  };

  const modernHttp = (clients: number, perClient: number, total: number): Workload => ({
    id: clients === 1 ? 'call.http.modern' : `call.http.modern${clients}x${perClient}`,
    title: `tools/call echo, Streamable HTTP child process, ${clients === 1 ? '1 client sequential' : `${clients} clients × ${perClient} concurrent`}, 2026-07-28 stateless (no session)`,
    detail: `${total} calls after ${Math.max(httpWarmup, c.concurrentWarmupRounds * clients * perClient)} warm-up calls; statemcp and raw POST 2026-07-28 requests with _meta and routing headers, no session, each on node:http keep-alive (statemcp's default) and on the global fetch; the official SDKs their default legacy session`,
    stacks: HTTP_STACKS,
    comparisons: httpComparisons(),
    metrics: [CALLS, P50, P99, CLIENT_CPU],
    run: async (stack) => {
      const server = await spawnHttpServer(httpFixture(httpServerOf(stack)));
      try {
        const modern: Record<string, (url: string) => Promise<BenchClient>> = {
          statemcp: statemcpClients.httpModern,
          'statemcp-fetch': statemcpClients.httpModernGlobalFetch,
          raw: rawClients.httpModern,
          'raw-fetch': rawClients.httpModernFetch,
        };
        const connect = modern[stack] ?? ((url: string) => adapter(stack).http(url));
        const list: BenchClient[] = [];
        try {
          for (let i = 0; i < clients; i++) list.push(await connect(server.url));
          const workers = clients * perClient;
          const call = (worker: number): Promise<void> => (list[worker % clients] as BenchClient).echo(ECHO_TEXT);
          await closedLoop(Math.max(httpWarmup, c.concurrentWarmupRounds * workers), workers, limit, call);
          return loadSample(await closedLoop(total, workers, limit, call));
        } finally {
          await Promise.all(list.map((client) => client.close().catch(() => undefined)));
        }
      } finally {
        await server.stop();
      }
    },
  });

  /**
   * What `@statemcp/opentelemetry` costs a call (issue 34): its middleware on both sides with no
   * SDK registered (spans non-recording, nothing exported) against the same call without it.
   */
  const tracedInMemory: Workload = {
    id: 'call.memory.otel',
    title: 'tools/call echo, in-memory, sequential, with @statemcp/opentelemetry on both sides (no exporter)',
    detail: `${c.inMemorySeq} calls after ${memoryWarmup} warm-up calls; \`otel\`: McpTelemetry middleware on server and client, no OpenTelemetry SDK registered; \`statemcp\`: no middleware`,
    stacks: ['statemcp', 'otel'],
    comparisons: [{ mine: 'otel', others: ['statemcp'] }],
    metrics: [CALLS, P50, P99, CPU],
    ratioMetrics: ['callsPerSec', 'cpuUs'],
    run: async (stack) => {
      const pair = stack === 'otel' ? await statemcpClients.inMemoryTraced() : await adapter('statemcp').inMemory({});
      try {
        await warm(pair.client, memoryWarmup);
        return loadSample(await closedLoop(c.inMemorySeq, 1, limit, () => pair.client.echo(ECHO_TEXT)));
      } finally {
        await pair.close();
      }
    },
  };

  const tracedStdio: Workload = {
    id: 'call.stdio.otel',
    title: 'tools/call echo, stdio child process, sequential, with @statemcp/opentelemetry on both sides (no exporter)',
    detail: `${c.stdioSeq} calls after ${c.warmup} warm-up calls; \`otel\`: McpTelemetry middleware on the child server and the client, no OpenTelemetry SDK registered; \`statemcp\`: no middleware`,
    stacks: ['statemcp', 'otel'],
    comparisons: [{ mine: 'otel', others: ['statemcp'] }],
    metrics: [CALLS, P50, P99, CLIENT_CPU],
    run: async (stack) => {
      const traced = stack === 'otel';
      const { client } = await statemcpClients.stdio(stdioFixture('statemcp'), traced ? ['--otel'] : [], traced);
      try {
        await warm(client, c.warmup);
        return loadSample(await closedLoop(c.stdioSeq, 1, limit, () => client.echo(ECHO_TEXT)));
      } finally {
        await client.close();
      }
    },
  };

  return [
    json,
    handshake,
    inMemoryCalls(1, c.inMemorySeq),
    inMemoryCalls(64, c.inMemoryConcurrent),
    modernInMemory,
    tracedInMemory,
    list,
    stdioCalls(1, c.stdioSeq),
    stdioCalls(64, c.stdioConcurrent),
    tracedStdio,
    big,
    coldStart,
    httpCalls(1, 1, c.httpSeq),
    httpCalls(16, 8, c.httpConcurrent),
    modernHttp(1, 1, c.httpSeq),
    modernHttp(16, 8, c.httpConcurrent),
    sessionsWorkload(c, limit),
    timeouts,
    ...eraWorkloads(c),
    ...inspectorWorkloads(c),
    ...clusterWorkloads(c),
    ...tasksWorkloads(c),
  ];
}

/** Workloads whose repetitions use `slowReps`. */
export const SLOW_WORKLOADS: ReadonlySet<string> = new Set(['http.sessions', 'timeouts.stdio', 'era.timeouts', 'stdio.lifecycle', 'call.http.16x8', 'call.http.modern16x8']);

/** Workloads that spawn a child per run (repetitions: `childReps`). */
export const CHILD_WORKLOADS: ReadonlySet<string> = new Set(['call.stdio.seq', 'call.stdio.otel', 'call.stdio.c64', 'stdio.1mib', 'call.http.seq', 'call.http.16x8', 'call.http.modern', 'call.http.modern16x8', 'inspector.stdio.1k', 'inspector.stdio.seq', ...ERA_WORKLOAD_IDS.filter((id) => id !== 'era.memory'), ...CLUSTER_WORKLOAD_IDS, ...TASKS_WORKLOAD_IDS]);
