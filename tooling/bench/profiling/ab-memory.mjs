// A/B of the in-memory handshake (or sequential call, legacy or 2026-07-28) between builds, in ONE process: batches
// alternate between the builds, so load from other processes on a shared machine hits both
// alike. Each build is a folder holding `node_modules/@statemcp/{protocol,client,server}` (see
// `snapshot-dist.sh`). Prints per build the median CPU µs per unit over the batches (both sides
// of the connection run in this process) and bytes allocated on the V8 heap per unit.
//   [ASYNC=1] node --expose-gc ab-memory.mjs handshake|seq|modern ROUNDS BATCH dirA dirB …   (ASYNC=1: an `async` tool handler)
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [mode, roundsArg, batchArg, ...dirs] = process.argv.slice(2);
const rounds = Number(roundsArg);
const batch = Number(batchArg);
if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
if (dirs.length === 0 || !(rounds > 0) || !(batch > 0)) throw new Error('usage: ab-memory.mjs handshake|seq|modern ROUNDS BATCH dirA dirB …');

async function load(dir) {
  const url = (pkg) => pathToFileURL(join(dir, 'node_modules', '@statemcp', pkg, 'dist', 'index.js')).href;
  const [{ Client }, { InMemoryTransport }, { McpServer }] = await Promise.all([import(url('client')), import(url('protocol')), import(url('server'))]);
  const { z } = await import(pathToFileURL(join(dir, 'node_modules', 'zod', 'index.js')).href);
  const server = new McpServer({ name: 'bench-statemcp', version: '1.0.0' });
  const echo = ({ text }) => ({ content: [{ type: 'text', text }] });
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, process.env.ASYNC === '1' ? async (args) => echo(args) : echo);
  const open = async (era) => {
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    const connection = await server.connect(serverSide);
    const client = new Client({ name: 'bench-client', version: '1.0.0' }, { era });
    await client.connect(clientSide);
    return { client, close: async () => { await client.close(); await connection.close(); } };
  };
  if (mode === 'handshake') return async () => (await open('legacy')).close();
  const pair = await open(mode === 'modern' ? 'modern' : 'legacy');
  return async () => {
    const result = await pair.client.callTool({ name: 'echo', arguments: { text: 'hello world' } });
    if (result.content[0].text !== 'hello world') throw new Error('bad echo');
  };
}

const units = await Promise.all(dirs.map(load));
const cpu = dirs.map(() => []);
const bytes = dirs.map(() => []);
for (const unit of units) for (let i = 0; i < batch; i++) await unit(); // warm-up
for (let r = 0; r < rounds; r++) {
  for (let d = 0; d < dirs.length; d++) {
    globalThis.gc();
    const profiler = new GCProfiler();
    profiler.start();
    const heap0 = getHeapStatistics().used_heap_size;
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < batch; i++) await units[d]();
    const used = process.cpuUsage(cpu0);
    const heap1 = getHeapStatistics().used_heap_size;
    let freed = 0;
    for (const gc of profiler.stop().statistics) freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
    cpu[d].push((used.user + used.system) / batch);
    bytes[d].push((heap1 - heap0 + freed) / batch);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const min = (xs) => Math.min(...xs);
dirs.forEach((dir, d) => {
  console.log(`${dir}: CPU ${median(cpu[d]).toFixed(1)} µs/unit (min ${min(cpu[d]).toFixed(1)}), ${median(bytes[d]).toFixed(0)} B/unit`);
});
if (dirs.length > 1) {
  const ratios = cpu[1].map((c, i) => c / cpu[0][i]);
  console.log(`paired CPU ratio ${dirs[1]} ÷ ${dirs[0]}: median ${median(ratios).toFixed(3)}`);
}
