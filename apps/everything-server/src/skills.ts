/**
 * The everything server's skills (skills extension, SEP-2640): the `skills/` folder beside
 * `src/`, published with `registerSkills` so the suite's `sep-2640-skills-*` scenarios have a
 * skill with a subfolder, a binary file and a nested skill path to check.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpServer } from '@statemcp/server';
import { registerSkills, type RegisteredSkills } from '@statemcp/server/skills';

/** The skills folder: beside `src/` when run from source, else `apps/everything-server/skills` under the working directory (bundled runs). */
export function skillsDirectory(): string {
  const besideSource = fileURLToPath(new URL('../skills', import.meta.url));
  return existsSync(join(besideSource, 'conformance-guide')) ? besideSource : join(process.cwd(), 'apps', 'everything-server', 'skills');
}

/** Publishes the skills folder on `server` (with `resources/directory/read`). */
export function addSkills(server: McpServer, directory: string = skillsDirectory()): Promise<RegisteredSkills> {
  return registerSkills(server, { directory, pageSize: 10 });
}
