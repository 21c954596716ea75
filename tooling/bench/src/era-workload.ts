/**
 * The default era against the handshake (issue 39, item 6). Every other row pins statemcp's
 * client to the handshake era (`era: 'legacy'`) so one protocol is compared across stacks, and
 * its echo handler is synchronous. What a user runs is the client's default, `era: 'auto'`,
 * which speaks 2026-07-28 to a statemcp server (no handshake, the per-request `_meta` on every
 * request), and, most often, an `async` handler. These rows put the four side by side, all
 * statemcp:
 *
 * - `legacy`: pinned to the handshake, synchronous echo (the other rows' statemcp);
 * - `legacy-async`: pinned to the handshake, `async` echo;
 * - `default`: the default era, synchronous echo;
 * - `default-async`: the default era, `async` echo (what most users run).
 *
 * (The timeouts row's `sleep` handler is async on both.)
 *
 * The target: `default` within 1.25× of `legacy` on every row (calls/s ratio ≥ 0.8, heap
 * retained after the timeouts ≤ 1.25×), and the same for the async pair.
 */
import { fixturePath } from './adapters.js';
import { spawnHttpServer } from './children.js';
import * as statemcpClients from './clients/statemcp.js';
import type { BenchClient } from './clients/types.js';
import type { Counts } from './config.js';
import { closedLoop, type Comparison, type Metric, type Sample, type Workload } from './runner.js';
import { ECHO_TEXT } from './spec.js';
import { latencyPercentiles } from './stats.js';
import { TIMEOUTS_DETAIL, TIMEOUTS_METRICS, timeoutsRound } from './timeouts-workload.js';

const STACKS = ['legacy', 'legacy-async', 'default', 'default-async'] as const;

export const ERA_WORKLOAD_IDS: readonly string[] = ['era.memory', 'era.stdio', 'era.http', 'era.timeouts'];

/** Each default-era stack against its handshake twin, and what an async handler costs. */
const COMPARISONS: readonly Comparison[] = [
  { mine: 'default', others: ['legacy'] },
  { mine: 'default-async', others: ['legacy-async', 'legacy'] },
  { mine: 'legacy-async', others: ['legacy'] },
];

const metric = (key: string, label: string, digits: number, higherIsBetter: boolean): Metric => ({ key, label, digits, higherIsBetter });
const CALLS = metric('callsPerSec', 'calls/s', 0, true);
const P50 = metric('p50', 'p50 ms', 3, false);
const P99 = metric('p99', 'p99 ms', 3, false);

function eraOf(stack: string): statemcpClients.BenchEra {
  return stack.startsWith('default') ? 'auto' : 'legacy';
}

function isAsync(stack: string): boolean {
  return stack.endsWith('-async');
}

function sampleOf(result: { opsPerSec: number; latencies: number[]; cpuUsPerOp: number }): Sample {
  const { p50, p99 } = latencyPercentiles(result.latencies);
  return { callsPerSec: result.opsPerSec, p50, p99, cpuUs: result.cpuUsPerOp };
}

async function sequential(client: BenchClient, warmup: number, calls: number, limitMs: number): Promise<Sample> {
  for (let i = 0; i < warmup; i++) await client.echo(ECHO_TEXT);
  return sampleOf(await closedLoop(calls, 1, limitMs, () => client.echo(ECHO_TEXT)));
}

export function eraWorkloads(c: Counts): Workload[] {
  const limit = c.runLimitMs * 0.8;
  const stdioFixture = fixturePath('stdio-statemcp');
  const fixtureArgs = (stack: string): string[] => (isAsync(stack) ? ['--async-echo'] : []);
  const callRow = (id: string, where: string, detail: string, cpuLabel: string, run: (stack: string) => Promise<Sample>): Workload => ({
    id,
    title: `tools/call echo, ${where}, sequential: the default era (2026-07-28 against statemcp) beside the handshake, sync and async handlers`,
    detail,
    stacks: STACKS,
    comparisons: COMPARISONS,
    metrics: [CALLS, P50, P99, metric('cpuUs', cpuLabel, 1, false)],
    ratioMetrics: ['callsPerSec', 'cpuUs'],
    run,
  });

  const memory = callRow('era.memory', 'in-memory', `${c.inMemorySeq} calls after ${c.warmup * 5} warm-up calls`, 'CPU µs/call', async (stack) => {
    const pair = await statemcpClients.inMemoryAt(eraOf(stack), { asyncEcho: isAsync(stack) });
    try {
      return await sequential(pair.client, c.warmup * 5, c.inMemorySeq, limit);
    } finally {
      await pair.close();
    }
  });

  const stdio = callRow('era.stdio', 'stdio child process', `${c.stdioSeq} calls after ${c.warmup} warm-up calls`, 'client CPU µs/call', async (stack) => {
    const { client } = await statemcpClients.stdio(stdioFixture, fixtureArgs(stack), false, eraOf(stack));
    try {
      return await sequential(client, c.warmup, c.stdioSeq, limit);
    } finally {
      await client.close();
    }
  });

  const httpWarmup = c.httpWarmup;
  const http = callRow(
    'era.http',
    'Streamable HTTP child process, 1 client',
    `${c.httpSeq} calls after ${httpWarmup} warm-up calls; the default client fetch (nodeHttpFetch); the default era runs stateless (no session)`,
    'client CPU µs/call',
    async (stack) => {
      const server = await spawnHttpServer(fixturePath('http-statemcp'), fixtureArgs(stack));
      try {
        const client = await statemcpClients.http(server.url, eraOf(stack));
        try {
          return await sequential(client, httpWarmup, c.httpSeq, limit);
        } finally {
          await client.close().catch(() => undefined);
        }
      } finally {
        await server.stop();
      }
    },
  );

  const timeouts: Workload = {
    id: 'era.timeouts',
    title: `${c.timeouts} concurrent requests timing out at 50 ms (stdio child): the default era beside the handshake`,
    detail: TIMEOUTS_DETAIL,
    stacks: ['legacy', 'default'],
    comparisons: [{ mine: 'default', others: ['legacy'] }],
    metrics: TIMEOUTS_METRICS,
    ratioMetrics: ['serverKB', 'clientKB', 'settleMs'],
    run: async (stack) => {
      const { client } = await statemcpClients.stdio(stdioFixture, [], false, eraOf(stack));
      try {
        return await timeoutsRound(client, c.timeouts);
      } finally {
        await client.close();
      }
    },
  };

  return [memory, stdio, http, timeouts];
}
