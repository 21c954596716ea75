// The build's versions.json follows the workspace, and a generated project type-checks as its users'
// `tsc` will see it (strict, NodeNext), against the workspace packages' built declarations (`dist`,
// what a user's `tsc` reads from npm; turbo builds them first: `create-statemcp#test` depends on
// `^built`). pack-check builds one of each transport from the packed tarballs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createProject } from './create-project.js';
import type { Era, Transport } from './options.js';
import { TEST_VERSIONS } from './test-versions.js';
import { packagedVersions } from './versions.js';

const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const generated = `${packageRoot}.generated/typecheck/`;
afterAll(() => rmSync(generated, { recursive: true, force: true }));

describe('scripts/write-versions.mjs', () => {
  it('writes each @statemcp package at ^its workspace version, zod at the server’s peer range', () => {
    execFileSync(process.execPath, ['scripts/write-versions.mjs'], { cwd: packageRoot, stdio: 'ignore' });
    const versions = packagedVersions();
    for (const [name, range] of Object.entries(TEST_VERSIONS)) {
      if (name.startsWith('@statemcp/') || name === 'zod') expect(versions[name]).toBe(range);
    }
    const own = JSON.parse(readFileSync(`${packageRoot}package.json`, 'utf8')) as { devDependencies: Record<string, string> };
    expect(versions['typescript']).toBe(`^${own.devDependencies['typescript'] ?? ''}`);
  });
});

describe('a generated project', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  // Declarations the generated project's imports resolve to (the `types` condition of each entry).
  const declarations = ['protocol/dist/index.d.ts', 'server/dist/index.d.ts', 'client/dist/index.d.ts', 'stdio-transport/dist/index.d.ts', 'http-transport/dist/server/index.d.ts'].map(
    (file) => fileURLToPath(new URL(`../../${file}`, import.meta.url)),
  );
  // Between them: main.ts over stdio and HTTP, and server.ts with each era's import (both: none).
  it.each([
    ['both', 'modern'],
    ['http', 'legacy'],
  ] as [Transport, Era][])('type-checks (transport %s, era %s)', (transport, era) => {
    const directory = `${generated}${transport}-${era}`;
    createProject({ name: `typecheck-${transport}-${era}`, transport, era, packageManager: 'npm', directory, versions: TEST_VERSIONS, force: true });
    const missing = declarations.filter((file) => !existsSync(file));
    expect(missing, 'build the packages first: npx -y pnpm@10.34.8 turbo run built --filter=create-statemcp^...').toEqual([]);
    // No --customConditions: @statemcp/* resolve through their `types` condition to the built
    // declarations, as in a user's project (against the workspace sources, tsc took ≈20 s per
    // project on a quiet 2-core machine; against the declarations, ≈3 s).
    const args = [tsc, '-p', 'tsconfig.json', '--noEmit'];
    const run = () => execFileSync(process.execPath, args, { cwd: directory, encoding: 'utf8' });
    expect(run).not.toThrow();
  }, 300_000);
});
