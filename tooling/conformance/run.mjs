#!/usr/bin/env node
// Runs the official MCP conformance suite against statemcp's example apps:
//
//   server leg  apps/everything-server over Streamable HTTP on 127.0.0.1 (a child process)
//   client leg  apps/everything-client, started by the suite once per client scenario
//
// both with `--suite all` and the committed baseline expected-failures.yaml, so a leg fails on
// any regression and on any baseline entry that now passes. Each leg runs twice: with the suite's
// default spec version, then with `--spec-version 2026-07-28` (the stateless era; the suite then
// runs every scenario that applies to that revision). A pass reads its own baseline when one exists
// (expected-failures-<version>.yaml), else the shared one — the CLI ignores entries for scenarios a
// pass does not run, so one file serves both while no scenario fails in one pass and passes in the other. The suite needs Node >= 22, which
// `npx -p node@22` fetches from the npm registry for that one command; the apps themselves run
// on this process's Node, each bundled first by esbuild from its TypeScript source (the suite
// starts ~50 client processes at once, and one plain JavaScript file starts fast and steadily).
//
//   node tooling/conformance/run.mjs [--leg server|client|both] [--server-suite all|active|…]
//                                    [--client-suite all|core|…] [--spec-version default|2026-07-28|both]
//                                    [--no-baseline] [--verbose] [--through-gateway]
//                                    [--server-door node|lambda|durable-object]
//
// `--server-door lambda` serves the server leg through `@statemcp/http-transport/lambda`'s
// streaming handler behind a local Function URL emulator (`everything-server --lambda`): every
// HTTP request of the suite becomes a Lambda event. `--server-door durable-object` serves it from
// Cloudflare's workerd (miniflare, Durable Objects on, no `nodejs_compat`): the everything server
// as a Worker (apps/everything-server/src/worker.ts, `@statemcp/http-transport/cloudflare`), whose
// front routes each request to the Durable Object of its session or to the shard object.
//
// Exit status 0 when every leg passed its baseline check. Reports land in
// .conformance-results/<timestamp>/{server,client}[-<version>]/ (checks.json per scenario, the CLI's log).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const baseline = join(here, 'expected-failures.yaml');
/** The spec versions each leg runs with: the suite's default (`undefined`), then the stateless era. */
export const SPEC_VERSIONS = [undefined, '2026-07-28'];
const APPS = {
  server: join(root, 'apps', 'everything-server', 'src', 'main.ts'),
  client: join(root, 'apps', 'everything-client', 'src', 'main.ts'),
};

const { values: options } = parseArgs({
  options: {
    leg: { type: 'string', default: 'both' },
    'server-suite': { type: 'string', default: 'all' },
    'client-suite': { type: 'string', default: 'all' },
    'spec-version': { type: 'string', default: 'both' },
    'no-baseline': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    'through-gateway': { type: 'boolean', default: false },
    'server-door': { type: 'string', default: 'node' },
  },
});
// --through-gateway: the server leg against the everything server mounted behind a composition gateway.
if (options['through-gateway']) APPS.server = join(root, 'apps', 'everything-server', 'src', 'gateway-main.ts');
const DOORS = ['node', 'lambda', 'durable-object'];
if (!DOORS.includes(options['server-door'])) {
  console.error(`--server-door must be ${DOORS.join(', ')} (got ${options['server-door']})`);
  process.exit(2);
}
if (!['server', 'client', 'both'].includes(options.leg)) {
  console.error(`--leg must be server, client or both (got ${options.leg})`);
  process.exit(2);
}
if (!['default', 'both', ...SPEC_VERSIONS.filter(Boolean)].includes(options['spec-version'])) {
  console.error(`--spec-version must be default, ${SPEC_VERSIONS.filter(Boolean).join(', ')} or both (got ${options['spec-version']})`);
  process.exit(2);
}

/** The baseline of a pass: `expected-failures-<version>.yaml` when it exists, else the shared file. */
export function baselineFor(version) {
  const own = version === undefined ? undefined : join(here, `expected-failures-${version}.yaml`);
  return own !== undefined && existsSync(own) ? own : baseline;
}

/** The CLI arguments, report folder suffix and label of a pass. */
function pass(version) {
  return version === undefined
    ? { args: [], suffix: '', label: 'default spec version' }
    : { args: ['--spec-version', version], suffix: `-${version}`, label: `--spec-version ${version}` };
}

/** Runs `npx -p node@22 -p <suite> conformance …args`, teeing its output to `logFile`. */
function conformance(args, logFile) {
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const fullArgs = ['-y', '-p', 'node@22', '-p', CONFORMANCE_PACKAGE, 'conformance', ...args];
  return new Promise((resolveRun, reject) => {
    const child = spawn(npx, fullArgs, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_loglevel: 'error' },
    });
    let output = '';
    const collect = (chunk) => {
      output += chunk.toString();
      if (options.verbose) process.stdout.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      writeFileSync(logFile, output);
      resolveRun({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

/**
 * Bundles both apps into `dir` (statemcp from its sources through the `@statemcp/source`
 * condition, like the tests); resolves with the paths of the two scripts.
 */
async function bundleApps(dir) {
  const { build } = await import('esbuild');
  const outfiles = { server: join(dir, 'everything-server.mjs'), client: join(dir, 'everything-client.mjs') };
  await Promise.all(
    Object.entries(APPS).map(([app, entry]) =>
      build({
        entryPoints: [entry],
        outfile: outfiles[app],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        conditions: ['@statemcp/source'],
        sourcemap: 'linked',
        logLevel: 'warning',
        // CommonJS dependencies bundled into ESM need a real `require`.
        banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      }),
    ),
  );
  return outfiles;
}

/** Starts the everything server on a free loopback port; resolves with its URL and a stop function. */
function startServer(script) {
  return new Promise((resolveStart, reject) => {
    const door = options['server-door'] === 'lambda' ? ['--lambda'] : [];
    const child = spawn(process.execPath, [script, '--http', '--port', '0', ...door], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`everything-server did not print its URL within 60 s\n${stderr}`));
    }, 60_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk.toString();
    });
    child.stdout.on('data', (chunk) => {
      stdout += chunk.toString();
      const match = /listening on (\S+)/.exec(stdout);
      if (match === null) return;
      clearTimeout(timer);
      const exited = new Promise((done) => child.once('exit', done));
      resolveStart({
        url: match[1],
        stderr: () => stderr,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const timeout = new Promise((done) => setTimeout(done, 5000, 'timeout'));
          if ((await Promise.race([exited, timeout])) === 'timeout') child.kill('SIGKILL');
        },
      });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`everything-server exited early (code ${code})\n${stderr}`));
    });
  });
}

/**
 * `--server-door durable-object`: bundles the everything server's Worker for workerd (from source,
 * no Node built-in) and runs it under miniflare on a free loopback port; resolves like `startServer`.
 */
async function startDurableObjectWorker() {
  const [{ build }, { Miniflare }] = await Promise.all([import('esbuild'), import('miniflare')]);
  const bundle = await build({
    entryPoints: [join(root, 'apps', 'everything-server', 'src', 'worker.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['@statemcp/source', 'workerd', 'worker', 'browser', 'import', 'default'],
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  let output = '';
  const miniflare = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0].text,
    compatibilityDate: '2025-09-01',
    compatibilityFlags: [],
    durableObjects: { MCP_OBJECT: 'EverythingObject' },
    host: '127.0.0.1',
    port: 0,
    // workerd logs every client that leaves an SSE stream ("Broken pipe"); keep its output for
    // failures (the last 64 KiB) and show it only with --verbose.
    handleRuntimeStdio: (stdout, stderr) => {
      for (const stream of [stdout, stderr]) {
        stream.on('data', (chunk) => {
          if (options.verbose) process.stderr.write(chunk);
          output = (output + chunk.toString()).slice(-65_536);
        });
      }
    },
  });
  const base = await miniflare.ready;
  return { url: new URL('/mcp', base).href, stderr: () => output, stop: () => miniflare.dispose() };
}

const TIMESTAMP_SUFFIX = /-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

/**
 * Reads the suite's report folders under `dir` (one per scenario, named `<scenario>-<timestamp>`;
 * `auth/x` nests as `auth/x-<timestamp>`): per scenario, whether it passed and its check counts.
 * A folder without checks.json is a scenario the suite could not run, counted as one failure.
 */
export function readResults(dir) {
  const scenarios = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(current, entry.name);
      if (!TIMESTAMP_SUFFIX.test(entry.name)) {
        walk(path);
        continue;
      }
      const name = relative(dir, path).replace(/\\/g, '/').replace(/^server-/, '').replace(TIMESTAMP_SUFFIX, '');
      const file = join(path, 'checks.json');
      const checks = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [{ status: 'FAILURE' }];
      const count = (status) => checks.filter((check) => check.status === status).length;
      const counts = { passed: count('SUCCESS'), failed: count('FAILURE'), warnings: count('WARNING'), skipped: count('SKIPPED') };
      scenarios.push({ name, ...counts, ok: counts.failed === 0 && counts.warnings === 0 });
    }
  };
  if (existsSync(dir)) walk(dir);
  return scenarios.sort((a, b) => a.name.localeCompare(b.name));
}

/** Scenario names of one leg of the baseline (a YAML map of two string lists; parsed by hand to stay dependency-free). */
export function readBaseline(text) {
  const legs = { server: [], client: [] };
  let leg;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trimEnd();
    if (line.trim() === '') continue;
    const key = /^(\w+):\s*$/.exec(line);
    if (key !== null) {
      leg = key[1];
      continue;
    }
    const item = /^\s+-\s+(\S+)\s*$/.exec(line);
    if (item !== null && (leg === 'server' || leg === 'client')) legs[leg].push(item[1]);
  }
  return legs;
}

function sum(scenarios, field) {
  return scenarios.reduce((total, scenario) => total + scenario[field], 0);
}

function summarize(leg, scenarios, expected, code, output) {
  const failed = scenarios.filter((scenario) => !scenario.ok);
  const failedExpected = failed.filter((scenario) => expected.includes(scenario.name));
  console.log(
    `${leg} leg: ${scenarios.length} scenarios, ${scenarios.length - failed.length} passed, ${failed.length} failed` +
      ` (${failedExpected.length} in the baseline) — checks: ${sum(scenarios, 'passed')} passed, ${sum(scenarios, 'failed')} failed,` +
      ` ${sum(scenarios, 'warnings')} warnings, ${sum(scenarios, 'skipped')} skipped`,
  );
  const regressions = failed.filter((scenario) => !expected.includes(scenario.name));
  for (const scenario of regressions) {
    console.log(`  ✗ ${scenario.name}: ${scenario.failed} failed, ${scenario.warnings} warnings (not in the baseline)`);
  }
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const baselineReport = plain.split('\n').filter((line) => /Stale baseline|Unexpected failures|Baseline check|^\s+[✓✗] /.test(line) && !/: \d+ passed, \d+ failed/.test(line));
  for (const line of baselineReport) console.log(`  ${line.trim()}`);
  if (code !== 0 && scenarios.length === 0) {
    // Nothing ran (no network for npx, a crash before the first scenario): show why.
    for (const line of plain.trimEnd().split('\n').slice(-20)) console.log(`  | ${line}`);
  }
  console.log(`  ${leg} leg ${code === 0 ? 'PASSED' : `FAILED (conformance exit status ${code})`}`);
}

async function runServerLeg(outDir, version, script) {
  const { args: versionArgs, suffix, label } = pass(version);
  const expected = readBaseline(readFileSync(baselineFor(version), 'utf8')).server;
  const door = options['server-door'];
  const server = door === 'durable-object' ? await startDurableObjectWorker() : await startServer(script);
  const via = door === 'lambda' ? ' through the local Lambda Function URL' : door === 'durable-object' ? ' as a Worker with Durable Objects under miniflare' : '';
  console.log(`server leg (${label}): everything-server at ${server.url}${via}, --suite ${options['server-suite']}`);
  try {
    const args = ['server', '--url', server.url, '--suite', options['server-suite'], ...versionArgs, '-o', join(outDir, `server${suffix}`)];
    if (!options['no-baseline']) args.push('--expected-failures', baselineFor(version));
    const { code, output } = await conformance(args, join(outDir, `server${suffix}.log`));
    summarize(`server${suffix}`, readResults(join(outDir, `server${suffix}`)), expected, code, output);
    return code;
  } finally {
    await server.stop();
  }
}

async function runClientLeg(outDir, version, script) {
  const { args: versionArgs, suffix, label } = pass(version);
  const expected = readBaseline(readFileSync(baselineFor(version), 'utf8')).client;
  const command = `${process.execPath} ${script}`;
  if (/\s/.test(process.execPath) || /\s/.test(script)) {
    throw new Error('the client command is split on spaces by the suite; move the checkout (or node) to a path without spaces');
  }
  console.log(`client leg (${label}): ${relative(root, APPS.client)} (bundled), --suite ${options['client-suite']}`);
  const args = ['client', '--command', command, '--suite', options['client-suite'], ...versionArgs, '-o', join(outDir, `client${suffix}`)];
  if (!options['no-baseline']) args.push('--expected-failures', baselineFor(version));
  const { code, output } = await conformance(args, join(outDir, `client${suffix}.log`));
  const scenarios = readResults(join(outDir, `client${suffix}`));
  summarize(`client${suffix}`, scenarios, expected, code, output);
  if (code === 0 || /Stale baseline/.test(output)) return code;
  return retryAlone(outDir, suffix, versionArgs, command, scenarios.filter((scenario) => !scenario.ok && !expected.includes(scenario.name)));
}

/**
 * The suite starts every client scenario at once (48 processes on a 2-core machine), and a few
 * timing-sensitive auth scenarios then miss the mock servers' deadlines. A scenario that failed there
 * is run again on its own; the leg passes only if every such scenario passes alone, and each one is
 * named in the output, so a real regression still fails and load-only failures stay visible.
 */
async function retryAlone(outDir, suffix, versionArgs, command, failed) {
  if (failed.length === 0) return 1;
  const names = failed.map((scenario) => scenario.name);
  console.log(`  re-running ${names.length} scenario(s) one at a time: ${names.join(', ')}`);
  for (const name of names) {
    const dir = join(outDir, `client${suffix}-alone`);
    const { code } = await conformance(['client', '--command', command, '--scenario', name, ...versionArgs, '-o', dir], join(outDir, `client${suffix}-alone-${name.replace(/\//g, '_')}.log`));
    const alone = readResults(dir).filter((scenario) => scenario.name === name);
    const ok = code === 0 && alone.length > 0 && alone.every((scenario) => scenario.ok);
    console.log(`  ${ok ? '✓' : '✗'} ${name} alone: ${ok ? 'passed (failed only under the parallel run)' : 'FAILED'}`);
    if (!ok) return 1;
  }
  console.log(`  client${suffix} leg PASSED after the re-runs`);
  return 0;
}

async function main() {
  const started = Date.now();
  const outDir = join(root, '.conformance-results', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(outDir, { recursive: true });
  const versions = SPEC_VERSIONS.filter((version) => options['spec-version'] === 'both' || (version ?? 'default') === options['spec-version']);
  console.log(`conformance: ${CONFORMANCE_PACKAGE} on node@22 (npx); apps on node ${process.version}`);
  for (const version of versions) {
    const expected = readBaseline(readFileSync(baselineFor(version), 'utf8'));
    console.log(`baseline (${pass(version).label}): ${relative(root, baselineFor(version))} (server ${expected.server.length}, client ${expected.client.length} entries)`);
  }
  const scripts = await bundleApps(join(outDir, 'bin'));
  const codes = [];
  for (const version of versions) {
    if (options.leg !== 'client') codes.push(await runServerLeg(outDir, version, scripts.server));
    if (options.leg !== 'server') codes.push(await runClientLeg(outDir, version, scripts.client));
  }
  const ok = codes.every((code) => code === 0);
  console.log(`conformance ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s; reports in ${relative(root, outDir)}`);
  return ok ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
