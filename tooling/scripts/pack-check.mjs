// Proves the packages publish (issue 11 items 7 and 8):
//   0. checks the curated public surface (tooling/scripts/api-readme-check.mjs);
//   1. builds every package (turbo run build) and packs each with `pnpm pack`;
//   2. checks every tarball with publint (strict) and @arethetypeswrong/cli (ESM-only profile);
//   3. installs the tarballs (+ zod, and the optional framework peers) into a scratch project outside
//      the workspace and runs a stdio and a Streamable HTTP round trip from them (real processes, a
//      real socket on 127.0.0.1), then the Express, Fastify and Hono adapters from their subpaths;
//   4. bundles the client (with protocol alone, and over Streamable HTTP) for the browser platform
//      with esbuild and fails on any Node built-in a bundle reaches;
//   5. `npm create statemcp` from the tarballs, then install, build, test and start the project, for
//      each transport with npm and with pnpm, and once with bun
//      (tooling/scripts/pack-check/create-project.mjs).
// Usage: node tooling/scripts/pack-check.mjs (or `pnpm run pack-check`).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkGettingStarted } from '../docs/getting-started-check.mjs';
import { bundleWithoutNodeBuiltins } from './node-builtins.mjs';
import { checkCreateStatemcp } from './pack-check/create-project.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = fileURLToPath(new URL('./pack-check/', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const PNPM = ['-y', 'pnpm@10.34.8'];
const PACKAGES = ['protocol', 'client', 'server', 'stdio-transport', 'http-transport', 'inspector', 'redis-store', 'oauth-proxy', 'task-queue', 'opentelemetry', 'create-statemcp', 'cli', 'typegen'];

const run = (command, args, cwd = root) => execFileSync(command, args, { cwd, stdio: 'inherit' });
const failures = [];

const scratch = mkdtempSync(join(tmpdir(), 'statemcp-pack-check-'));
const tarballs = join(scratch, 'tarballs');
try {
  console.log('== public API: no export *, every exported name listed in its README');
  try {
    run(process.execPath, [join(root, 'tooling/scripts/api-readme-check.mjs')]);
  } catch {
    failures.push('api-readme-check');
  }

  console.log('== build');
  run('npx', [...PNPM, 'run', 'build']);

  console.log('== pack');
  for (const name of PACKAGES) {
    execFileSync('npx', [...PNPM, 'pack', '--pack-destination', tarballs], { cwd: join(root, 'packages', name), stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const files = readdirSync(tarballs).filter((file) => file.endsWith('.tgz')).map((file) => join(tarballs, file));
  console.log(files.map((file) => `  ${file.slice(tarballs.length + 1)}`).join('\n'));

  console.log('== tarball contents: LICENSE, README, no tests or test helpers');
  for (const file of files) {
    const entries = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
    const testFiles = entries.filter((entry) => /(\.test\.|\/test-[^/]*$)/.test(entry));
    if (testFiles.length > 0) failures.push(`${file}: ships tests or test helpers: ${testFiles.join(', ')}`);
    // Every file the manifest's `exports` names ships (a package may have no root entry).
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' }));
    const targets = [];
    const collect = (value) => {
      if (typeof value === 'string') targets.push(`package/${value.replace(/^\.\//, '')}`);
      // The workspace's own source condition points at src/, which is not published.
      else if (value !== null && typeof value === 'object') for (const [key, inner] of Object.entries(value)) if (key !== '@statemcp/source') collect(inner);
    };
    collect(manifest.exports ?? {});
    if (targets.length === 0) failures.push(`${file}: its package.json exports nothing`);
    for (const needed of ['package/LICENSE', 'package/README.md', ...new Set(targets)]) {
      if (!entries.includes(needed)) failures.push(`${file}: lacks ${needed}`);
    }
  }

  console.log('== publint + attw');
  for (const file of files) {
    for (const [label, command, args] of [
      ['publint', bin('publint'), ['run', file, '--strict']],
      ['attw', bin('attw'), [file, '--profile', 'esm-only', '--format', 'table-flipped', '--no-emoji', '--no-color']],
    ]) {
      try {
        run(command, args);
      } catch {
        failures.push(`${label}: ${file}`);
      }
    }
  }

  console.log('== install the tarballs outside the workspace');
  const app = join(scratch, 'app');
  run('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'pack-check-app', private: true, type: 'module' }));
  // The frameworks are optional peers of @statemcp/http-transport, installed for the adapter check.
  const frameworks = ['express@^5', 'fastify@^5', 'hono@^4', '@hono/node-server@^2'];
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...files, 'zod@^4', ...frameworks], app);
  for (const file of ['server.mjs', 'client.mjs', 'adapters.mjs', 'browser-core.mjs', 'browser-entry.mjs']) copyFileSync(join(fixtures, file), join(app, file));

  console.log('== stdio and Streamable HTTP round trips from the installed packages');
  try {
    run(process.execPath, ['client.mjs'], app);
  } catch {
    failures.push('round trips from the installed tarballs');
  }

  console.log('== the getting-started guide (docs/guide/getting-started.md), followed from an empty directory with npm');
  try {
    await checkGettingStarted(tarballs, join(scratch, 'getting-started'));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    failures.push('the getting-started guide');
  }

  console.log('== npm create statemcp from the tarballs: create, install, build, test and start, per transport, with npm and pnpm (and bun)');
  failures.push(...checkCreateStatemcp(tarballs, join(scratch, 'create')));

  console.log('== framework adapters (/express, /fastify, /hono) from the installed tarballs');
  try {
    run(process.execPath, ['adapters.mjs'], app);
  } catch {
    failures.push('framework adapters from the installed tarballs');
  }

  for (const [label, entry] of [
    ['client + protocol', 'browser-core.mjs'],
    ['client over Streamable HTTP', 'browser-entry.mjs'],
  ]) {
    console.log(`== browser bundle of the ${label} (no Node built-ins allowed)`);
    const { reached } = await bundleWithoutNodeBuiltins({ absWorkingDir: app, entry });
    if (reached.length > 0) {
      failures.push(`browser bundle of the ${label} reaches Node built-ins:\n    ${reached.join('\n    ')}`);
    } else {
      console.log('  no Node built-ins reached');
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`pack-check failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('pack-check: all packages build, pack, lint, install and run');
