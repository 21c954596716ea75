// Proves the next release can be cut (issue 37, item 5): runs `changeset version` on a temporary copy
// of what it reads and writes — the root manifest, pnpm-workspace.yaml, .changeset/ and every
// workspace package's package.json and CHANGELOG.md, as in the working tree — and fails when it
// fails, or when a version it writes is not a version or a package's dependency on another workspace
// package stops being a `workspace:` range. The real tree is never written. Prints the bumps.
// Usage: node tooling/scripts/changeset-version-check.mjs (CI: tooling/scripts/ci-extra.sh).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** The files `changeset version` reads or writes, relative to the root (tracked or new, not ignored). */
export function releaseFiles(cwd = root) {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd, encoding: 'utf8' }).split('\n');
  return listed.filter(
    (path) =>
      existsSync(join(cwd, path)) &&
      (path === 'package.json' || path === 'pnpm-workspace.yaml' || path.startsWith('.changeset/') || /^(packages|apps|tooling)\/.+\/(package\.json|CHANGELOG\.md)$/.test(path)),
  );
}

/** Each workspace package's manifest in `dir`, by name. */
function manifests(dir, files) {
  const byName = new Map();
  for (const path of files.filter((file) => file.endsWith('/package.json'))) {
    const manifest = JSON.parse(readFileSync(join(dir, path), 'utf8'));
    byName.set(manifest.name, { path, manifest });
  }
  return byName;
}

/** What went wrong after `changeset version` in `dir` (empty: nothing), and the bumps it made. */
export function inspectVersioned(before, after) {
  const problems = [];
  const bumps = [];
  for (const [name, { path, manifest }] of after) {
    const previous = before.get(name)?.manifest.version;
    if (manifest.version !== previous) bumps.push(`${name} ${previous} → ${manifest.version}`);
    if (!manifest.private && !VERSION.test(manifest.version ?? '')) problems.push(`${path}: version ${manifest.version} is not a version`);
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
        const was = before.get(name)?.manifest[field]?.[dependency];
        if (after.has(dependency) && String(was).startsWith('workspace:') && !String(range).startsWith('workspace:')) {
          problems.push(`${path}: ${field}.${dependency} became ${range} (was ${was})`);
        }
      }
    }
  }
  return { problems, bumps };
}

export function checkChangesetVersion() {
  const files = releaseFiles();
  const copy = mkdtempSync(join(tmpdir(), 'statemcp-changeset-version-'));
  try {
    for (const path of files) cpSync(join(root, path), join(copy, path), { recursive: true });
    // The changelog generator (@changesets/cli/changelog) is resolved from the copy; git gives each entry its commit.
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const git = (...args) => execFileSync('git', ['-c', 'user.name=changeset-check', '-c', 'user.email=changeset-check@localhost', ...args], { cwd: copy, stdio: 'ignore' });
    git('init', '--quiet');
    git('add', '--all');
    git('commit', '--quiet', '--no-verify', '-m', 'copy');
    const before = manifests(copy, files);
    const cli = join(root, 'node_modules', '@changesets', 'cli', 'bin.js'); // a root devDependency
    execFileSync(process.execPath, [cli, 'version'], { cwd: copy, stdio: 'inherit' });
    return inspectVersioned(before, manifests(copy, files));
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const pending = releaseFiles().filter((path) => /^\.changeset\/.+\.md$/.test(path) && path !== '.changeset/README.md').length;
  console.log(`changeset version on a copy (${pending} pending changesets)`);
  let result;
  try {
    result = checkChangesetVersion();
  } catch (error) {
    console.error(`changeset version failed on a copy of the repository: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  for (const bump of result.bumps) console.log(`  ${bump}`);
  if (result.problems.length > 0) {
    console.error(`changeset version check failed:\n  ${result.problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`changeset version: runs clean (${result.bumps.length} package(s) would be bumped); the real tree is untouched`);
}
