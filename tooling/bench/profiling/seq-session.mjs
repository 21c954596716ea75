// seq.mjs without @statemcp/client: the protocol's client Session on StdioClientTransport sends
// `tools/call echo` itself (`session.request`), so seq.mjs minus this is the Client's cost and
// this minus seq-transport.mjs the protocol's.   node seq-session.mjs CALLS [CONCURRENCY]
import { readFileSync } from 'node:fs';
import { Session } from '@statemcp/protocol';
import { StdioClientTransport } from '@statemcp/stdio-transport';

const [calls = 20000, concurrency = 1] = process.argv.slice(2).map(Number);
const cpuMs = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const transport = new StdioClientTransport({ command: process.execPath, args: [process.env.SERVER ?? 'server-dist.mjs'], stderr: 'inherit' });
const session = new Session({ role: 'client', capabilities: () => ({}) });
await session.connect(transport);
await session.initialize({ protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
const params = () => ({ name: 'echo', arguments: { text: 'hello world' } });
const echo = () => session.request('tools/call', params());
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
console.log(`session ${calls} calls, ${concurrency} in flight: ${(calls / (ms / 1000)).toFixed(0)} calls/s, client CPU ${((c.user + c.system) / calls).toFixed(1)} µs/call, server CPU ${(((cpuMs(transport.pid) - s0) * 1000) / calls).toFixed(1)} µs/call`);
await session.close();
