// Where the wall time of one sequential `tools/call echo` over Streamable HTTP goes (issue 39
// items 1, 2): statemcp's `Client` on its default transport (`modern`: 2026-07-28, `legacy`: a
// 2025-11-25 session) or the raw floor's node:http client (`raw`), against one of the bench's
// built HTTP fixtures (default `http-statemcp.mjs`, `http-raw.mjs` for `raw`; `FIXTURE=` swaps it)
// started with `http-timeline-hook.mjs`. After 4,000 warm-up calls, CALLS calls are stamped on
// both sides with the machine's monotonic clock: the call made, the client's socket write, the
// server's request head parsed, its `writeHead`, its socket write, the client's response head
// parsed, the call resolved. Prints the median (p25–p75) µs of each segment, and wall µs per call
// beside each process's CPU µs per call (`/proc`, 10 ms ticks): when wall ≈ client + server CPU,
// the two processes ran one after the other, not side by side.
//   node http-call-timeline.mjs modern|legacy|raw [CALLS]
import { spawn } from 'node:child_process';
import dc from 'node:diagnostics_channel';
import { readFileSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMs, rawHttpClient, listeningPort } from './raw-client.mjs';
import { statemcpHttpClient } from './statemcp-http-client.mjs';

const [era = 'modern', callsArg] = process.argv.slice(2);
if (era !== 'modern' && era !== 'legacy' && era !== 'raw') throw new Error('usage: node http-call-timeline.mjs modern|legacy|raw [CALLS]');
const calls = Number(callsArg ?? 2000);
const fixture = process.env.FIXTURE ?? new URL(`../dist/fixtures/${era === 'raw' ? 'http-raw' : 'http-statemcp'}.mjs`, import.meta.url).pathname;
const out = join(tmpdir(), `http-call-timeline-${process.pid}.json`);
const hook = new URL('./http-timeline-hook.mjs', import.meta.url).pathname;
const child = spawn(process.execPath, ['--import', hook, fixture], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, TIMELINE_OUT: out } });
const port = await listeningPort(child);
const { call, close } = era === 'raw' ? rawHttpClient(port) : await statemcpHttpClient(port, era);
for (let i = 0; i < 4000; i++) await call();

const stamps = [];
let stamping = false;
const now = () => Number(process.hrtime.bigint() / 1000n);
for (const method of ['_writev', '_write']) {
  const write = Socket.prototype[method];
  Socket.prototype[method] = function (...args) {
    if (stamping && typeof this.remotePort === 'number') stamps.push(['clientWrite', now()]);
    return write.apply(this, args);
  };
}
dc.subscribe('http.client.response.finish', () => stamping && stamps.push(['clientHead', now()]));
child.kill('SIGUSR2');
await new Promise((resolve) => setTimeout(resolve, 200));
stamping = true;
const [client0, server0, wall0] = [process.cpuUsage(), cpuMs(child.pid), performance.now()];
for (let i = 0; i < calls; i++) {
  stamps.push(['call', now()]);
  await call();
}
stamps.push(['call', now()]);
const wall = ((performance.now() - wall0) * 1000) / calls;
const clientCpu = process.cpuUsage(client0);
const serverCpu = ((cpuMs(child.pid) - server0) * 1000) / calls;
stamping = false;
await close();
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
const all = [...stamps, ...JSON.parse(readFileSync(out, 'utf8'))].sort((a, b) => a[1] - b[1]);
rmSync(out);

// One row per call: the first stamp of each kind between a call and the next.
const rows = [];
let row;
for (const [kind, at] of all) {
  if (kind === 'call') {
    if (row !== undefined && ['clientWrite', 'serverHead', 'serverWriteHead', 'serverWrite', 'clientHead'].every((k) => row[k] !== undefined)) rows.push({ ...row, next: at });
    row = { call: at };
  } else if (row !== undefined && row[kind] === undefined) row[kind] = at;
}
const segments = {
  'call → client write': (r) => r.clientWrite - r.call,
  'client write → server head': (r) => r.serverHead - r.clientWrite,
  'server head → writeHead': (r) => r.serverWriteHead - r.serverHead,
  'writeHead → server write': (r) => r.serverWrite - r.serverWriteHead,
  'server write → client head': (r) => r.clientHead - r.serverWrite,
  'client head → call resolved': (r) => r.next - r.clientHead,
  'whole call': (r) => r.next - r.call,
};
const quartiles = (values) => {
  const sorted = values.sort((a, b) => a - b);
  const at = (q) => sorted[Math.floor(q * (sorted.length - 1))];
  return `${at(0.5)} (${at(0.25)}–${at(0.75)})`;
};
console.log(`${era}, ${fixture.split('/').pop()}, ${rows.length} of ${calls} calls stamped`);
for (const [name, of] of Object.entries(segments)) console.log(`  ${name.padEnd(30)} ${quartiles(rows.map(of))} µs`);
console.log(`  wall ${wall.toFixed(0)} µs per call; CPU per call: client ${((clientCpu.user + clientCpu.system) / calls).toFixed(0)}, server ${serverCpu.toFixed(0)}`);
