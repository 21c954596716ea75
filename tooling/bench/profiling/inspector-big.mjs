// The inspector row's client in one process: statemcp's client from dist calling `big` over stdio
// (server-dist.mjs), rounds alternating without and with `@statemcp/inspector` and one viewer
// process reading every frame (../dist/fixtures/inspector-viewer.mjs; build the bench first).
//   node --expose-gc inspector-big.mjs ROUNDS CALLS [BYTES]   (ONLY=plain|inspected: one mode, to profile it)
// Prints per mode the median client, server and viewer CPU µs/call, calls/s, events/s reaching
// the viewer, the client's main-thread CPU, GC pauses and major GCs per round, then the paired
// client CPU difference per
// event (FRESH=1: a new server process per round, as the bench does; HISTORY_BYTES=n: the
// inspector's `historyBytes`).
import { spawn } from 'node:child_process';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Client } from '@statemcp/client';
import { startInspector } from '@statemcp/inspector';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { readFileSync } from 'node:fs';
import { cpuMs } from './raw-client.mjs';

/** On-CPU time of this process's main thread in µs (the scheduler's nanosecond count). */
const mainThreadUs = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;

const [rounds = 6, calls = 200, bytes = 160 * 1024] = process.argv.slice(2).map(Number);
const extra = (process.env.CHILD_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const viewerPath = new URL('../dist/fixtures/inspector-viewer.mjs', import.meta.url).pathname;

async function viewed() {
  const inspector = await startInspector(process.env.HISTORY_BYTES === undefined ? {} : { historyBytes: Number(process.env.HISTORY_BYTES) });
  const child = spawn(process.execPath, [viewerPath, `ws://127.0.0.1:${inspector.port}/events?token=${inspector.token}`, 'read'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise((resolve) => waiting.push(resolve));
  if ((await next()) !== 'OPEN') throw new Error('viewer did not open');
  return {
    pid: child.pid,
    events: async () => {
      const answer = next();
      child.stdin.write('count\n');
      return Number((await answer).replace('EVENTS ', ''));
    },
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await inspector.close();
      await exited;
    },
  };
}

async function connect() {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...extra, 'server-dist.mjs'], stderr: 'inherit' });
  const client = new Client({ name: 'c', version: '1' }, { era: 'legacy' });
  await client.connect(transport);
  const call = async () => {
    const text = (await client.callTool({ name: 'big', arguments: { bytes } })).content[0].text;
    if (text.length !== bytes) throw new Error(`got ${text.length} bytes`);
  };
  return { call, pid: transport.pid, close: () => client.close() };
}
// FRESH=1: a new server process per round (as the bench does), else one for the whole run.
const fresh = process.env.FRESH === '1';
let shared = fresh ? undefined : await connect();
if (shared !== undefined) for (let i = 0; i < 20; i++) await shared.call();

const only = process.env.ONLY; // `plain` or `inspected`: one mode only (for a --cpu-prof of it)
const out = { plain: [], inspected: [] };
for (let r = 0; r < rounds; r++) {
  for (const mode of (r % 2 ? ['inspected', 'plain'] : ['plain', 'inspected']).filter((m) => only === undefined || m === only)) {
    const v = mode === 'inspected' ? await viewed() : undefined;
    const conn = shared ?? (await connect());
    const { call } = conn;
    for (let i = 0; i < 5; i++) await call();
    const s0 = cpuMs(conn.pid);
    const e0 = (await v?.events()) ?? 0;
    const vc0 = v === undefined ? 0 : cpuMs(v.pid);
    globalThis.gc?.();
    const c0 = process.cpuUsage();
    const m0 = mainThreadUs();
    let majorGcs = 0;
    let gcMs = 0;
    const gcs = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        gcMs += entry.duration;
        if (entry.detail?.kind !== constants.NODE_PERFORMANCE_GC_MINOR) majorGcs += 1;
      }
    });
    gcs.observe({ entryTypes: ['gc'] });
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await call();
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const mainCpu = (mainThreadUs() - m0) / calls;
    const serverCpu = ((cpuMs(conn.pid) - s0) * 1000) / calls;
    // the observer's entries arrive asynchronously: read them after the wait
    await new Promise((resolve) => setTimeout(resolve, 120));
    gcs.disconnect();
    const events = ((await v?.events()) ?? 0) - e0;
    out[mode].push({ cpu: ((c.user + c.system) / calls), perSec: calls / (ms / 1000), events, eventsPerSec: events / (ms / 1000), viewerCpu: v === undefined ? 0 : ((cpuMs(v.pid) - vc0) * 1000) / calls, serverCpu, majorGcs, mainCpu, gcUs: (gcMs * 1000) / calls });
    if (shared === undefined) await conn.close();
    await v?.close();
  }
}
await shared?.close();
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const mode of ['plain', 'inspected'].filter((m) => out[m].length > 0)) {
  const rows = out[mode];
  console.log(`${mode}: client CPU ${med(rows.map((x) => x.cpu)).toFixed(0)} µs/call, ${med(rows.map((x) => x.perSec)).toFixed(0)} calls/s, ${med(rows.map((x) => x.eventsPerSec)).toFixed(0)} events/s to the viewer (${med(rows.map((x) => x.events / calls)).toFixed(2)} per call), server CPU ${med(rows.map((x) => x.serverCpu)).toFixed(0)} µs/call, viewer CPU ${med(rows.map((x) => x.viewerCpu)).toFixed(0)} µs/call`);
  console.log(`  main thread CPU ${med(rows.map((x) => x.mainCpu)).toFixed(0)} µs/call, GC pauses ${med(rows.map((x) => x.gcUs)).toFixed(0)} µs/call; major GCs per round: ${rows.map((x) => x.majorGcs).join(', ')}`);
}
if (only !== undefined) process.exit(0);
const diffs = out.plain.map((p, i) => out.inspected[i].cpu - p.cpu);
const mainDiffs = out.plain.map((p, i) => out.inspected[i].mainCpu - p.mainCpu);
const gcDiffs = out.plain.map((p, i) => out.inspected[i].gcUs - p.gcUs);
console.log(`paired main thread CPU difference ${med(mainDiffs).toFixed(0)} µs/call (${mainDiffs.map((d) => d.toFixed(0)).join(', ')}), GC pauses ${med(gcDiffs).toFixed(0)} µs/call`);
const perCall = med(out.inspected.map((x) => x.events / calls));
console.log(`paired client CPU difference: ${med(diffs).toFixed(0)} µs/call (${diffs.map((d) => d.toFixed(0)).join(', ')}), ≈${(med(diffs) / perCall).toFixed(1)} µs/event; paired calls/s ratio plain ÷ inspected ${med(out.plain.map((p, i) => p.perSec / out.inspected[i].perSec)).toFixed(2)}`);
