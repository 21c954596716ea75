// Type-check cost of the typed client (issue 36): writes a project with N typed tools (default
// 200) twice — `plain`: `registerTool` and `client.callTool({ name, arguments })`; `typed`: the
// same tools made with `defineTool`, registered with `withTools({ … })` and called through
// `typedClient<typeof server>`, every argument and structured result checked — and runs
// `tsc --noEmit --extendedDiagnostics` on each, interleaved, reporting the median wall time,
// check time, memory and type instantiations. Against the packages' `dist` types when built
// (`pnpm build`), their sources otherwise (both variants then also check the SDK's sources).
//
//     node typecheck-cost.mjs [--tools 200] [--reps 3] [--json results/typecheck.json]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index === -1 ? fallback : args[index + 1];
};
const TOOLS = Number(option('--tools', '200'));
const REPS = Number(option('--reps', '3'));
const JSON_OUT = option('--json', undefined);
/** `baseline`: the SDK imported and nothing else (the fixed cost both others pay). */
const KINDS = ['baseline', 'plain', 'typed'];
const built = existsSync(join(root, 'packages/server/dist/index.d.ts')) && existsSync(join(root, 'packages/client/dist/index.d.ts'));

/** The zod schemas of tool `i`: a few shapes, so the project is not 200 copies of one type. */
function schemas(i) {
  const input = `{ id: z.string(), count${i}: z.number().int(), tags: z.array(z.string()).optional(), mode: z.enum(['a${i}', 'b${i}']) }`;
  const output = `{ ok: z.boolean(), total${i}: z.number(), items: z.array(z.object({ name: z.string(), score: z.number().nullable() })) }`;
  return { input, output };
}

function project(kind) {
  if (kind === 'baseline') return { server: "import { McpServer } from '@statemcp/server';\nexport const server = new McpServer({ name: 'bench', version: '1.0.0' });\n", client: "import type { Client } from '@statemcp/client';\nexport type Bench = Client;\n" };
  const lines = ["import { McpServer } from '@statemcp/server';", "import { z } from 'zod';", ''];
  if (kind === 'plain') {
    lines.push("export const server = new McpServer({ name: 'bench', version: '1.0.0' });");
    for (let i = 0; i < TOOLS; i += 1) {
      const { input, output } = schemas(i);
      lines.push(`server.registerTool('tool_${i}', { inputSchema: ${input}, outputSchema: ${output} }, ({ id, count${i} }) => ({ content: [{ type: 'text', text: id }], structuredContent: { ok: true, total${i}: count${i}, items: [] } }));`);
    }
  } else {
    lines[0] = "import { McpServer, defineTool } from '@statemcp/server';";
    for (let i = 0; i < TOOLS; i += 1) {
      const { input, output } = schemas(i);
      lines.push(`const tool_${i} = defineTool({ inputSchema: ${input}, outputSchema: ${output} }, ({ count${i} }) => ({ ok: true, total${i}: count${i}, items: [] }));`);
    }
    lines.push(`export const server = new McpServer({ name: 'bench', version: '1.0.0' }).withTools({ ${Array.from({ length: TOOLS }, (_, i) => `tool_${i}`).join(', ')} });`, 'export type BenchServer = typeof server;');
  }
  const client = ["import { Client" + (kind === 'typed' ? ', typedClient' : '') + " } from '@statemcp/client';"];
  if (kind === 'typed') client.push("import type { BenchServer } from './server.js';");
  client.push('', 'export async function callAll(client: Client): Promise<number> {', '  let sum = 0;');
  if (kind === 'typed') client.push('  const typed = typedClient<BenchServer>(client);');
  for (let i = 0; i < TOOLS; i += 1) {
    if (kind === 'typed') {
      client.push(`  const r${i} = await typed.tools.tool_${i}({ id: 'x', count${i}: ${i}, mode: 'a${i}' });`, `  if (!r${i}.isError) sum += r${i}.structuredContent.total${i};`);
    } else {
      client.push(`  const r${i} = await client.callTool({ name: 'tool_${i}', arguments: { id: 'x', count${i}: ${i}, mode: 'a${i}' } });`, `  if (!r${i}.isError) sum += Number((r${i}.structuredContent as { total${i}?: number } | undefined)?.total${i} ?? 0);`);
    }
  }
  client.push('  return sum;', '}');
  return { server: lines.join('\n') + '\n', client: client.join('\n') + '\n' };
}

function tsconfig() {
  return JSON.stringify({
    extends: '@statemcp/tsconfig/base.json',
    compilerOptions: { noEmit: true, ...(built ? { customConditions: [] } : {}) },
    include: ['*.ts'],
  });
}

const scratch = mkdtempSync(join(here, '.typecheck-cost-'));
const tsc = join(here, 'node_modules/typescript/bin/tsc');
try {
  const dirs = {};
  for (const kind of KINDS) {
    const dir = join(scratch, kind);
    mkdirSync(dir);
    const files = project(kind);
    writeFileSync(join(dir, 'server.ts'), files.server);
    writeFileSync(join(dir, 'client.ts'), files.client);
    writeFileSync(join(dir, 'tsconfig.json'), tsconfig());
    dirs[kind] = dir;
  }
  const samples = Object.fromEntries(KINDS.map((kind) => [kind, []]));
  for (let rep = 0; rep < REPS; rep += 1) {
    for (const kind of KINDS) {
      const started = performance.now();
      const output = execFileSync(process.execPath, [tsc, '-p', dirs[kind], '--extendedDiagnostics'], { encoding: 'utf8' });
      const wallMs = performance.now() - started;
      const read = (label) => Number(new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(output)?.[1]);
      samples[kind].push({ wallMs, checkS: read('Check time'), memoryK: read('Memory used'), instantiations: read('Instantiations') });
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const summary = Object.fromEntries(
    Object.entries(samples).map(([kind, runs]) => [
      kind,
      { wallMs: median(runs.map((r) => r.wallMs)), checkS: median(runs.map((r) => r.checkS)), memoryMB: median(runs.map((r) => r.memoryK)) / 1024, instantiations: median(runs.map((r) => r.instantiations)) },
    ]),
  );
  console.log(`typecheck cost: ${TOOLS} tools, ${REPS} reps, against ${built ? 'dist types' : 'package sources'}`);
  console.log('| project | tsc wall (median) | check time | memory | instantiations |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [kind, s] of Object.entries(summary)) console.log(`| ${kind} | ${(s.wallMs / 1000).toFixed(2)} s | ${s.checkS.toFixed(2)} s | ${s.memoryMB.toFixed(0)} MB | ${s.instantiations} |`);
  console.log(`typed / plain: wall ×${(summary.typed.wallMs / summary.plain.wallMs).toFixed(2)}, check ×${(summary.typed.checkS / summary.plain.checkS).toFixed(2)}`);
  if (JSON_OUT !== undefined) mkdirSync(dirname(JSON_OUT), { recursive: true });
  if (JSON_OUT !== undefined) writeFileSync(JSON_OUT, JSON.stringify({ tools: TOOLS, reps: REPS, built, summary, samples }, null, 2));
} finally {
  if (process.env.KEEP_TYPECHECK_PROJECT !== '1') rmSync(scratch, { recursive: true, force: true });
}
