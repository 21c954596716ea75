// tools/call echo over stdio, sequential or N in flight, statemcp's client from dist against
// server-dist.mjs; prints client and server CPU µs/call.   node seq.mjs CALLS [CONCURRENCY]
import { readFileSync } from 'node:fs';
import { Client } from '@statemcp/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';

const [calls = 20000, concurrency = 1] = process.argv.slice(2).map(Number);
const extra = (process.env.CHILD_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const cpuMs = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const transport = new StdioClientTransport({ command: process.execPath, args: [...extra, process.env.SERVER ?? 'server-dist.mjs'], stderr: 'inherit' });
const client = new Client({ name: 'c', version: '1' }, { era: 'legacy' });
await client.connect(transport);
const echo = () => client.callTool({ name: 'echo', arguments: { text: 'hello world' } });
const run = async (n) => {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next++ < n) await echo(); }));
};
await run(2000);
const s0 = cpuMs(transport.pid);
const c0 = process.cpuUsage();
const t0 = performance.now();
await run(calls);
const ms = performance.now() - t0;
const c = process.cpuUsage(c0);
console.log(`${calls} calls, ${concurrency} in flight: ${(calls / (ms / 1000)).toFixed(0)} calls/s, client CPU ${((c.user + c.system) / calls).toFixed(1)} µs/call, server CPU ${(((cpuMs(transport.pid) - s0) * 1000) / calls).toFixed(1)} µs/call`);
await client.close();
