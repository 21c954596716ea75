// Every name a package exports from an entry point (its index files' `export { … }` and
// `export type { … }` lists) must appear, in backticks, in the "## Public API" section of the
// package README — and every package index must list its names (no `export *`).
// Usage: node tooling/scripts/api-readme-check.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ENTRIES = {
  protocol: ['src/index.ts', 'src/ajv/index.ts', 'src/skills/index.ts'],
  client: ['src/index.ts', 'src/apps/index.ts', 'src/skills/index.ts', 'src/auth/index.ts', 'src/auth/node/index.ts'],
  server: ['src/index.ts', 'src/apps/index.ts', 'src/skills/index.ts', 'src/logging/index.ts', 'src/compose/index.ts'],
  'stdio-transport': ['src/index.ts'],
  'http-transport': [
    'src/client/index.ts',
    'src/server/index.ts',
    'src/ws/index.ts',
    'src/express/index.ts',
    'src/fastify/index.ts',
    'src/hono/index.ts',
    'src/lambda/index.ts',
    'src/next/index.ts',
    'src/auth/index.ts',
  ],
  inspector: ['src/index.ts'],
  'redis-store': ['src/index.ts'],
  'oauth-proxy': ['src/index.ts'],
  'task-queue': ['src/index.ts'],
  cli: ['src/index.ts'],
  'create-statemcp': ['src/index.ts'],
  typegen: ['src/index.ts'],
  opentelemetry: ['src/index.ts'],
};

/** The public names of one index file (the alias when renamed with `as`). */
export function exportedNames(source) {
  const names = [];
  for (const match of source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const item of match[1].split(',')) {
      const name = item.trim().split(/\s+as\s+/).pop()?.replace(/^type\s+/, '').trim();
      if (name) names.push(name);
    }
  }
  return names;
}

const problems = [];
for (const [pkg, entries] of Object.entries(ENTRIES)) {
  const readme = readFileSync(join(root, 'packages', pkg, 'README.md'), 'utf8');
  const section = /^## Public API\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1];
  if (section === undefined) {
    problems.push(`${pkg}: README has no "## Public API" section`);
    continue;
  }
  for (const entry of entries) {
    const source = readFileSync(join(root, 'packages', pkg, entry), 'utf8');
    if (/^export \*/m.test(source)) problems.push(`${pkg}/${entry}: uses export * (list the names)`);
    for (const name of exportedNames(source)) {
      if (!section.includes(`\`${name}\``)) problems.push(`${pkg}: \`${name}\` (${entry}) is not in the README's Public API section`);
    }
  }
}
if (problems.length > 0) {
  console.error(`api-readme-check failed:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('api-readme-check: every exported name is listed in its package README');
