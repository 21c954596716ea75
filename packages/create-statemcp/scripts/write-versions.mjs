// Writes versions.json: the version ranges a generated project depends on, read from the workspace
// at build time (so they follow every `changeset version`, never hard-coded): each @statemcp package
// as `^<its version>`, zod as the server's peer range, and typescript, vitest and @types/node as
// `^<the version this package is built and tested with>`. Run by `build`; shipped in the tarball.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = new URL('../', import.meta.url);
const manifest = (path) => JSON.parse(readFileSync(new URL(path, here), 'utf8'));

const own = manifest('package.json');
const server = manifest('../server/package.json');
const versions = {};
for (const folder of ['protocol', 'server', 'client', 'stdio-transport', 'http-transport', 'inspector', 'cli']) {
  const path = new URL(`../${folder}/package.json`, here);
  // packages/cli (`statemcp dev`) is written alongside this package; until it exists a build still works.
  if (!existsSync(path)) continue;
  const { name, version } = manifest(`../${folder}/package.json`);
  versions[name] = `^${version}`;
}
versions.zod = server.peerDependencies.zod;
for (const name of ['typescript', 'vitest', '@types/node']) versions[name] = `^${own.devDependencies[name]}`;

const target = fileURLToPath(new URL('versions.json', here));
writeFileSync(target, `${JSON.stringify(versions, null, 2)}\n`);
console.log(`create-statemcp: wrote ${target}`);
