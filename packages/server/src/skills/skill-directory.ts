/**
 * Skills from a folder on disk (Node `fs`): every folder under the root that holds a
 * `SKILL.md` is a skill, its path the folder's path relative to the root (`git-workflow`,
 * `acme/billing/refunds`). A skill's files are listed and read again on every request. Paths
 * stay inside the root: a symbolic link anywhere in a skill is refused (at registration with
 * an error, later by leaving the skill out), and file names come from the directory listing,
 * never from a requested URI, so `..` or an absolute path cannot reach the file system.
 *
 * A link swapped in after the listing does not get through either: every file is opened with
 * `O_NOFOLLOW` (where the platform has it) and checked on the open handle — a regular file,
 * whose path under the root resolves (`realpath`) to itself and names the very inode the
 * handle holds — before a byte is read; every folder is checked the same way (no link, its real
 * path its own) before it is listed. So a file or a folder anywhere in the path that became a
 * symbolic link between the check and the read is refused, not followed.
 */
import { constants } from 'node:fs';
import { lstat, open, readdir, realpath, stat, type FileHandle } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { SKILL_FILE_NAME } from '@statemcp/protocol/internal';
import { SkillDefinitionError, type SkillSource } from './skill-catalog.js';

const IGNORED = new Set(['.git', 'node_modules', '.DS_Store']);

async function entriesOf(folder: string) {
  return (await readdir(folder, { withFileTypes: true })).filter((entry) => !IGNORED.has(entry.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Not following a final symbolic link when opening (0 where the platform has no such flag: the handle checks still hold). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** What `open` reports for a final symbolic link under `O_NOFOLLOW` (Linux and macOS: ELOOP; FreeBSD: EMLINK). */
function isLinkRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ELOOP' || code === 'EMLINK';
}

/** Refuses `path` unless it is a folder (not a link) whose real path is `path` itself: no link anywhere in it. */
async function checkFolder(path: string, shown: string): Promise<void> {
  const info = await lstat(path);
  if (info.isSymbolicLink() || !info.isDirectory()) throw new SkillDefinitionError(`${shown} is no longer a plain folder; skill folders must not be symbolic links`);
  if ((await realpath(path)) !== path) throw new SkillDefinitionError(`${shown} resolves outside the skills folder (a symbolic link in its path)`);
}

/**
 * The bytes of the file at `path` (an absolute path under the real skills root), read from a
 * handle opened without following a final link and checked before reading: a regular file,
 * `path` resolving to itself, and that path naming the inode the handle holds — so what is
 * read is what was checked, even when a link is swapped in meanwhile.
 */
async function readConfinedFile(path: string, shown: string): Promise<Uint8Array> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | NO_FOLLOW);
  } catch (error) {
    if (isLinkRefusal(error)) throw new SkillDefinitionError(`${shown} is a symbolic link; skill files must be regular files inside the skills folder`, { cause: error });
    throw error;
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw new SkillDefinitionError(`${shown} is not a regular file`);
    if ((await realpath(path)) !== path) throw new SkillDefinitionError(`${shown} resolves outside the skills folder (a symbolic link in its path)`);
    const there = await stat(path);
    if (there.dev !== opened.dev || there.ino !== opened.ino) throw new SkillDefinitionError(`${shown} changed while it was opened (a symbolic link in its path)`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Every file under `folder`, by `/`-separated relative path; refuses symbolic links and anything but files and folders. */
async function readTree(root: string, folder: string, files: Map<string, Uint8Array>): Promise<void> {
  for (const entry of await entriesOf(folder)) {
    const path = join(folder, entry.name);
    const shown = relative(root, path).split(sep).join('/');
    if (entry.isSymbolicLink()) throw new SkillDefinitionError(`${shown} is a symbolic link; skill files must be regular files inside the skills folder`);
    if (entry.isDirectory()) {
      await checkFolder(path, shown);
      await readTree(root, path, files);
    } else if (entry.isFile()) files.set(shown, await readConfinedFile(path, shown));
    else throw new SkillDefinitionError(`${shown} is neither a file nor a folder`);
  }
}

function folderSource(skillsRoot: string, path: string): SkillSource {
  const folder = join(skillsRoot, ...path.split('/'));
  return {
    path,
    read: async () => {
      // The skill's folder and every folder above it up to the root: no link anywhere in the path.
      await checkFolder(folder, `skill ${path}: its folder`);
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
