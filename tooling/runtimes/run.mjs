// The runtimes check (issue 21 item 10): statemcp off Node.
//   1. builds the packages (`dist`; turbo's cache makes this cheap after pack-check);
//   2. bundles every entry point of protocol, client, server and http-transport (`./client`,
//      `./server`) for the browser and fails on any Node built-in reached at module load;
//   3. under Bun and Deno (the npm packages `bun` and `deno`): serves a Streamable HTTP server's
//      `handleFetch` with an McpServer on the runtime's own HTTP server (127.0.0.1) and runs a
//      statemcp client against it over the socket: initialize, tools/list, tools/call;
//   4. under Cloudflare's workerd (miniflare) with no compatibility flag (so no nodejs_compat):
//      the worker bundle must reach no Node built-in; the same round trip runs with the client
//      inside the worker and with a Node client over a real socket;
//   5. under Bun and Deno: a `StdioServerTransport` server whose stdin ends runs its close
//      callback's work to the end before it exits (the exit must not trust a runtime's empty
//      list of active resources).
// Usage: node tooling/runtimes/run.mjs [--no-build] (or `pnpm run runtimes-check`).
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { bundleWithoutNodeBuiltins } from '../scripts/node-builtins.mjs';
import { roundTrip } from './fixtures/app.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '../..');
const require = createRequire(import.meta.url);
const STEP_TIMEOUT_MS = 90_000;
const failures = [];
const started = Date.now();

/** Runs `step`, recording a failure instead of stopping the other checks. */
async function check(label, step) {
  console.log(`== ${label}`);
  try {
    await step();
  } catch (error) {
    console.error(`  FAILED: ${error instanceof Error ? error.message : String(error)}`);
    failures.push(label);
  }
}

/**
 * Runs a command to completion (killed after {@link STEP_TIMEOUT_MS}); resolves with its exit
 * code or signal and everything it printed.
 */
function runCollecting(command, args, { env = {}, cwd = here } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Runs a command to completion; resolves with stdout, rejects on a non-zero exit or a timeout. */
async function runCommand(command, args, env = {}) {
  const { code, signal, stdout, stderr } = await runCollecting(command, args, { env });
  if (code !== 0) throw new Error(`${command} exited with ${signal ?? code}\n${stdout}${stderr}`);
  return stdout;
}

/** The round trip a runtime printed as its last line of output. */
function printedRoundTrip(stdout) {
  const line = stdout.trim().split('\n').at(-1) ?? '';
  const seen = JSON.parse(line);
  if (seen.sum !== 42 || seen.tools?.join() !== 'add') throw new Error(`unexpected round trip: ${line}`);
  return line;
}

/**
 * The Bun executable: the platform package the `bun` npm package installs, so it runs even when
 * the package manager skipped bun's postinstall (pnpm does by default); else the `bun` bin.
 */
function bunExecutable() {
  const arch = process.arch === 'arm64' ? 'aarch64' : process.arch;
  try {
    const fromBun = createRequire(require.resolve('bun/package.json'));
    const binary = join(dirname(fromBun.resolve(`@oven/bun-${process.platform}-${arch}/package.json`)), 'bin', 'bun');
    return binary;
  } catch {
    return join(here, 'node_modules', '.bin', 'bun');
  }
}

if (!process.argv.includes('--no-build')) {
  console.log('== build');
  execFileSync('npx', ['-y', 'pnpm@10.34.8', 'exec', 'turbo', 'run', 'build', ...['protocol', 'client', 'server', 'http-transport', 'stdio-transport'].map((name) => `--filter=@statemcp/${name}`)], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const ENTRIES = ['@statemcp/protocol', '@statemcp/client', '@statemcp/client/auth', '@statemcp/server', '@statemcp/http-transport/client', '@statemcp/http-transport/server', '@statemcp/http-transport/next', '@statemcp/http-transport/cloudflare'];
for (const entry of ENTRIES) {
  await check(`${entry}: no Node built-in at module load (browser bundle)`, async () => {
    const { reached } = await bundleWithoutNodeBuiltins({ absWorkingDir: here, entry: { contents: `export * from '${entry}';` } });
    if (reached.length > 0) throw new Error(`reaches Node built-ins:\n    ${reached.join('\n    ')}`);
    console.log('  none reached');
  });
}

await check('Bun: handleFetch on Bun.serve, statemcp client over 127.0.0.1', async () => {
  const binary = bunExecutable();
  const version = (await runCommand(binary, ['--version'])).trim();
  console.log(`  bun ${version}: ${printedRoundTrip(await runCommand(binary, ['fixtures/serve.mjs']))}`);
});

await check('Deno: handleFetch on Deno.serve, statemcp client over 127.0.0.1', async () => {
  const deno = join(here, 'node_modules', '.bin', 'deno');
  const env = { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
  const version = (await runCommand(deno, ['--version'], env)).split('\n')[0];
  const stdout = await runCommand(deno, ['run', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', 'fixtures/serve.mjs'], env);
  console.log(`  ${version}: ${printedRoundTrip(stdout)}`);
});

await check('workerd (miniflare, no nodejs_compat): handleFetch as the worker, clients inside and outside', async () => {
  const { text: script, reached } = await bundleWithoutNodeBuiltins({ absWorkingDir: here, entry: 'fixtures/worker.mjs', conditions: ['workerd', 'worker', 'browser'] });
  if (reached.length > 0) throw new Error(`the worker bundle reaches Node built-ins:\n    ${reached.join('\n    ')}`);
  const miniflare = new Miniflare({ modules: true, script, compatibilityDate: '2025-09-01', compatibilityFlags: [], host: '127.0.0.1', port: 0 });
  try {
    const base = await miniflare.ready;
    for (const path of ['/mcp', '/stateless/mcp']) {
      const inside = await miniflare.dispatchFetch(new URL(`/round-trip?path=${path}`, base));
      const body = await inside.text();
      if (inside.status !== 200) throw new Error(`the in-worker round trip to ${path} answered ${inside.status}: ${body}`);
      console.log(`  ${path}, client in the worker: ${printedRoundTrip(body)}`);
      console.log(`  ${path}, Node client over ${base.host}: ${JSON.stringify(await roundTrip(new URL(path, base)))}`);
    }
  } finally {
    await miniflare.dispose();
  }
});

/**
 * Runs stdio-transport's fixture server under `command` with stdin at end of file; its stderr
 * must show the close callback's 30 ms of work done before `process.exit()`.
 */
async function stdioCloseWork(command, args, env = {}) {
  const cwd = join(root, 'packages/stdio-transport');
  const { code, signal, stderr } = await runCollecting(command, [...args, 'test/fixtures/stdio-server-app.mjs', '--idle', '--close-work'], { env, cwd });
  const done = stderr.indexOf('close work done');
  if (code !== 0 || done === -1 || done > stderr.indexOf('process.exit')) throw new Error(`exited with ${signal ?? code}, close work not done first:\n${stderr}`);
  return 'close work done, then exit 0';
}

await check('Bun and Deno: a stdio server finishes its close work before it exits', async () => {
  console.log(`  bun: ${await stdioCloseWork(bunExecutable(), [])}`);
  const deno = join(here, 'node_modules', '.bin', 'deno');
  console.log(`  deno: ${await stdioCloseWork(deno, ['run', '--allow-read', '--allow-env'], { DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' })}`);
});

console.log(`== runtimes check took ${((Date.now() - started) / 1000).toFixed(1)}s`);
if (failures.length > 0) {
  console.error(`runtimes check failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('runtimes check: no Node built-in at module load; Bun, Deno and workerd run the round trip; Bun and Deno end a stdio server after its close work');
