/**
 * The skills extension (`io.modelcontextprotocol/skills`): a server publishing a folder of
 * Agent Skills, and a host that lists them, loads one only when it needs it, and refuses
 * content that no longer matches the entry it holds.
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@statemcp/client';
import { loadSkill, SkillVerificationError } from '@statemcp/client/skills';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { registerSkills } from '@statemcp/server/skills';

/** Publishes a copy of `apps/examples/skills` (a copy, so the example can edit a file). */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'skills-example-'));
  await cp(fileURLToPath(new URL('../skills', import.meta.url)), directory, { recursive: true });

  // The server: every subfolder of `directory` with a SKILL.md is a skill, re-read on each request.
  const server = new McpServer({ name: 'handbook', version: '1.0.0' });
  const { uris } = await registerSkills(server, { directory });
  log(`published: ${uris.join(', ')}`);

  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'host', version: '1.0.0' });
  await client.connect(clientSide);

  // The host lists the skills: names, descriptions and file manifests; no file is read yet.
  const { skills } = await client.listSkills();
  const [entry] = skills;
  if (entry === undefined) throw new Error('no skill published');
  const files = entry.resources === 'dynamic' ? [] : entry.resources.map((file) => `${file.uri} (${file.size} bytes)`);
  log(`${entry.frontmatter.name}: ${entry.frontmatter.description}; files: ${files.join(', ')}`);

  // When the task at hand needs it, the host loads the skill: SKILL.md, checked against the entry.
  const skill = await loadSkill(client, entry);
  log(`instructions: ${skill.body.trim().split('\n')[0] ?? ''}`);
  const template = await skill.readFile('references/template.md');
  log(`template: ${template.text?.split('\n')[0] ?? ''}`);

  // The skill changes on disk: the held entry no longer matches, so loading it is refused whole;
  // the host fetches the current entry with getSkill and loads that.
  await writeFile(join(directory, 'release-notes', 'SKILL.md'), `${skill.text}\nMention breaking changes first.\n`);
  try {
    await loadSkill(client, entry);
  } catch (error) {
    if (!(error instanceof SkillVerificationError)) throw error;
    log(`stale entry refused: ${error.failure}`);
    const { skill: current } = await client.getSkill(entry.uri);
    const reloaded = await loadSkill(client, current);
    log(`reloaded: ${reloaded.body.trim().split('\n').at(-1) ?? ''}`);
  }

  await client.close();
  await server.close();
  await rm(directory, { recursive: true, force: true });
}
