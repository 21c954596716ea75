// The middle of seq.mjs and seq-raw.mjs: statemcp's StdioClientTransport against server-dist.mjs
// with no Session and no Client above it (a map of ids to resolving functions, the raw floor's
// client logic), so the client CPU it prints is the transport's and Node's; seq.mjs minus this
// is what the protocol and the client cost.   node seq-transport.mjs CALLS [CONCURRENCY]
import { readFileSync } from 'node:fs';
import { StdioClientTransport } from '@statemcp/stdio-transport';

const [calls = 20000, concurrency = 1] = process.argv.slice(2).map(Number);
const cpuMs = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const transport = new StdioClientTransport({ command: process.execPath, args: [process.env.SERVER ?? 'server-dist.mjs'], stderr: 'inherit' });
const waiting = new Map();
await transport.start({
  onMessage(message) {
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  },
  onClose() {},
});
let id = 0;
const request = (method, params) =>
  new Promise((resolve, reject) => {
    const n = ++id;
    waiting.set(n, resolve);
    transport.send({ jsonrpc: '2.0', id: n, method, params }).catch(reject);
  });
await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
const echo = () => request('tools/call', { name: 'echo', arguments: { text: 'hello world' } });
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
console.log(`transport only ${calls} calls, ${concurrency} in flight: ${(calls / (ms / 1000)).toFixed(0)} calls/s, client CPU ${((c.user + c.system) / calls).toFixed(1)} µs/call, server CPU ${(((cpuMs(transport.pid) - s0) * 1000) / calls).toFixed(1)} µs/call`);
await transport.close();
