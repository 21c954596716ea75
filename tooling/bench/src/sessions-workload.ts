/**
 * `http.sessions`: what open Streamable HTTP sessions cost a server, and what it keeps once they
 * are closed. Every session is opened as a client opens it (initialize, initialized, then the
 * standalone GET SSE stream, which a real client holds for as long as the session lives), all
 * of them stay open while the child reports its memory after a full GC; then each is DELETEd
 * and the heap the server still holds is read again.
 */
import { Agent } from 'node:http';
import { MCP_STACKS, fixturePath } from './adapters.js';
import { deleteSession, openSessionWithStream, spawnHttpServer, type OpenSession } from './children.js';
import type { Counts } from './config.js';
import type { Metric, Sample, Workload } from './runner.js';

const m = (key: string, label: string, digits: number): Metric => ({ key, label, digits, higherIsBetter: false });

/** Sessions opened (and closed) at once. */
const PARALLEL = 8;
/** How long the server gets to end the GET streams after the DELETEs. */
const STREAM_END_MS = 5_000;

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `op(i)` for i in [0, count) with {@link PARALLEL} workers, until `deadline`. */
async function inParallel(count: number, deadline: number, op: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < count && performance.now() < deadline) await op(next++);
    }),
  );
  return Math.min(next, count);
}

async function endSession(url: string, agent: Agent, session: OpenSession): Promise<void> {
  const status = await deleteSession(url, agent, session.sessionId);
  if (status < 200 || status > 299) throw new Error(`DELETE answered ${status}`);
}

export function sessionsWorkload(c: Counts, limitMs: number): Workload {
  const idle = c.idleWaitMs > 0;
  return {
    id: 'http.sessions',
    title: `${c.sessions} Streamable HTTP sessions each holding its GET stream, on one server (child, after GC); then all closed`,
    detail:
      `sessions opened ${PARALLEL} at a time with raw initialize + initialized POSTs and a standalone GET SSE stream each (one socket per stream, kept open); ` +
      `memory from the child after a full GC, minus its baseline (after 5 sessions opened and closed)${idle ? `; again after ${c.idleWaitMs / 1000} s without traffic` : ''}; ` +
      `then every session DELETEd, the server given ${STREAM_END_MS / 1000} s to end the streams, and the heap still held (total, not per session) read after a full GC`,
    stacks: MCP_STACKS,
    metrics: [
      m('rssKB', 'RSS KB/session', 1),
      m('heapKB', 'heap KB/session', 1),
      m('heapTotalKB', 'committed heap KB/session', 1),
      m('externalKB', 'external KB/session', 2),
      ...(idle ? [m('idleRssKB', `RSS KB/session after ${c.idleWaitMs / 1000} s idle`, 1)] : []),
      m('closedHeapKB', 'heap KB left after closing all', 0),
      { key: 'streamsEnded', label: 'GET streams ended by the server', digits: 0, higherIsBetter: true },
      { key: 'openPerSec', label: 'sessions opened/s', digits: 0, higherIsBetter: true },
    ],
    ratioMetrics: idle ? ['rssKB', 'idleRssKB', 'heapKB', 'closedHeapKB'] : ['rssKB', 'heapKB', 'closedHeapKB'],
    run: async (stack) => {
      const server = await spawnHttpServer(fixturePath(`http-${stack}`));
      const agent = new Agent({ keepAlive: true, maxSockets: PARALLEL });
      // Every GET stream holds its own connection for the session's life.
      const streamAgent = new Agent({ keepAlive: false });
      const open: OpenSession[] = [];
      try {
        const deadline = performance.now() + limitMs;
        // Warm every step (open, stream, DELETE) so the baseline holds the compiled code, not sessions.
        for (let i = 0; i < 5; i++) {
          const session = await openSessionWithStream(server.url, agent, streamAgent);
          await endSession(server.url, agent, session);
          await Promise.race([session.streamEnded, delay(1_000)]);
          session.destroyStream();
        }
        await delay(100);
        const before = await server.memory();
        const t0 = performance.now();
        const opened = await inParallel(c.sessions, deadline, async () => void open.push(await openSessionWithStream(server.url, agent, streamAgent)));
        const openMs = performance.now() - t0;
        if (opened !== c.sessions) throw new Error(`opened ${opened} of ${c.sessions} sessions in time`);
        const after = await server.memory();
        const live = after.sessions - before.sessions;
        if (live !== c.sessions) throw new Error(`server reports ${live} new sessions, expected ${c.sessions}`);
        const sample: Sample = {
          rssKB: (after.rss - before.rss) / c.sessions / 1024,
          heapKB: (after.heapUsed - before.heapUsed) / c.sessions / 1024,
          heapTotalKB: (after.heapTotal - before.heapTotal) / c.sessions / 1024,
          externalKB: (after.external - before.external) / c.sessions / 1024,
          openPerSec: (c.sessions / openMs) * 1000,
        };
        if (idle) {
          await delay(c.idleWaitMs);
          const rested = await server.memory();
          if (rested.sessions !== after.sessions) throw new Error('sessions ended while idle');
          sample.idleRssKB = (rested.rss - before.rss) / c.sessions / 1024;
        }
        const closeDeadline = performance.now() + limitMs;
        await inParallel(open.length, closeDeadline, (i) => endSession(server.url, agent, open[i] as OpenSession));
        let streamsEnded = 0;
        const counted = open.map((s) => s.streamEnded.then(() => void streamsEnded++));
        await Promise.race([Promise.all(counted), delay(STREAM_END_MS)]);
        sample.streamsEnded = streamsEnded;
        // Streams the server left open are closed from this side, as a client would on DELETE.
        for (const session of open) session.destroyStream();
        await delay(200);
        const closed = await server.memory();
        if (closed.sessions !== before.sessions) throw new Error(`server still reports ${closed.sessions - before.sessions} sessions after closing`);
        sample.closedHeapKB = (closed.heapUsed - before.heapUsed) / 1024;
        return sample;
      } finally {
        for (const session of open) session.destroyStream();
        agent.destroy();
        streamAgent.destroy();
        await server.stop();
      }
    },
  };
}
