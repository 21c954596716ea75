// The size of a browser app's MCP client: statemcp's `Client` over the Streamable HTTP client
// transport against the official SDK's v2 and v1 clients over theirs, each bundled by esbuild for
// the browser (ESM, minified, tree-shaken), measured minified and gzipped, with the inputs that
// weigh most (issue 39: a browser bundle no larger than the official v2 client's).
//
// statemcp is bundled from its sources (the `@statemcp/source` condition), so no build is needed;
// the official packages come from tooling/bench's devDependencies.
//
// Usage: node tooling/scripts/bundle-size.mjs [--top N] [--check] [--json FILE]
//   --check   fails (exit 1) when statemcp's gzip size passes the budget in bundle-size-budget.json;
//             lower the budget there when the bundle shrinks.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const budgetFile = join(here, 'bundle-size-budget.json');

const { values } = parseArgs({
  options: {
    top: { type: 'string', default: '12' },
    check: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});

const entries = [
  {
    name: 'statemcp',
    source: `import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
export async function connect(url) {
  const client = new Client({ name: 'browser-client', version: '1.0.0' });
  await client.connect(new StreamableHttpClientTransport(new URL(url)));
  return client;
}`,
  },
  {
    name: 'official v2',
    source: `import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
export async function connect(url) {
  const client = new Client({ name: 'browser-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}`,
  },
  {
    name: 'official v1',
    source: `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export async function connect(url) {
  const client = new Client({ name: 'browser-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}`,
  },
];

/** Bundles one entry for the browser; returns its minified and gzipped sizes and its heaviest inputs. */
async function measure({ name, source }) {
  const result = await build({
    stdin: { contents: source, resolveDir: join(root, 'tooling', 'bench'), loader: 'js', sourcefile: `${name}.mjs` },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    treeShaking: true,
    metafile: true,
    conditions: ['@statemcp/source'],
    logLevel: 'error',
  });
  const code = result.outputFiles[0].contents;
  const output = Object.values(result.metafile.outputs)[0];
  const inputs = Object.entries(output.inputs)
    .map(([path, { bytesInOutput }]) => ({ path: path.replace(/^.*node_modules\/(?!\.pnpm)/, '').replace(/^(\.\.\/)+/, ''), bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  return { name, min: code.length, gzip: gzipSync(code, { level: 9 }).length, inputs };
}

/** Sums the inputs by package (or by package directory for the workspace's own sources). */
function byPackage(inputs) {
  const sums = new Map();
  for (const { path, bytes } of inputs) {
    const match = /(@[^/]+\/[^/]+|[^/@][^/]*)\/(?:v4\/(mini|classic|core|locales)|src\/([^/]+))?/.exec(
      path.replace(/^.*node_modules\//, '').replace(/^packages\//, '@statemcp/'),
    );
    const key = match ? [match[1], match[2] ?? match[3]].filter(Boolean).join(' ') : path;
    sums.set(key, (sums.get(key) ?? 0) + bytes);
  }
  return [...sums.entries()].sort((a, b) => b[1] - a[1]);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const results = [];
for (const entry of entries) results.push(await measure(entry));

const top = Number(values.top);
const [ours] = results;
console.log('| client over Streamable HTTP | minified | gzip | vs statemcp (gzip) |');
console.log('|---|---:|---:|---:|');
for (const { name, min, gzip } of results) {
  console.log(`| ${name} | ${kb(min)} | ${kb(gzip)} | ${(gzip / ours.gzip).toFixed(2)}× |`);
}
console.log(`\nstatemcp, heaviest parts (minified bytes in the output):`);
for (const [key, bytes] of byPackage(ours.inputs).slice(0, top)) console.log(`  ${kb(bytes).padStart(9)}  ${key}`);
console.log(`\nstatemcp, heaviest files:`);
for (const { path, bytes } of ours.inputs.slice(0, top)) console.log(`  ${kb(bytes).padStart(9)}  ${path}`);

if (values.json) {
  writeFileSync(values.json, `${JSON.stringify(results.map(({ name, min, gzip }) => ({ name, min, gzip })), null, 2)}\n`);
}

if (values.check) {
  const budget = JSON.parse(readFileSync(budgetFile, 'utf8'));
  if (ours.gzip > budget.gzipBytes || ours.min > budget.minifiedBytes) {
    console.error(
      `\nbundle-size: statemcp's browser client is ${ours.min} B minified / ${ours.gzip} B gzip, past the budget of ` +
        `${budget.minifiedBytes} B / ${budget.gzipBytes} B (tooling/scripts/bundle-size-budget.json). ` +
        'Find the new weight in the lists above; raise the budget only for a reason written in the commit.',
    );
    process.exit(1);
  }
  console.log(`\nbundle-size: within the budget (${budget.minifiedBytes} B minified / ${budget.gzipBytes} B gzip)`);
}
