// Where each side of a stdio `tools/call echo` allocates: statemcp's client against server-dist.mjs (or
// SERVER=…), V8's sampling heap profiler in both processes over the timed calls (the child's through
// heap-sample-hook.mjs, started by SIGUSR2 after the warm-up), objects collected by GCs kept; prints each
// side's top allocating functions (self bytes per call) and its GC count. SURVIVORS=1 drops, on the client,
// what minor GCs collected: what is left is what they promoted to the old generation (kept through two).
//   node alloc-stdio.mjs CALLS [IN_FLIGHT]
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { Client } from '@statemcp/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { printSites } from './alloc-report.mjs';

const [calls = 20000, concurrency = 64] = process.argv.slice(2).map(Number);
const hook = new URL('./heap-sample-hook.mjs', import.meta.url).pathname;
const transport = new StdioClientTransport({
  command: process.execPath,
  args: ['--import', hook, process.env.SERVER ?? 'server-dist.mjs'],
  env: { ...process.env, HEAP_SAMPLE_UNITS: String(calls) },
  stderr: 'inherit',
});
const client = new Client({ name: 'c', version: '1' }, { era: process.env.ERA ?? 'legacy' });
await client.connect(transport);
const echo = () => client.callTool({ name: 'echo', arguments: { text: 'hello world' } });
const run = async (n) => {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next++ < n) await echo(); }));
};
await run(2000);
process.kill(transport.pid, 'SIGUSR2');
await new Promise((resolve) => setTimeout(resolve, 100));
let gcs = 0;
const observer = new PerformanceObserver((list) => { gcs += list.getEntries().length; });
observer.observe({ entryTypes: ['gc'] });
const session = new Session();
session.connect();
const minor = process.env.SURVIVORS !== '1';
await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMinorGC: minor, includeObjectsCollectedByMajorGC: true });
await run(calls);
const { profile } = await session.post('HeapProfiler.stopSampling');
observer.disconnect();
printSites('client', profile, calls, gcs, console.log);
await client.close();
