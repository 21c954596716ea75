#!/usr/bin/env node
// The cold-start cost of a statemcp server on AWS Lambda, as a deployment would pay it: the
// handler bundled into one minified ESM file (esbuild, statemcp from its sources), then, in a
// fresh Node process per run, the time to import the bundle (module evaluation: McpServer,
// the Streamable HTTP server, the Lambda door), the first invocation (an `initialize` event of
// payload 2.0) and a warm one (`tools/list`). Node's own boot is outside every figure.
//
//   node tooling/bench/lambda-cold-start.mjs [--runs N]     (default 7; prints medians)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const runs = Number(values.runs);
const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'statemcp-lambda-cold-'));
const DOMAIN = 'abc123.lambda-url.us-east-1.on.aws';

const entry = `
import { McpServer } from '@statemcp/server';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { createLambdaHandler } from '@statemcp/http-transport/lambda';
const server = new McpServer({ name: 'cold-start', version: '1.0.0' });
server.registerTool('hello', { description: 'Greets' }, async () => ({ content: [{ type: 'text', text: 'hello' }] }));
const mcp = createStreamableHttpServer({ stateless: true, enableJsonResponse: true, allowedHosts: ['${DOMAIN}'], connect: (t) => server.connect(t) });
export const handler = createLambdaHandler(mcp);
`;
const bundle = join(dir, 'handler.mjs');
await build({
  stdin: { contents: entry, resolveDir: here, loader: 'ts' },
  outfile: bundle,
  bundle: true,
  minify: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@statemcp/source'],
  logLevel: 'warning',
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

const event = (id, method, params) => ({
  version: '2.0',
  routeKey: '$default',
  rawPath: '/mcp',
  rawQueryString: '',
  headers: { host: DOMAIN, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
  requestContext: { domainName: DOMAIN, http: { method: 'POST', path: '/mcp', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'bench' } },
  body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }),
  isBase64Encoded: false,
});
const init = event(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
const list = event(2, 'tools/list');
const driver = join(dir, 'driver.mjs');
writeFileSync(
  driver,
  `const t0 = performance.now();
const { handler } = await import(${JSON.stringify(bundle)});
const t1 = performance.now();
const first = await handler(${JSON.stringify(init)});
const t2 = performance.now();
const warm = await handler(${JSON.stringify(list)});
const t3 = performance.now();
if (first.statusCode !== 200 || warm.statusCode !== 200) throw new Error('unexpected answer: ' + JSON.stringify([first, warm]));
console.log(JSON.stringify({ importMs: t1 - t0, firstInvokeMs: t2 - t1, warmInvokeMs: t3 - t2 }));
`,
);

const samples = [];
for (let run = 0; run < runs; run += 1) {
  const child = spawnSync(process.execPath, [driver], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`run ${run} failed: ${child.stderr}`);
  samples.push(JSON.parse(child.stdout));
}
const median = (key) => {
  const sorted = samples.map((sample) => sample[key]).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const kib = Math.round(statSync(bundle).size / 1024);
console.log(`Lambda cold start, ${runs} fresh processes, Node ${process.version}, bundle ${kib} KiB (minified ESM):`);
console.log(`  import the handler      ${median('importMs').toFixed(1)} ms (median)`);
console.log(`  first invocation        ${median('firstInvokeMs').toFixed(1)} ms (initialize)`);
console.log(`  import + first          ${(median('importMs') + median('firstInvokeMs')).toFixed(1)} ms`);
console.log(`  warm invocation         ${median('warmInvokeMs').toFixed(2)} ms (tools/list)`);
rmSync(dir, { recursive: true, force: true });
