// statemcp's stdio client closing a server, N times after 3 warm-up closes: per close, the wall ms
// from close() to its resolution and the client's CPU ms over that span, all its threads, from
// /proc/self/task/*/schedstat (ns: Linux only). Prints a JSON array of [wall, cpu] pairs. Run it
// from a worktree's tooling/bench/profiling to measure that worktree's build.
//   node close-cpu.mjs N server.mjs
import { readdirSync, readFileSync } from 'node:fs';
import { Client } from '@statemcp/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';
const [n, file] = process.argv.slice(2);
const cpu = () => readdirSync('/proc/self/task').reduce((s, t) => s + Number(readFileSync(`/proc/self/task/${t}/schedstat`, 'utf8').split(' ')[0]), 0);
const rows = [];
for (let i = 0; i < Number(n) + 3; i++) {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['--expose-gc', file], stderr: 'inherit' });
  const client = new Client({ name: 'c', version: '1' }, { era: 'legacy' });
  await client.connect(transport);
  await new Promise((r) => setTimeout(r, 20));
  const c0 = cpu(); const t0 = performance.now();
  await client.close();
  const t1 = performance.now(); const c1 = cpu();
  if (i >= 3) rows.push([t1 - t0, (c1 - c0) / 1e6]);
}
console.log(JSON.stringify(rows));
