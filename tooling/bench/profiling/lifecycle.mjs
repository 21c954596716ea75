// stdio cold start (spawn → Operating) and shutdown (close() → child exited) with statemcp's
// client from `dist`, against plain .mjs servers; servers alternate per round.
//   node lifecycle.mjs N server-a.mjs server-b.mjs …
import { Client } from '@statemcp/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { performance } from 'node:perf_hooks';

const [n, ...servers] = process.argv.slice(2);
const extra = (process.env.CHILD_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
async function once(file) {
  let pid = -1;
  const t0 = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [...extra, file], stderr: 'inherit', onDiagnostic: (e) => { if (e.type === 'spawned') pid = e.pid; } });
  const client = new Client({ name: 'c', version: '1' }, { era: 'legacy' });
  await client.connect(transport);
  const cold = performance.now() - t0;
  const t1 = performance.now();
  await client.close();
  while (alive(pid)) await new Promise((r) => setTimeout(r, 1));
  return [cold, performance.now() - t1];
}
await once(servers[0]);
const res = Object.fromEntries(servers.map((s) => [s, { cold: [], shut: [] }]));
for (let i = 0; i < Number(n); i++)
  for (const s of i % 2 ? [...servers].reverse() : servers) {
    const [c, d] = await once(s);
    res[s].cold.push(c);
    res[s].shut.push(d);
  }
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
for (const s of servers) console.log(`${s}: cold ${med(res[s].cold).toFixed(1)} ms, shutdown ${med(res[s].shut).toFixed(1)} ms`);
