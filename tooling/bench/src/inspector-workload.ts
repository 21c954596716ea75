/**
 * What a live inspector page costs the MCP traffic: statemcp's client over stdio, sequential
 * echo calls, once without an inspector and once with `@statemcp/inspector` running in the
 * client's process and one viewer connected over WebSocket (reading as the page does). In both
 * runs a publisher adds 1 000 synthetic events per second on the diagnostics channel, on top of
 * the events the calls themselves produce (five per call), so the endpoint carries at least the
 * 1 000 events/s the target names.
 */
import { channel } from 'node:diagnostics_channel';
import { DIAGNOSTIC_CHANNEL_NAMES } from '@statemcp/protocol';
import { startInspector } from '@statemcp/inspector';
import WebSocket from 'ws';
import { adapter, fixturePath } from './adapters.js';
import type { Counts } from './config.js';
import { closedLoop, type Workload } from './runner.js';
import { ECHO_TEXT } from './spec.js';
import { latencyPercentiles } from './stats.js';

/** Publishes `perSecond` diagnostic events, in bursts every 10 ms; returns the stop function. */
function syntheticEvents(perSecond: number): () => void {
  const diagnostic = channel(DIAGNOSTIC_CHANNEL_NAMES.diagnostic);
  const perTick = Math.max(1, Math.round(perSecond / 100));
  const timer = setInterval(() => {
    for (let i = 0; i < perTick; i++) diagnostic.publish({ type: 'diagnostic', sessionId: 'bench-synthetic', at: performance.now(), message: 'synthetic inspector load' });
  }, 10);
  return () => clearInterval(timer);
}

/** An inspector with one connected viewer that reads everything; resolves once the viewer is live. */
async function inspectedByOneViewer(): Promise<{ events: () => number; close: () => Promise<void> }> {
  const inspector = await startInspector();
  const socket = new WebSocket(`ws://127.0.0.1:${inspector.port}/events?token=${inspector.token}`);
  let events = 0;
  socket.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString('utf8')) as { events?: unknown[] };
    events += frame.events?.length ?? 0;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    events: () => events,
    close: async () => {
      socket.close();
      await inspector.close();
    },
  };
}

export function inspectorWorkload(c: Counts): Workload {
  const limit = c.runLimitMs * 0.8;
  return {
    id: 'inspector.stdio.seq',
    title: 'tools/call echo over stdio with a live inspector page (1 000 extra events/s)',
    detail: `${c.stdioSeq} calls after ${c.warmup} warm-up calls; "inspected" = @statemcp/inspector in the client process with one WebSocket viewer`,
    stacks: ['statemcp', 'inspected'],
    metrics: [
      { key: 'callsPerSec', label: 'calls/s', digits: 0, higherIsBetter: true },
      { key: 'p50', label: 'p50 ms', digits: 3, higherIsBetter: false },
      { key: 'eventsPerSec', label: 'events/s to the page', digits: 0, higherIsBetter: true },
    ],
    run: async (stack) => {
      const stop = syntheticEvents(1000);
      const inspected = stack === 'inspected' ? await inspectedByOneViewer() : undefined;
      const { client } = await adapter('statemcp').stdio(fixturePath('stdio-statemcp'), []);
      try {
        for (let i = 0; i < c.warmup; i++) await client.echo(ECHO_TEXT);
        const before = inspected?.events() ?? 0;
        const started = performance.now();
        const result = await closedLoop(c.stdioSeq, 1, limit, () => client.echo(ECHO_TEXT));
        const seconds = (performance.now() - started) / 1000;
        const { p50 } = latencyPercentiles(result.latencies);
        return { callsPerSec: result.opsPerSec, p50, eventsPerSec: inspected === undefined ? 0 : ((inspected.events() - before) / seconds) };
      } finally {
        await client.close();
        stop();
        await inspected?.close();
      }
    },
  };
}
