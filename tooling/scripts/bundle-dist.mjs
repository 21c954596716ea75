// Builds the runtime JavaScript of the package in the current directory: one ES module per
// entry of its exports map (code shared by several entries goes to chunks next to them), every
// dependency and Node built-in left as an import. It empties dist first; `tsc -p
// tsconfig.build.json` (emitDeclarationOnly) then adds the declarations.
//
// Why: Node's ESM loader costs about a millisecond per module on a small machine (resolve, read,
// compile, link), and a stdio server's start-up used to load ≈100 of ours one file at a time
// (issue 19: cold start). The sources stay small files; what ships is one file per entry.
//
// Usage (from a package's directory): node ../../tooling/scripts/bundle-dist.mjs
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

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
await build({
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
});
