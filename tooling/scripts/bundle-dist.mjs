// Builds the runtime JavaScript of the package in the current directory: one ES module per
// entry of its exports map (code shared by several entries goes to chunks next to them), every
// dependency and Node built-in left as an import. It empties dist first; `tsc -p
// tsconfig.build.json` (emitDeclarationOnly) then adds the declarations.
//
// Why: Node's ESM loader costs about a millisecond per module on a small machine (resolve, read,
// compile, link), and a stdio server's start-up used to load ≈100 of ours one file at a time
// (issue 19: cold start). The sources stay small files; what ships is one file per entry.
//
// Every file costs a start-up too, not only its bytes: a stdio server paid ≈0.8 ms of CPU per
// file of ours it loaded, the CPU of ≈40 KB of code that never runs (2026-12-07, the profiling
// journal, seventh round). esbuild gives each set of entries that share modules a chunk of its
// own, so a subpath that imports a module of the main entry's graph adds a chunk the main entry
// loads. `protocol` and `server` (what a stdio server loads) have their subpaths import such
// modules through the package's own name instead (`@statemcp/<name>/internal`), and pass
// `--main-chunks 1` to fail the build when the main entry (`.`) would load more chunks.
//
// Usage (from a package's directory): node ../../tooling/scripts/bundle-dist.mjs [--main-chunks N]
import { readFileSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values: options } = parseArgs({ options: { 'main-chunks': { type: 'string' } } });
const mainChunks = options['main-chunks'] === undefined ? undefined : Number(options['main-chunks']);

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const entryPoints = Object.values(pkg.exports)
  .map((target) => (typeof target === 'object' && target !== null ? target['@statemcp/source'] : undefined))
  .filter((source) => typeof source === 'string');
if (entryPoints.length === 0) throw new Error(`${pkg.name}: no "@statemcp/source" entry in the exports map`);
// Subpath imports (`#name`) whose source differs by condition (`{ "@statemcp/source": { "node":
// …, "default": … } }`) stay imports in the output, resolved by the runtime that loads dist:
// each variant is an entry of its own.
const importVariants = Object.values(pkg.imports ?? {}).flatMap((target) => {
  const source = typeof target === 'object' && target !== null ? target['@statemcp/source'] : undefined;
  return typeof source === 'object' && source !== null ? Object.values(source).filter((file) => typeof file === 'string') : [];
});

rmSync('dist', { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: [...entryPoints, ...importVariants],
  outbase: 'src',
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  external: Object.keys(pkg.imports ?? {}),
  // Chunks sit at the root of dist, where the files of src/ did: `import.meta.url` keeps its depth.
  chunkNames: '[name]-[hash]',
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  metafile: mainChunks !== undefined,
});

if (mainChunks !== undefined) {
  const mainSource = pkg.exports['.']?.['@statemcp/source'];
  const outputs = Object.entries(metafile.outputs);
  const main = outputs.find(([, output]) => output.entryPoint === mainSource?.replace(/^\.\//, ''));
  if (main === undefined) throw new Error(`${pkg.name}: --main-chunks needs a "." entry with a "@statemcp/source" condition`);
  const chunks = main[1].imports.filter((entry) => !entry.external && entry.kind === 'import-statement');
  if (chunks.length > mainChunks) {
    const shared = chunks.map(({ path }) => `  ${path}: ${Object.keys(metafile.outputs[path]?.inputs ?? {}).join(', ')}`);
    throw new Error(
      `${pkg.name}: the main entry loads ${chunks.length} chunks (at most ${mainChunks}); a subpath shares these modules with it, import them through the package's name instead:\n${shared.join('\n')}`,
    );
  }
}
