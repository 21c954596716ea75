/**
 * Real skills folders in a temporary directory for the symlink test: a skills root the server
 * publishes and, beside it, an `outside` folder holding what must never be served.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The text of every file outside the skills root; it must never reach a client. */
export const SECRET = 'TOP SECRET: outside the skills folder';

function skillMd(name: string): string {
  return `---\nname: ${name}\ndescription: The ${name} skill\n---\n\nUse ${name}.\n`;
}

/** A temporary tree: `skills/` (the root served) and `outside/` (never to be served). */
export interface SkillsTree {
  readonly root: string;
  readonly skills: string;
  readonly outside: string;
  remove(): Promise<void>;
}

/** Writes `files` (relative path → text) under `base`. */
async function writeFiles(base: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), text);
  }
}

/**
 * Skills `notes` (with `reference.md` and a folder `refs/`) and `acme/billing`, and outside the
 * root a file `secret.txt`, a folder `secrets/` and a look-alike `billing` skill whose files hold
 * the secret.
 */
export async function skillsTree(): Promise<SkillsTree> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'statemcp-skills-symlinks-')));
  const skills = join(root, 'skills');
  const outside = join(root, 'outside');
  await writeFiles(skills, {
    'notes/SKILL.md': skillMd('notes'),
    'notes/reference.md': 'The reference.\n',
    'notes/refs/guide.md': 'The guide.\n',
    'acme/billing/SKILL.md': skillMd('billing'),
    'acme/billing/rates.md': 'The rates.\n',
  });
  await writeFiles(outside, {
    'secret.txt': SECRET,
    'secrets/guide.md': SECRET,
    'secrets/secret.txt': SECRET,
    'look-alike/billing/SKILL.md': skillMd('billing'),
    'look-alike/billing/rates.md': SECRET,
    'look-alike/billing/secret.txt': SECRET,
  });
  return { root, skills, outside, remove: () => rm(root, { recursive: true, force: true }) };
}
