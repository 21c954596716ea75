#!/usr/bin/env node
// Interop check with the MCP Inspector CLI (`@modelcontextprotocol/inspector-cli`, a client no one
// here wrote, built on the official TypeScript SDK v1): it drives apps/everything-server over stdio
// (spawning it) and over Streamable HTTP (a server started here on 127.0.0.1), and each time lists
// the tools, calls two of them, reads a resource, lists the templates, gets a prompt and sets the
// log level. Exits non-zero on the first failed step.
//
//   node tooling/conformance/inspector-check.mjs [--verbose]
//
// The CLI runs on this process's Node (it supports Node 20); npx fetches it from the npm registry.
import { execFileSync, spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const INSPECTOR_PACKAGE = '@modelcontextprotocol/inspector-cli@1.0.3';
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const serverLauncher = join(root, 'apps', 'everything-server', 'bin', 'everything-server.mjs');
const verbose = process.argv.includes('--verbose');

// inspector-cli 1.0.3 reads its own package.json with `existsSync('../package.json')` (relative to
// the working directory) but imports it relative to its module, so it only starts when the working
// directory's parent has a package.json. The repository's `tooling/` folder satisfies that.
const inspectorCwd = join(root, 'tooling');

/** Installs the CLI into the npx cache (once) and returns the path of its entry script. */
function installInspector() {
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const bin = execFileSync(npx, ['-y', '-p', INSPECTOR_PACKAGE, '-c', 'command -v mcp-inspector-cli'], {
    cwd: inspectorCwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_loglevel: 'error' },
  }).trim();
  return realpathSync(bin);
}

let inspectorEntry;

/** Runs the inspector CLI once; resolves with the parsed JSON it printed. */
function inspector(target, methodArgs) {
  const args = [inspectorEntry, '--cli', ...target, ...methodArgs];
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: inspectorCwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_loglevel: 'error' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const start = stdout.indexOf('{');
      if (code !== 0 || start === -1) {
        reject(new Error(`inspector ${methodArgs.join(' ')} failed (exit ${code})\n${stdout}\n${stderr}`));
        return;
      }
      try {
        resolveRun(JSON.parse(stdout.slice(start)));
      } catch (error) {
        reject(new Error(`inspector printed no JSON: ${String(error)}\n${stdout}`));
      }
    });
  });
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const textOf = (result) => (result.content ?? result.contents ?? []).map((item) => item.text ?? '').join(' ');

/** The steps run against each transport: [label, inspector arguments, check of the result]. */
const STEPS = [
  ['tools/list', ['--method', 'tools/list'], (r) => assert(r.tools?.some((t) => t.name === 'test_simple_text') && r.tools.some((t) => t.name === 'json_schema_2020_12_tool'), 'fixture tools missing')],
  ['tools/call test_simple_text', ['--method', 'tools/call', '--tool-name', 'test_simple_text'], (r) => assert(textOf(r).includes('simple text response'), `unexpected result ${JSON.stringify(r)}`)],
  ['tools/call add_numbers a=5 b=3', ['--method', 'tools/call', '--tool-name', 'add_numbers', '--tool-arg', 'a=5', 'b=3'], (r) => assert(r.isError !== true && textOf(r).includes('is 8'), `unexpected result ${JSON.stringify(r)}`)],
  ['tools/call test_error_handling', ['--method', 'tools/call', '--tool-name', 'test_error_handling'], (r) => assert(r.isError === true, 'expected an isError result')],
  ['resources/read test://static-text', ['--method', 'resources/read', '--uri', 'test://static-text'], (r) => assert(textOf(r).includes('static text resource'), `unexpected result ${JSON.stringify(r)}`)],
  ['resources/templates/list', ['--method', 'resources/templates/list'], (r) => assert(r.resourceTemplates?.some((t) => t.uriTemplate === 'test://template/{id}/data'), 'template missing')],
  ['prompts/get test_prompt_with_arguments', ['--method', 'prompts/get', '--prompt-name', 'test_prompt_with_arguments', '--prompt-args', 'arg1=one', 'arg2=two'], (r) => assert(JSON.stringify(r.messages).includes("arg1='one', arg2='two'"), `unexpected result ${JSON.stringify(r)}`)],
  ['logging/setLevel debug', ['--method', 'logging/setLevel', '--log-level', 'debug'], (r) => assert(typeof r === 'object', 'expected an empty result')],
];

/** Runs every step against one target (each step is a fresh inspector process and connection). */
async function check(label, target) {
  const lines = [];
  for (const [step, args, verify] of STEPS) {
    const started = Date.now();
    const result = await inspector(target, args);
    verify(result);
    lines.push(`  ✓ ${label}: ${step} (${Date.now() - started} ms)`);
    if (verbose) lines.push(JSON.stringify(result, null, 2));
  }
  return lines;
}

function startHttpServer() {
  return new Promise((resolveStart, reject) => {
    const child = spawn(process.execPath, [serverLauncher, '--http', '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk.toString();
      const match = /listening on (\S+)/.exec(stdout);
      if (match !== null) resolveStart({ url: match[1], stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))) });
    });
    child.on('exit', (code) => reject(new Error(`everything-server exited early (code ${code})`)));
  });
}

async function main() {
  const started = Date.now();
  console.log(`inspector interop: ${INSPECTOR_PACKAGE} on node ${process.version}`);
  inspectorEntry = installInspector();
  const server = await startHttpServer();
  try {
    // The two transports are independent: check them side by side.
    const results = await Promise.allSettled([
      check('stdio', [process.execPath, serverLauncher, '--stdio']),
      check('http', [server.url, '--transport', 'http']),
    ]);
    for (const result of results) if (result.status === 'fulfilled') console.log(result.value.join('\n'));
    for (const result of results) if (result.status === 'rejected') throw result.reason;
  } finally {
    await server.stop();
  }
  console.log(`inspector interop passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((error) => {
  console.error(`inspector interop FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
