// Bundles an entry with esbuild for a non-Node platform and reports every Node built-in the
// bundle reaches (`node:http`, `crypto`, …), so a check can fail on any. Shared by pack-check
// (the installed tarballs) and runtimes-check (the workspace packages, the worker).
import { builtinModules } from 'node:module';
import { build } from 'esbuild';

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/**
 * Bundles `entry` (a file, relative to `absWorkingDir`, or `{ contents }` for an inline module)
 * and resolves with the bundle's text and the Node built-ins it reached (`path (imported by …)`).
 */
export async function bundleWithoutNodeBuiltins({ absWorkingDir, entry, platform = 'browser', conditions = [] }) {
  const reached = [];
  const source = typeof entry === 'string' ? { entryPoints: [entry] } : { stdin: { contents: entry.contents, resolveDir: absWorkingDir, loader: 'js' } };
  const result = await build({
    absWorkingDir,
    ...source,
    bundle: true,
    platform,
    conditions,
    format: 'esm',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'no-node-builtins',
        setup(context) {
          context.onResolve({ filter: /.*/ }, (args) => {
            if (!builtins.has(args.path)) return undefined;
            reached.push(`${args.path} (imported by ${args.importer.startsWith(absWorkingDir) ? args.importer.slice(absWorkingDir.length + 1) : args.importer})`);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  return { text: result.outputFiles[0].text, reached: [...new Set(reached)] };
}
