// The raw floor of seq.mjs: hand-written JSON-RPC client against server-raw.mjs.   node seq-raw.mjs CALLS [CONCURRENCY]
import { cpuMs, rawClient } from './raw-client.mjs';

const [calls = 20000, concurrency = 1] = process.argv.slice(2).map(Number);
const { child, request, close } = await rawClient(process.env.SERVER ?? 'server-raw.mjs', { detached: process.env.DETACHED === '1' });
const echo = () => request('tools/call', { name: 'echo', arguments: { text: 'hello world' } });
const run = async (n) => {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next++ < n) await echo(); }));
};
await run(2000);
const s0 = cpuMs(child.pid);
const c0 = process.cpuUsage();
const t0 = performance.now();
await run(calls);
const ms = performance.now() - t0;
const c = process.cpuUsage(c0);
console.log(`raw ${calls} calls, ${concurrency} in flight: ${(calls / (ms / 1000)).toFixed(0)} calls/s, client CPU ${((c.user + c.system) / calls).toFixed(1)} µs/call, server CPU ${(((cpuMs(child.pid) - s0) * 1000) / calls).toFixed(1)} µs/call`);
await close();
