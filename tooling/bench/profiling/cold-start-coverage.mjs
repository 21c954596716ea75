// What a stdio server loads of statemcp and what of it runs by its `initialize` answer: the server is
// spawned with V8 coverage on (NODE_V8_COVERAGE), answers `initialize`, gets
// `notifications/initialized`, and exits when stdin ends. For every source module bundled into a
// package's `dist` (found by esbuild's `// src/…` markers), the bytes loaded and the bytes inside
// functions or blocks that ran (top-level code included). Code that never ran was only pre-parsed.
//   node cold-start-coverage.mjs [server.mjs] [N]     (default server-dist.mjs, top 40 modules)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [file = 'server-dist.mjs', top = '40'] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'cold-start-coverage-'));
const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
await new Promise((resolve) => {
  const child = spawn(process.execPath, [file], { cwd: import.meta.dirname, stdio: ['pipe', 'pipe', 'inherit'], env: { PATH: process.env.PATH, NODE_V8_COVERAGE: dir } });
  child.stdout.once('data', () => child.stdin.end('{"jsonrpc":"2.0","method":"notifications/initialized"}\n'));
  child.on('close', resolve);
  child.stdin.write(`${JSON.stringify(initialize)}\n`);
});

const rows = [];
for (const name of readdirSync(dir)) {
  for (const script of JSON.parse(readFileSync(join(dir, name), 'utf8')).result) {
    if (!/\/(packages|@statemcp)\/[^/]+\/dist\//.test(script.url) || script.url.includes('/node_modules/.pnpm/')) continue;
    const text = readFileSync(fileURLToPath(script.url), 'utf8');
    const ran = new Uint8Array(text.length);
    // Nested ranges follow their function's: outer first, so inner blocks that never ran override.
    const ranges = script.functions.flatMap((fn) => fn.ranges);
    ranges.sort((a, b) => a.startOffset - b.startOffset || b.endOffset - b.startOffset - (a.endOffset - a.startOffset));
    for (const range of ranges) ran.fill(range.count > 0 ? 1 : 0, range.startOffset, range.endOffset);
    const marks = [...text.matchAll(/^\/\/ (src\/\S+)$/gm)].map((match) => ({ module: match[1], at: match.index }));
    if (marks.length === 0) marks.push({ module: '(whole file)', at: 0 });
    const pkg = script.url.replace(/^.*\/(?:packages|@statemcp)\/([^/]+)\/dist\/.*$/, '$1');
    marks.forEach((mark, i) => {
      const end = marks[i + 1]?.at ?? text.length;
      rows.push({ module: `${pkg}/${mark.module}`, bytes: end - mark.at, ran: ran.subarray(mark.at, end).reduce((sum, bit) => sum + bit, 0) });
    });
  }
}
rmSync(dir, { recursive: true, force: true });
const total = (list, key) => list.reduce((sum, row) => sum + row[key], 0);
console.log(`loaded ${total(rows, 'bytes')} B of statemcp, ${total(rows, 'ran')} B of it in code that ran; modules by bytes never run:`);
rows.sort((a, b) => b.bytes - b.ran - (a.bytes - a.ran));
for (const row of rows.slice(0, Number(top))) console.log(`${String(row.bytes - row.ran).padStart(8)} B not run of ${String(row.bytes).padStart(7)}  ${row.module}`);
