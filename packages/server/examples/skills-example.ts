import { Client } from '@statemcp/client';
import { loadSkill, SkillVerificationError } from '@statemcp/client/skills';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { registerSkills } from '@statemcp/server/skills';

export async function main(): Promise<string[]> {
  const lines: string[] = [];
  // A server publishing one skill built in code (`directory: '…/skills'` publishes a folder).
  const server = new McpServer({ name: 'git-helper', version: '1.0.0' });
  await registerSkills(server, {
    skills: [
      {
        files: {
          'SKILL.md': '---\nname: git-workflow\ndescription: Branch and commit the way this team does\n---\n\nRead references/naming.md first.\n',
          'references/naming.md': 'Branches: feature/<issue>-<slug>\n',
        },
      },
    ],
  });

  // A host: list the skills (nothing is read yet), load one when it is needed.
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'host', version: '1.0.0' });
  await client.connect(clientTransport);
  const { skills } = await client.listSkills();
  const [entry] = skills;
  if (entry === undefined) throw new Error('no skill listed');
  lines.push(`listed: ${skills.map((entry) => `${entry.frontmatter.name} (${entry.frontmatter.description})`).join(', ')}`);

  const skill = await loadSkill(client, entry);
  lines.push(`body: ${skill.body.trim()}`);
  const naming = await skill.readFile('references/naming.md');
  lines.push(`naming.md: ${naming.text?.trim() ?? ''}`);

  // An entry that no longer matches the bytes is refused whole.
  const stale = { ...entry, frontmatter: { ...entry.frontmatter, description: 'Something else' } };
  await loadSkill(client, stale).catch((error: unknown) => {
    if (error instanceof SkillVerificationError) lines.push(`refused: ${error.failure}`);
  });
  await client.close();
  await server.close();
  return lines;
}
