// A/B of two worktrees' HTTP clients in ONE process (issue 39 items 1, 2): each build's statemcp `Client` on
// its default Streamable HTTP transport (`nodeHttpFetch`'s own POST), CLIENTS clients with PER_CLIENT calls in
// flight each (default 1 × 1), against one server child (`http-ab-server.mjs` of serverDir, default dirA).
// After 4 × 1,000 warm-up calls per build, batches of BATCH `tools/call echo` alternate A B, B A, … for ROUNDS
// rounds; per batch this process's CPU (`process.cpuUsage`) and the server's (its own, through `mark`/`cpu`)
// per call. Prints per side the medians of A and B and of the paired ratio B ÷ A with its p25–p75. Copy
// `http-ab-server.mjs` into each worktree's profiling folder; run both orders (A/B, then B/A): the build
// measured first can read better in one process (seen at 2026-07-28 16 × 8).
//   [ERA=legacy|modern] [CLIENTS=n PER_CLIENT=n] node http-client-ab.mjs ROUNDS BATCH dirA dirB [serverDir]
import { spawn } from 'node:child_process';
const [rounds = 20, batch = 1000, a, b, serverDir = a] = process.argv.slice(2);
const era = process.env.ERA ?? 'legacy';
const child = spawn(process.execPath, [`${serverDir}/tooling/bench/profiling/http-ab-server.mjs`], { stdio: ['pipe', 'pipe', 'inherit'] });
const port = await new Promise((r) => child.stdout.once('data', (d) => r(Number(String(d).split(' ')[1]))));
const serverCpu = () => new Promise((r) => { child.stdout.once('data', (d) => r(Number(String(d).split(' ')[1]))); child.stdin.write('cpu\n'); });
const clients = Number(process.env.CLIENTS ?? 1), perClient = Number(process.env.PER_CLIENT ?? 1);
const mk = async (dir) => {
  const { Client } = await import(`${dir}/packages/client/dist/index.js`);
  const { StreamableHttpClientTransport } = await import(`${dir}/packages/http-transport/dist/client/index.js`);
  const list = [];
  for (let c = 0; c < clients; c++) {
    const client = new Client({ name: 'c', version: '1' }, { era });
    await client.connect(new StreamableHttpClientTransport(`http://127.0.0.1:${port}/`));
    list.push(client);
  }
  return async (n) => {
    let left = n;
    await Promise.all(Array.from({ length: clients * perClient }, async (_, w) => {
      const client = list[w % clients];
      while (left-- > 0) { const r = await client.callTool({ name: 'echo', arguments: { text: 'hello' } }); if (r.content[0].text !== 'hello') throw new Error('bad'); }
    }));
  };
};
const runs = { A: await mk(a), B: await mk(b) };
for (let i = 0; i < 4; i++) { await runs.A(1000); await runs.B(1000); }
const cpu = { A: [], B: [] }, srv = { A: [], B: [] };
for (let r = 0; r < Number(rounds); r++) for (const k of r % 2 ? ['B', 'A'] : ['A', 'B']) {
  child.stdin.write('mark\n'); await new Promise((r) => setTimeout(r, 5));
  const c0 = process.cpuUsage(); await runs[k](Number(batch)); const c = process.cpuUsage(c0); cpu[k].push((c.user + c.system) / batch);
  srv[k].push((await serverCpu()) / batch);
}
const med = (xs) => { const s = [...xs].sort((x, y) => x - y); return s[s.length >> 1]; };
const ratios = cpu.A.map((x, i) => cpu.B[i] / x);
const q = (xs, p) => [...xs].sort((x, y) => x - y)[Math.floor(p * (xs.length - 1))];
const sr = srv.A.map((x, i) => srv.B[i] / x);
console.log('server', JSON.stringify({ A: +med(srv.A).toFixed(1), B: +med(srv.B).toFixed(1), ratio: +med(sr).toFixed(3), p25: +q(sr, 0.25).toFixed(3), p75: +q(sr, 0.75).toFixed(3) }));
console.log(JSON.stringify({ era, clients, perClient, A: +med(cpu.A).toFixed(1), B: +med(cpu.B).toFixed(1), ratio: +med(ratios).toFixed(3), p25: +q(ratios, 0.25).toFixed(3), p75: +q(ratios, 0.75).toFixed(3) }));
child.stdin.end(); process.exit(0);
