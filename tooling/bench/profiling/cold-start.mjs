// Cold start (spawn → initialize answered) and shutdown (stdin end → exit) of plain .mjs servers,
// driven by a raw client so only the child is measured. Alternates the servers given.
//   node cold-start.mjs N server-a.mjs server-b.mjs …
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** CPU time (user + system) of a live process so far, in ms (Linux; 10 ms ticks). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const [n, ...servers] = process.argv.slice(2);
const extra = (process.env.CHILD_NODE_FLAGS ?? '').split(' ').filter(Boolean);
function once(file) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [...extra, file], { stdio: ['pipe', 'pipe', 'inherit'], env: { PATH: process.env.PATH } });
    let out = '';
    let t1, t2, cpu;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      out += d;
      if (t1 === undefined && out.includes('\n')) {
        t1 = performance.now();
        cpu = cpuMs(child.pid);
        child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
        t2 = performance.now();
        child.stdin.end();
      }
    });
    child.on('exit', () => (t1 === undefined ? reject(new Error(`no answer: ${out}`)) : resolve([t1 - t0, performance.now() - t2, cpu])));
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }) + '\n');
  });
}
const res = Object.fromEntries(servers.map((s) => [s, { cold: [], shut: [], cpu: [] }]));
for (let i = 0; i < Number(n); i++)
  for (const s of i % 2 ? [...servers].reverse() : servers) {
    const [c, d, u] = await once(s);
    res[s].cpu.push(u);
    res[s].cold.push(c);
    res[s].shut.push(d);
  }
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
for (const s of servers) console.log(`${s}: cold ${med(res[s].cold).toFixed(1)} ms (child CPU ${med(res[s].cpu)} ms), shutdown ${med(res[s].shut).toFixed(1)} ms`);
