// Builds what the bench runs, the way users get it:
//
// 1. statemcp's packages are built to their `dist` (`turbo run build` over the bench's
//    dependencies; cached when nothing changed), so every stack runs its published JavaScript
//    through its package's `exports` default condition, exactly as installed from npm.
//    `--skip-packages` leaves that step to the caller (the vitest test: turbo's `^build`).
// 2. The harness and every child-process fixture are compiled with esbuild, which strips the
//    TypeScript and inlines only the harness's own files: every package (`@statemcp/*`, the
//    official SDKs, zod, ws) stays an `import` resolved from node_modules at run time, so a
//    cold start loads the same files a user's process loads.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(root, '../..');
const packageJson = createRequire(import.meta.url)('./package.json');
/**
 * The harness's own helpers from private workspace packages (a private Redis server, the cluster
 * example's proxy): not part of any measured stack, so they are inlined from their sources
 * instead of being imported from a `dist` they do not publish.
 */
const harnessHelpers = new Set(['@statemcp/testing', '@statemcp/cluster-example']);
const statemcpPackages = Object.keys(packageJson.dependencies).filter((name) => name.startsWith('@statemcp/') && !harnessHelpers.has(name));

/** Every bare import stays external (resolved from node_modules at run time) except the harness helpers. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return harnessHelpers.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};

function buildPackages() {
  const turboArgs = ['run', 'build', '--filter=@statemcp/bench^...', '--output-logs=errors-only'];
  // turbo runs each package's `build` script with pnpm: use the pnpm on PATH (`pnpm bench`,
  // turbo's own tasks), else the pinned one through npx.
  const hasPnpm = spawnSync('pnpm', ['--version'], { stdio: 'ignore' }).status === 0;
  const [command, args] = hasPnpm
    ? [join(repoRoot, 'node_modules/.bin/turbo'), turboArgs]
    : ['npx', ['-y', 'pnpm@10.34.8', 'exec', 'turbo', ...turboArgs]];
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`building statemcp's packages failed (${command} ${args.join(' ')})`);
}

/**
 * The built file a package's entry resolves to (the `default` condition): its root entry, or its
 * first subpath for a package without one (`@statemcp/http-transport` has only `/server`, `/client`…).
 */
function entryFileOf(name) {
  try {
    return fileURLToPath(import.meta.resolve(name));
  } catch {
    const manifest = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve(`${name}/package.json`)), 'utf8'));
    const subpath = Object.keys(manifest.exports ?? {}).find((key) => key !== '.' && key !== './package.json');
    if (subpath === undefined) throw new Error(`${name} exports no entry`);
    return fileURLToPath(import.meta.resolve(`${name}/${subpath.slice(2)}`));
  }
}

/** Every statemcp package the bench imports must resolve to a built file (the `default` condition). */
function checkPackagesBuilt() {
  const missing = [];
  for (const name of statemcpPackages) {
    try {
      if (!existsSync(entryFileOf(name))) missing.push(name);
    } catch {
      missing.push(name);
    }
  }
  if (missing.length > 0) {
    throw new Error(`statemcp is not built: ${missing.join(', ')}. Run \`npx -y pnpm@10.34.8 turbo run build --filter=@statemcp/bench^...\` (or \`node build.mjs\` without --skip-packages).`);
  }
}

if (!process.argv.includes('--skip-packages')) buildPackages();
checkPackagesBuilt();

const fixtures = readdirSync(join(root, 'src/fixtures'))
  .filter((f) => f.endsWith('.ts') && f !== 'side-channel.ts')
  .map((f) => join('src/fixtures', f));

const common = {
  absWorkingDir: root,
  bundle: true,
  // Only the harness's own files (and its helpers) are inlined; every package is imported from node_modules.
  plugins: [externalPackages],
  conditions: ['@statemcp/source'],
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  sourcemap: 'linked',
  logLevel: 'warning',
};

rmSync(join(root, 'dist'), { recursive: true, force: true });
await build({ ...common, entryPoints: ['src/bench.ts'], outdir: 'dist' });
await build({ ...common, entryPoints: fixtures, outdir: 'dist/fixtures' });
