// What reading a child's /proc files costs its parent when the child exits: a raw client spawns a
// stdio server, answers `initialize`, optionally reads some of the child's /proc files, ends its
// stdin and measures its own CPU (process.cpuUsage) and wall until the child's 'exit' is reported.
//   READ=none|stat|dir|leader|task|own|fd node proc-reap-cost.mjs server.mjs
//   task: /proc/<pid>/task/<tid>/children of every thread; own: /proc/<tid>/task/<tid>/children
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { spawn } from 'node:child_process';

const file = process.argv[2];
const read = process.env.READ ?? 'none';
const cpu = () => { const c = process.cpuUsage(); return c.user + c.system; };
const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
const rows = [];
for (let i = 0; i < 25; i++) {
  const child = spawn(process.execPath, ['--expose-gc', file], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise((r) => { child.stdout.once('data', r); child.stdin.write(`${JSON.stringify(init)}\n`); });
  await new Promise((r) => setTimeout(r, 20));
  const exited = new Promise((r) => child.once('exit', () => r([performance.now(), cpu()])));
  const t0 = [performance.now(), cpu()];
  const pid = child.pid;
  if (read === 'stat') readFileSync(`/proc/${pid}/stat`, 'utf8');
  if (read === 'dir') readdirSync(`/proc/${pid}/task`);
  if (read === 'leader') readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  if (read === 'task') for (const t of readdirSync(`/proc/${pid}/task`)) readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8');
  if (read === 'fd') for (const fd of [0, 1]) readlinkSync(`/proc/${pid}/fd/${fd}`);
  if (read === 'own') for (const t of readdirSync(`/proc/${pid}/task`)) readFileSync(`/proc/${t}/task/${t}/children`, 'utf8');
  child.stdin.end();
  const t1 = await exited;
  rows.push([t1[0] - t0[0], t1[1] - t0[1]]);
}
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const warm = rows.slice(3);
console.log(`${read}: end → exit wall ${med(warm.map((r) => r[0])).toFixed(2)} ms, client CPU ${med(warm.map((r) => r[1]))} µs`);
