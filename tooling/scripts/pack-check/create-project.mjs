// `npm create statemcp` from the packed tarballs (issue 37, item 1): in an empty directory outside the
// workspace, runs the packed create-statemcp's bin as `npm create` / `pnpm create` would (`npm exec
// --package=<tarball>` / `pnpm --package=<tarball> dlx`), with flags only, for each transport (stdio,
// http, both) and each package manager (npm, pnpm); points the generated project's @statemcp/*
// dependencies at the tarballs (file: specs, and overrides so the tarballs' own ^ranges between
// @statemcp packages resolve to the tarballs too, the published shape); installs; runs the project's
// `build` and `test` scripts, then starts the built server over each transport it serves and calls its
// tool (created-project-smoke.mjs). Then once more with bun (`--package-manager bun`, transport both;
// bun from npm, as tooling/runtimes uses it). Called by tooling/scripts/pack-check.mjs with the tarballs.
//
//   node tooling/scripts/pack-check/create-project.mjs <directory with the .tgz files> <scratch directory>
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PNPM = ['-y', 'pnpm@10.34.8'];
const BUN = ['-y', 'bun@1.4.5'];
const SMOKE = fileURLToPath(new URL('./created-project-smoke.mjs', import.meta.url));
export const TRANSPORTS = ['stdio', 'http', 'both'];
export const MANAGERS = ['npm', 'pnpm'];

/** The tarball of each package in `tarballDir`, by package name (`statemcp-server-0.2.0.tgz` → `@statemcp/server`). */
export function tarballsByName(tarballDir) {
  const byName = new Map();
  for (const file of readdirSync(tarballDir).filter((name) => name.endsWith('.tgz'))) {
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', join(tarballDir, file), 'package/package.json'], { encoding: 'utf8' }));
    byName.set(manifest.name, join(tarballDir, file));
  }
  return byName;
}

/**
 * The generated package.json with every @statemcp/* dependency on its tarball, and the same specs as
 * overrides (npm's `overrides`, pnpm's `pnpm.overrides`) for the ranges inside the tarballs.
 */
export function pointAtTarballs(manifest, tarballs) {
  const specs = Object.fromEntries([...tarballs].filter(([name]) => name.startsWith('@statemcp/')).map(([name, file]) => [name, `file:${file}`]));
  const next = structuredClone(manifest);
  for (const field of ['dependencies', 'devDependencies']) {
    for (const name of Object.keys(next[field] ?? {})) {
      if (!name.startsWith('@statemcp/')) continue;
      if (specs[name] === undefined) throw new Error(`the generated project depends on ${name}, which has no tarball (is packages/${name.slice('@statemcp/'.length)} packed?)`);
      next[field][name] = specs[name];
    }
  }
  next.overrides = specs;
  next.pnpm = { overrides: specs };
  return next;
}

/** The environment of a leg: the parent's, without the package manager that ran pack-check. */
function cleanEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
  return env;
}

function run(command, args, cwd, env) {
  console.log(`  $ ${[command, ...args].join(' ')}`);
  execFileSync(command, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'], timeout: 600_000 });
}

/** One leg: create with `manager` for `transport` in an empty directory, install, build and test. */
export function createInstallTest(manager, transport, tarballs, scratch) {
  const createTarball = tarballs.get('create-statemcp');
  if (createTarball === undefined) throw new Error('no create-statemcp tarball');
  const env = cleanEnv();
  const workdir = join(scratch, `${manager}-${transport}`);
  mkdirSync(workdir, { recursive: true });
  const name = `hello-${transport}`;
  const flags = [name, '--transport', transport, '--yes', '--no-install'];
  // What `npm create statemcp` and `pnpm create statemcp` run, with the tarball for the registry's copy.
  if (manager === 'npm') run('npm', ['exec', '--yes', `--package=${createTarball}`, '--', 'create-statemcp', ...flags], workdir, env);
  else if (manager === 'pnpm') run('npx', [...PNPM, `--package=${createTarball}`, 'dlx', 'create-statemcp', ...flags], workdir, env);
  else run('npm', ['exec', '--yes', `--package=${createTarball}`, '--', 'create-statemcp', ...flags, '--package-manager', 'bun'], workdir, env);

  const project = join(workdir, name);
  const readme = readFileSync(join(project, 'README.md'), 'utf8');
  const testCommand = { npm: 'npm test', pnpm: 'pnpm test', bun: 'bun run test' }[manager];
  if (!readme.includes(`| \`${testCommand}\` |`)) throw new Error(`${manager}: the generated README does not use ${manager} (npm_config_user_agent not detected)`);
  const manifestPath = join(project, 'package.json');
  writeFileSync(manifestPath, `${JSON.stringify(pointAtTarballs(JSON.parse(readFileSync(manifestPath, 'utf8')), tarballs), null, 2)}\n`);

  if (manager === 'npm') {
    run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], project, env);
    run('npm', ['run', 'build'], project, env);
    run('npm', ['test'], project, env);
  } else if (manager === 'pnpm') {
    run('npx', [...PNPM, 'install', '--reporter=append-only'], project, env);
    run('npx', [...PNPM, 'run', 'build'], project, env);
    run('npx', [...PNPM, 'test'], project, env);
  } else {
    run('npx', [...BUN, 'install'], project, env);
    run('npx', [...BUN, 'run', 'build'], project, env);
    run('npx', [...BUN, 'run', 'test'], project, env);
  }
  // The built server, started as its README says, answers over each transport it serves.
  copyFileSync(SMOKE, join(project, 'created-project-smoke.mjs'));
  run(process.execPath, ['created-project-smoke.mjs', transport], project, env);
}

/** Every leg; returns the failures (empty: all passed). */
export function checkCreateStatemcp(tarballDir, scratch) {
  const tarballs = tarballsByName(tarballDir);
  const failures = [];
  const legs = [...MANAGERS.flatMap((manager) => TRANSPORTS.map((transport) => [manager, transport])), ['bun', 'both']];
  for (const [manager, transport] of legs) {
    console.log(`== npm create statemcp: ${manager}, --transport ${transport}`);
    try {
      createInstallTest(manager, transport, tarballs, scratch);
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      failures.push(`create-statemcp with ${manager}, --transport ${transport}`);
    }
  }
  return failures;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [tarballDir, scratch] = process.argv.slice(2);
  if (tarballDir === undefined || scratch === undefined) {
    console.error('usage: node tooling/scripts/pack-check/create-project.mjs <tarball directory> <scratch directory>');
    process.exit(2);
  }
  const failures = checkCreateStatemcp(resolve(tarballDir), resolve(scratch));
  if (failures.length > 0) {
    console.error(`create-statemcp check failed:\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
}
