// Runs the test a generated project ships, against the server it ships, for each era: the project is
// written under .generated/ in this package (so its @statemcp/* imports resolve to the workspace
// sources) and its src/server.test.ts is imported into a describe block of this file.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe } from 'vitest';
import { createProject } from './create-project.js';
import { ERAS } from './options.js';
import { TEST_VERSIONS } from './test-versions.js';

const generated = fileURLToPath(new URL('../.generated/unit/', import.meta.url));
afterAll(() => rmSync(generated, { recursive: true, force: true }));

for (const era of ERAS) {
  const directory = `${generated}${era}`;
  rmSync(directory, { recursive: true, force: true });
  createProject({ name: `generated-${era}`, transport: 'both', era, packageManager: 'npm', directory, versions: TEST_VERSIONS });
  describe(`a generated project (era ${era}): its own test`, async () => {
    await import(/* @vite-ignore */ `${directory}/src/server.test.ts`);
  });
}
