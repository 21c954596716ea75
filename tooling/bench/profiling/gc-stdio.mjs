// Minor GCs on each side of stdio `tools/call echo`: statemcp's client against server-dist.mjs (or SERVER=…),
// V8's GC profiler in both processes over the timed calls (the child's through child-gc-hook.mjs, started by
// SIGUSR2 after the warm-up); prints client CPU µs/call and, per side, the scavenges, their summed pause and
// what they promoted to the old generation (objects kept alive through two of them).
//   node gc-stdio.mjs CALLS [IN_FLIGHT]
import { GCProfiler } from 'node:v8';
import { Client } from '@statemcp/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { summarizeScavenges } from './gc-report.mjs';

const [calls = 60000, concurrency = 64] = process.argv.slice(2).map(Number);
const hook = new URL('./child-gc-hook.mjs', import.meta.url).pathname;
const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', hook, process.env.SERVER ?? 'server-dist.mjs'], stderr: 'inherit' });
const client = new Client({ name: 'c', version: '1' }, { era: process.env.ERA ?? 'legacy' });
await client.connect(transport);
const echo = () => client.callTool({ name: 'echo', arguments: { text: 'hello world' } });
const run = async (n) => {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next++ < n) await echo(); }));
};
await run(2000);
process.kill(transport.pid, 'SIGUSR2');
await new Promise((resolve) => setTimeout(resolve, 50));
const profiler = new GCProfiler();
profiler.start();
const cpu = process.cpuUsage();
await run(calls);
const used = process.cpuUsage(cpu);
console.log(`client: ${((used.user + used.system) / calls).toFixed(2)} µs/call, ${summarizeScavenges(profiler.stop())}`);
await client.close();
