/**
 * Skills symlink race (issue 32, finding "skills: check-then-open symlink race"): a skill file
 * served from a folder used to be checked (the listing said "a regular file", the skill's folder
 * was `lstat`ed) and then opened by path, so a symbolic link swapped in between — for the file,
 * for a folder inside the skill, or for a folder above it — made the server read outside its
 * skills folder. Real files and links in a temporary directory, a real server process over
 * stdio; the race is made deterministic by the fixture, which swaps the link in right after the
 * server's listing of the folder, before the open.
 */
import { rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@statemcp/client';
import { McpServer } from '@statemcp/server';
import { registerSkills, SkillDefinitionError } from '@statemcp/server/skills';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { bundleNodeScript } from '@statemcp/testing/node-bundle';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET, skillsTree, type SkillsTree } from '../src/skills-symlinks-folders.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/skills-symlinks-server.ts', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

interface Served {
  readonly client: Client;
  readonly stderr: () => string;
}

async function serve(directory: string, swap?: { in: string; entry: string; to: string }): Promise<Served> {
  let stderr = '';
  const args = [await bundleNodeScript(FIXTURE), '--directory', directory];
  if (swap !== undefined) args.push('--swap-in', swap.in, '--swap-entry', swap.entry, '--swap-to', swap.to);
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: PACKAGE_DIR, onStderr: (chunk) => void (stderr += chunk.toString('utf8')) });
  const client = new Client({ name: 'skills-symlinks-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** What reading `uri` gave: the text, or the error's code and message. */
async function read(client: Client, uri: string): Promise<string> {
  try {
    const result = await client.readResource({ uri });
    return result.contents.map((content) => ('text' in content ? content.text : `blob ${content.blob}`)).join('\n');
  } catch (error) {
    return `error ${String((error as { code?: unknown }).code)}: ${(error as Error).message}`;
  }
}

describe('registerSkills over a folder with symbolic links', () => {
  let tree: SkillsTree;
  let served: Served | undefined;

  beforeEach(async () => {
    tree = await skillsTree();
  });

  afterEach(async () => {
    await served?.client.close();
    served = undefined;
    await tree.remove();
  });

  it('serves the plain files of the tree (the control case)', async () => {
    served = await serve(tree.skills);
    expect(await read(served.client, 'skill://notes/reference.md')).toBe('The reference.\n');
    expect(await read(served.client, 'skill://notes/refs/guide.md')).toBe('The guide.\n');
    expect(await read(served.client, 'skill://acme/billing/rates.md')).toBe('The rates.\n');
  });

  it('refuses a file swapped for a link between the listing and the open', async () => {
    const notes = join(tree.skills, 'notes');
    served = await serve(tree.skills, { in: notes, entry: 'reference.md', to: join(tree.outside, 'secret.txt') });
    const answer = await read(served.client, 'skill://notes/reference.md');
    expect(served.stderr()).toContain('swapped reference.md');
    expect(answer).not.toContain(SECRET);
    expect(answer).toMatch(/^error -32602: No skill file is served at skill:\/\/notes\/reference\.md/);
    // The skill is left out while the link is there; nothing of it is served.
    expect(await read(served.client, 'skill://notes/SKILL.md')).toMatch(/^error -32602/);
    await expect(served.client.getSkill('skill://notes/SKILL.md')).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(/reference\.md is a symbolic link/) as unknown });
  });

  it('refuses a folder inside a skill swapped for a link between the listing and its own listing', async () => {
    const notes = join(tree.skills, 'notes');
    served = await serve(tree.skills, { in: notes, entry: 'refs', to: join(tree.outside, 'secrets') });
    const guide = await read(served.client, 'skill://notes/refs/guide.md');
    expect(served.stderr()).toContain('swapped refs');
    expect(guide).not.toContain(SECRET);
    expect(await read(served.client, 'skill://notes/refs/secret.txt')).not.toContain(SECRET);
  });

  it('refuses a skill once a folder above it became a link to a look-alike outside the root', async () => {
    served = await serve(tree.skills);
    expect(await read(served.client, 'skill://acme/billing/rates.md')).toBe('The rates.\n');
    // After registration `acme` becomes a link to a folder holding a valid `billing` skill.
    await rename(join(tree.skills, 'acme'), join(tree.skills, 'acme.old'));
    await symlink(join(tree.outside, 'look-alike'), join(tree.skills, 'acme'));
    const rates = await read(served.client, 'skill://acme/billing/rates.md');
    expect(rates).not.toContain(SECRET);
    expect(rates).toMatch(/^error -32602/);
    expect(await read(served.client, 'skill://acme/billing/secret.txt')).not.toContain(SECRET);
    const { skills } = await served.client.listSkills();
    expect(skills.map((skill) => skill.uri)).toEqual(['skill://notes/SKILL.md']);
  });

  it('refuses a link anywhere in the folder at registration, with a SkillDefinitionError naming it', async () => {
    await symlink(join(tree.outside, 'secret.txt'), join(tree.skills, 'notes', 'linked.md'));
    await expect(registerSkills(new McpServer({ name: 'x', version: '1' }), { directory: tree.skills })).rejects.toThrow(SkillDefinitionError);
    await expect(registerSkills(new McpServer({ name: 'x', version: '1' }), { directory: tree.skills })).rejects.toThrow(/notes\/linked\.md is a symbolic link/);
  });
});
