// Bundles the harness and every child-process fixture with esbuild, so each stack runs as one
// plain JavaScript file (statemcp from its TypeScript sources via the `@statemcp/source`
// condition, the official SDKs from their published JavaScript). Same treatment for all.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(fileURLToPath(import.meta.url));
const fixtures = readdirSync(join(root, 'src/fixtures'))
  .filter((f) => f.endsWith('.ts') && f !== 'side-channel.ts')
  .map((f) => join('src/fixtures', f));

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@statemcp/source'],
  outExtension: { '.js': '.mjs' },
  sourcemap: 'linked',
  logLevel: 'warning',
  // CommonJS dependencies bundled into ESM need a real `require`.
  banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
};

await build({ ...common, entryPoints: ['src/bench.ts'], outdir: 'dist' });
await build({ ...common, entryPoints: fixtures, outdir: 'dist/fixtures' });
