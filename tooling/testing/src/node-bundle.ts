/**
 * `@statemcp/testing/node-bundle`: one JavaScript file for the child processes of an integration
 * test, bundled from TypeScript source once. A child started with `--import tsx` compiles and
 * loads every statemcp source file it imports on its own — two to three seconds per process on a
 * 2-core machine, paid by every process a test starts; the bundle starts in a fraction of that.
 *
 * The entry and the workspace's `@statemcp/*` packages are bundled from `src` (the
 * `@statemcp/source` condition, as the tests themselves import them); every other package stays
 * external, imported from the absolute path esbuild resolved it to, so the child loads the same
 * third-party files the test does (one copy of each, from the workspace's `node_modules`). Each
 * bundled file keeps its own `import.meta.url`, so `createRequire(import.meta.url)` and
 * `new URL('./x', import.meta.url)` resolve from where the file lives, not from the bundle's
 * temporary directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Loader, type Plugin } from 'esbuild';

const WORKSPACE_SCOPE = '@statemcp/';

/** Leaves third-party packages out of the bundle, imported by their resolved absolute path (a `#` subpath import stays in: it names a file of its own package). */
const thirdPartyExternal: Plugin = {
  name: 'third-party-external',
  setup(plugin) {
    plugin.onResolve({ filter: /^[^./#]/ }, async (args) => {
      if (args.path.startsWith(WORKSPACE_SCOPE) || args.pluginData === 'resolving') return undefined;
      const resolved = await plugin.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'resolving' });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      // A Node built-in has no file: esbuild marks it external under its own name.
      return { path: resolved.path, external: true };
    });
  },
};

const LOADERS: Readonly<Record<string, Loader>> = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.jsx': 'jsx' };

/** Replaces `import.meta.url` in each bundled file by that file's own URL (esbuild would leave the bundle's). */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(plugin) {
    plugin.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
      const loader = LOADERS[extname(args.path)];
      if (loader === undefined || args.path.includes('/node_modules/')) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader };
    });
  },
};

const bundles = new Map<string, Promise<string>>();

/**
 * Bundles `entry` (a TypeScript file run as `node <bundle>`) and resolves with the bundle's
 * path; one bundle per entry for the life of the calling process, removed when it exits.
 */
export function bundleNodeScript(entry: string): Promise<string> {
  let bundle = bundles.get(entry);
  if (bundle === undefined) {
    bundle = bundleOnce(entry);
    bundles.set(entry, bundle);
  }
  return bundle;
}

async function bundleOnce(entry: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'statemcp-bundle-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const outfile = join(dir, 'entry.mjs');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['@statemcp/source'],
    plugins: [thirdPartyExternal, ownImportMetaUrl],
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  return outfile;
}
