// The in-memory rows from the packages' built `dist`: statemcp's Client and McpServer over the
// in-memory transport, in one process. Prints CPU µs (both sides) and bytes allocated on the V8
// heap per unit (a connect → Operating → close for `handshake`, a call otherwise).
//   [ASYNC=1] node --expose-gc memory.mjs handshake|seq|modern [N]
// Add `--cpu-prof --cpu-prof-dir=/tmp/p` to profile the timed loop (and the warm-up).
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

const [mode = 'seq', nArg] = process.argv.slice(2);
const n = Number(nArg ?? (mode === 'handshake' ? 3000 : 50000));
if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');

const server = new McpServer({ name: 'bench-statemcp', version: '1.0.0' });
const echo = ({ text }) => ({ content: [{ type: 'text', text }] });
// ASYNC=1: an `async` handler (the `async` stacks of the bench's `era.*` rows).
server.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, process.env.ASYNC === '1' ? async (args) => echo(args) : echo);

async function open(era) {
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  const connection = await server.connect(serverSide);
  const client = new Client({ name: 'bench-client', version: '1.0.0' }, { era });
  await client.connect(clientSide);
  return { client, close: async () => { await client.close(); await connection.close(); } };
}

/** The unit of work of `mode` (and what ends it), for this script and alloc-sites.mjs. */
export async function setUp(mode) {
  if (mode === 'handshake') return { unit: async () => (await open('legacy')).close(), done: async () => {} };
  const pair = await open(mode === 'modern' ? 'modern' : 'legacy');
  const unit = async () => {
    const result = await pair.client.callTool({ name: 'echo', arguments: { text: 'hello world' } });
    if (result.content[0].text !== 'hello world') throw new Error('bad echo');
  };
  return { unit, done: pair.close };
}
if (process.env.MEMORY_MJS_NO_MAIN !== '1') await main();

async function main() {
const { unit, done } = await setUp(mode);

const loop = async (count) => { for (let i = 0; i < count; i++) await unit(); };
await loop(Math.ceil(n / 5));

globalThis.gc();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await loop(n);
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);

const allocN = Math.min(n, mode === 'handshake' ? 1000 : 5000);
globalThis.gc();
const profiler = new GCProfiler();
profiler.start();
const heap0 = getHeapStatistics().used_heap_size;
await loop(allocN);
const heap1 = getHeapStatistics().used_heap_size;
let freed = 0;
for (const gc of profiler.stop().statistics) freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
await done();

const per = mode === 'handshake' ? 'connect' : 'call';
console.log(
  `${mode}: ${n} × ${per}, ${(n / ms * 1000).toFixed(0)}/s, CPU ${(((cpu.user + cpu.system) / n)).toFixed(2)} µs/${per}, ` +
    `${((heap1 - heap0 + freed) / allocN).toFixed(0)} B allocated/${per}`,
);
}
