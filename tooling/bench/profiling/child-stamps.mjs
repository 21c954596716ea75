// Cold start and shutdown of plain .mjs stdio servers measured INSIDE the child (child-stamps-hook.mjs),
// so the parent's scheduling and the process teardown stay out: wall and CPU ms at the `initialize`
// answer (process.cpuUsage, µs resolution, unlike /proc's 10 ms ticks), and stdin 'end' → 'exit' in µs
// (wall, and the child's CPU: the figure to trust on a loaded machine).
// A raw client sends `initialize`, then `notifications/initialized`, then ends stdin 20 ms later.
// Servers alternate (order reversed every other round); medians with p25–p75.
//   node child-stamps.mjs N server-a.mjs server-b.mjs …
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const hook = fileURLToPath(new URL('child-stamps-hook.mjs', import.meta.url));
const [n, ...servers] = process.argv.slice(2);
if (servers.length === 0) throw new Error('usage: node child-stamps.mjs N server-a.mjs …');
const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };

function once(file) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', hook, file], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH } });
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n') && !child.stdin.writableEnded && !child.stdin.writableNeedDrain) {
        child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
        setTimeout(() => child.stdin.end(), 20);
        out = '';
      }
    });
    child.on('close', () => {
      const answer = /STAMP answer ([\d.]+) ([\d.]+)/.exec(err);
      const exit = /STAMP exit (\d+) (\d+)/.exec(err);
      if (answer === null || exit === null) reject(new Error(`no stamps from ${file}: ${err}`));
      else resolve({ wall: Number(answer[1]), cpu: Number(answer[2]), exit: Number(exit[1]), exitCpu: Number(exit[2]) });
    });
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
  });
}

const runs = servers.map(() => []);
for (let round = 0; round < Number(n); round++) {
  const order = [...servers.keys()];
  if (round % 2 === 1) order.reverse();
  for (const index of order) runs[index].push(await once(servers[index]));
}
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))];
const summary = (values, digits) => `${quantile(values, 0.5).toFixed(digits)} (${quantile(values, 0.25).toFixed(digits)}–${quantile(values, 0.75).toFixed(digits)})`;
for (const [index, file] of servers.entries()) {
  const column = (key) => runs[index].map((run) => run[key]);
  console.log(`${file}: answer at ${summary(column('wall'), 1)} ms, CPU ${summary(column('cpu'), 1)} ms; stdin end → exit ${summary(column('exit'), 0)} µs, CPU ${summary(column('exitCpu'), 0)} µs`);
}
