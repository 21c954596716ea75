// The raw floor of seq.mjs: hand-written JSON-RPC client against server-raw.mjs.   node seq-raw.mjs CALLS [CONCURRENCY]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [calls = 20000, concurrency = 1] = process.argv.slice(2).map(Number);
const cpuMs = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const child = spawn(process.execPath, [process.env.SERVER ?? 'server-raw.mjs'], { stdio: ['pipe', 'pipe', 'inherit'], env: { PATH: process.env.PATH }, detached: process.env.DETACHED === '1' });
const waiting = new Map();
let parts = [];
let id = 0;
child.stdout.on('data', (chunk) => {
  let start = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
    parts.push(chunk.subarray(start, i));
    const message = JSON.parse(Buffer.concat(parts).toString('utf8'));
    parts = [];
    start = i + 1;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  }
  if (start < chunk.length) parts.push(chunk.subarray(start));
});
const request = (method, params) =>
  new Promise((resolve) => {
    const n = id++;
    waiting.set(n, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
  });
await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
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
child.stdin.end();
