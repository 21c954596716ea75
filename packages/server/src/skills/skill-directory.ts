/**
 * Skills from a folder on disk (Node `fs`): every folder under the root that holds a
 * `SKILL.md` is a skill, its path the folder's path relative to the root (`git-workflow`,
 * `acme/billing/refunds`). A skill's files are listed and read again on every request. Paths
 * stay inside the root: a symbolic link anywhere in a skill is refused (at registration with
 * an error, later by leaving the skill out), and file names come from the directory listing,
 * never from a requested URI, so `..` or an absolute path cannot reach the file system.
 */
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { SKILL_FILE_NAME } from '@statemcp/protocol';
import { SkillDefinitionError, type SkillSource } from './skill-catalog.js';

const IGNORED = new Set(['.git', 'node_modules', '.DS_Store']);

async function entriesOf(folder: string) {
  return (await readdir(folder, { withFileTypes: true })).filter((entry) => !IGNORED.has(entry.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Every file under `folder`, by `/`-separated relative path; refuses symbolic links and anything but files and folders. */
async function readTree(root: string, folder: string, files: Map<string, Uint8Array>): Promise<void> {
  for (const entry of await entriesOf(folder)) {
    const path = join(folder, entry.name);
    const shown = relative(root, path).split(sep).join('/');
    if (entry.isSymbolicLink()) throw new SkillDefinitionError(`${shown} is a symbolic link; skill files must be regular files inside the skills folder`);
    if (entry.isDirectory()) await readTree(root, path, files);
    else if (entry.isFile()) files.set(shown, await readFile(path));
    else throw new SkillDefinitionError(`${shown} is neither a file nor a folder`);
  }
}

function folderSource(skillsRoot: string, path: string): SkillSource {
  const folder = join(skillsRoot, ...path.split('/'));
  return {
    path,
    read: async () => {
      const info = await lstat(folder);
      if (info.isSymbolicLink() || !info.isDirectory()) throw new SkillDefinitionError(`skill ${path}: its folder is no longer a plain folder`);
      const files = new Map<string, Uint8Array>();
      await readTree(folder, folder, files);
      return files;
    },
  };
}

/**
 * The skills under `directory`, one source per folder holding a `SKILL.md` (nested skills
 * included; the enclosing skill serves their files too). Throws {@link SkillDefinitionError}
 * for a symbolic link under the root, or when the root holds no skill.
 */
export async function skillsFromDirectory(directory: string): Promise<SkillSource[]> {
  const root = await realpath(directory);
  const paths: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    const entries = await entriesOf(folder);
    for (const entry of entries) {
      if (entry.isSymbolicLink()) throw new SkillDefinitionError(`${relative(root, join(folder, entry.name)).split(sep).join('/')} is a symbolic link; the skills folder must not link outside itself`);
    }
    if (folder !== root && entries.some((entry) => entry.isFile() && entry.name === SKILL_FILE_NAME)) paths.push(relative(root, folder).split(sep).join('/'));
    for (const entry of entries) if (entry.isDirectory()) await walk(join(folder, entry.name));
  };
  await walk(root);
  if (paths.length === 0) throw new SkillDefinitionError(`${directory} holds no skill (no folder with a ${SKILL_FILE_NAME})`);
  return paths.map((path) => folderSource(root, path));
}
