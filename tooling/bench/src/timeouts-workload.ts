/**
 * One measured round of the timeouts rows: `count` concurrent `sleep` calls, each timed out by
 * the client at 50 ms, after two full-size warm-up rounds. Every call must reject and send one
 * `notifications/cancelled`; the heap each side retains is read after a full GC before and after.
 */
import type { BenchClient } from './clients/types.js';
import type { Metric, Sample } from './runner.js';
import { ECHO_TEXT, fullGc, type ServerStats } from './spec.js';

export const TIMEOUTS_DETAIL = 'after two full-size warm-up rounds; all must reject and send one notifications/cancelled each; heap retained = after − before, each after a full GC';

const metric = (key: string, label: string, digits: number, higherIsBetter: boolean): Metric => ({ key, label, digits, higherIsBetter });

export const TIMEOUTS_METRICS: readonly Metric[] = [
  metric('serverKB', 'server heap retained KB', 1, false),
  metric('clientKB', 'client heap retained KB', 1, false),
  metric('rejected', 'rejected', 0, true),
  metric('cancels', 'cancels sent', 0, true),
  metric('aborted', 'handlers aborted', 0, true),
  metric('settleMs', 'ms until all rejected', 1, false),
];

/** The server's stats once `aborted` sleep handlers in all were aborted (polled; at most 5 s). */
async function untilAborted(client: BenchClient, aborted: number): Promise<ServerStats> {
  const deadline = performance.now() + 5_000;
  let stats = await client.stats();
  while (stats.aborted < aborted && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    stats = await client.stats();
  }
  return stats;
}

/** Warms `client` up and measures one round of `count` timed-out calls. */
export async function timeoutsRound(client: BenchClient, count: number): Promise<Sample> {
  for (let i = 0; i < 50; i++) await client.echo(ECHO_TEXT);
  // Two full-size warm-up rounds, so the code V8 compiles for these paths is in the
  // baseline: after one round, a heap snapshot diff of the statemcp server across the next
  // round is all code (293 code objects, 129 KB: the optimizing tiers) and no data; after
  // two, the retained heap falls to ≈25 KB on the same stack.
  for (let round = 0; round < 2; round++) {
    await Promise.all(Array.from({ length: count }, () => client.sleepUntilTimeout(50)));
  }
  // The baseline waits for every warm-up handler to be aborted: on a loaded machine some
  // cancellations arrive after a fixed pause, and their handlers' contexts (and the
  // measured round's still in flight, counted against the warm-up's late aborts) moved
  // the retained heap by hundreds of KB either way.
  const before = await untilAborted(client, 2 * count);
  const cancelsBefore = client.cancelsSent();
  fullGc();
  const clientBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const outcomes = await Promise.all(Array.from({ length: count }, () => client.sleepUntilTimeout(50)));
  const settleMs = performance.now() - t0;
  // Let the cancellations reach the server before measuring.
  const after = await untilAborted(client, before.aborted + count);
  fullGc();
  const clientAfter = process.memoryUsage().heapUsed;
  return {
    serverKB: (after.heapUsed - before.heapUsed) / 1024,
    clientKB: (clientAfter - clientBefore) / 1024,
    rejected: outcomes.filter(Boolean).length,
    cancels: client.cancelsSent() - cancelsBefore,
    aborted: after.aborted - before.aborted,
    settleMs,
  };
}
