// 1 MiB text result over stdio (quotes, backslashes, tabs, newlines): statemcp's client from dist
// against server-dist.mjs, and a raw JSON-RPC client against server-raw.mjs; alternated.
//   node big.mjs ROUNDS CALLS
import { performance } from 'node:perf_hooks';
import { Client } from '@statemcp/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { cpuMs, rawClient } from './raw-client.mjs';

const [rounds = 5, calls = 40] = process.argv.slice(2).map(Number);
const MIB = 1024 * 1024;
const extra = (process.env.CHILD_NODE_FLAGS ?? '').split(' ').filter(Boolean);

async function statemcp() {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...extra, 'server-dist.mjs'], stderr: 'inherit' });
  const client = new Client({ name: 'c', version: '1' }, { era: 'legacy' });
  await client.connect(transport);
  const call = async () => (await client.callTool({ name: 'big', arguments: { bytes: MIB } })).content[0].text.length;
  return { call, pid: transport.pid, close: () => client.close() };
}

async function raw() {
  const { child, request, close } = await rawClient('server-raw.mjs', { nodeArgs: extra });
  const call = async () => (await request('tools/call', { name: 'big', arguments: { bytes: MIB } })).result.content[0].text.length;
  return { call, pid: child.pid, close };
}

const stacks = { raw, statemcp };
const only = process.env.ONLY;
const out = { raw: [], statemcp: [] };
const cpu = { raw: [], statemcp: [] };
const scpu = { raw: [], statemcp: [] };
for (let r = 0; r < rounds; r++)
  for (const name of (r % 2 ? ['statemcp', 'raw'] : ['raw', 'statemcp']).filter((n) => only === undefined || n === only)) {
    const s = await stacks[name]();
    for (let i = 0; i < 3; i++) await s.call();
    const s0 = cpuMs(s.pid);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    let bytes = 0;
    for (let i = 0; i < calls; i++) bytes += await s.call();
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    scpu[name].push((cpuMs(s.pid) - s0) / calls);
    if (bytes !== calls * MIB) throw new Error(`${name}: ${bytes} bytes`);
    out[name].push(bytes / MIB / (ms / 1000));
    cpu[name].push((c.user + c.system) / 1000 / calls);
    await s.close();
  }
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const name of ['raw', 'statemcp']) console.log(`${name}: ${med(out[name]).toFixed(1)} MiB/s, client CPU ${med(cpu[name]).toFixed(2)} ms/call, server CPU ${med(scpu[name]).toFixed(2)} ms/call`);
console.log(`statemcp ÷ raw (median of per-round ratios): ${med(out.statemcp.map((v, i) => v / out.raw[i])).toFixed(2)}`);
