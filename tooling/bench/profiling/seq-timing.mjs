// The timed part of seq.mjs, seq-session.mjs and seq-transport.mjs: 2,000 warm-up calls, then
// CALLS calls with CONCURRENCY in flight; the line it returns gives calls/s and the client's and
// the server's CPU per call (the server's from /proc, so Linux only).
import { cpuMs } from './raw-client.mjs';

/** Times `echo` (one call, returning its promise) against the server process `pid`; `label` starts the line. */
export async function timeCalls(echo, pid, calls, concurrency, label = '') {
  const run = async (n) => {
    let next = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => { while (next++ < n) await echo(); }));
  };
  await run(2000);
  const s0 = cpuMs(pid);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await run(calls);
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return `${label}${calls} calls, ${concurrency} in flight: ${(calls / (ms / 1000)).toFixed(0)} calls/s, client CPU ${((c.user + c.system) / calls).toFixed(1)} µs/call, server CPU ${(((cpuMs(pid) - s0) * 1000) / calls).toFixed(1)} µs/call`;
}
