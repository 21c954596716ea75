// TypeDoc options for the API reference (docs/api, Markdown for the VitePress site). The entry
// points are read from every published package's `exports` (the `@statemcp/source` condition), so a
// new subpath is documented without touching this file. Undocumented exports fail the build.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const packagesDir = join(root, 'packages');

/** Every published entry point: `{ name: '@statemcp/server/apps', file: '/…/src/apps/index.ts' }`. */
export function publicEntryPoints() {
  const entries = [];
  for (const folder of readdirSync(packagesDir).sort()) {
    const manifest = JSON.parse(readFileSync(join(packagesDir, folder, 'package.json'), 'utf8'));
    if (manifest.private) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = typeof target === 'object' ? target['@statemcp/source'] : undefined;
      if (typeof source !== 'string') continue;
      entries.push({ name: subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`, file: join(packagesDir, folder, source) });
    }
  }
  return entries;
}

/** @type {Partial<import('typedoc').TypeDocOptions & import('typedoc-plugin-markdown').PluginOptions>} */
const entryPoints = publicEntryPoints();
const options = {
  entryPoints: entryPoints.map((entry) => entry.file),
  entryPointStrategy: 'resolve',
  tsconfig: join(root, 'tooling', 'docs', 'tsconfig.json'),
  plugin: ['typedoc-plugin-markdown', join(root, 'tooling', 'docs', 'module-names.mjs')],
  out: join(root, 'docs', 'api'),
  name: 'statemcp API reference',
  readme: 'none',
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  githubPages: false,
  // Source links point at the public repository whatever the local clone's remote is (CI clones a path).
  disableGit: true,
  sourceLinkTemplate: 'https://github.com/statemcp/statemcp/blob/main/{path}#L{line}',
  hidePageHeader: true,
  entryFileName: 'index.md',
  validation: { notExported: false, invalidLink: true, notDocumented: true },
  requiredToBeDocumented: ['Class', 'Function', 'Interface', 'TypeAlias', 'Variable', 'Enum'],
  packagesRequiringDocumentation: [...new Set(entryPoints.map((entry) => entry.name.split('/').slice(0, 2).join('/')))],
  treatWarningsAsErrors: true,
  logLevel: 'Warn',
};

export default options;
