import { CapabilityNotSupportedError, LocalErrorCode, SkillVerificationError, SKILLS_EXTENSION_ID, type JsonObject, type SkillEntry, type SkillResource } from '@statemcp/protocol';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createScriptedServer } from '../../test/scripted-server.js';
import { Client } from '../client.js';
import { loadSkill } from './load-skill.js';

const SKILL_URI = 'skill://pdf-processing/SKILL.md';
const FORMS_URI = 'skill://pdf-processing/references/FORMS.md';
const SKILL_MD = '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\nSkill body.\n';
const FORMS = 'Forms guide ✓\n';
const sha = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

function entryFor(skillMd: string = SKILL_MD): SkillEntry {
  return {
    uri: SKILL_URI,
    frontmatter: { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents' },
    resources: [
      { uri: SKILL_URI, digest: sha(skillMd), size: Buffer.byteLength(skillMd) },
      { uri: FORMS_URI, digest: sha(FORMS), size: Buffer.byteLength(FORMS) },
    ],
  };
}

/** A scripted server that lists `entry` and serves `served` for SKILL.md. */
async function host(options: { entry?: SkillEntry; served?: string; declared?: boolean } = {}) {
  const entry = options.entry ?? entryFor();
  const served = options.served ?? SKILL_MD;
  const capabilities: JsonObject = options.declared === false ? { resources: {} } : { resources: {}, extensions: { [SKILLS_EXTENSION_ID]: {} } };
  const server = await createScriptedServer({
    capabilities,
    answer: (method, params) => {
      if (method === 'skills/list') return { skills: [entry as unknown as JsonObject] };
      if (method === 'skills/get') return { skill: entry as unknown as JsonObject };
      if (method === 'resources/read') return { contents: [{ uri: String(params.uri), mimeType: 'text/markdown', text: params.uri === FORMS_URI ? FORMS : served }] };
      return undefined;
    },
  });
  const client = new Client({ name: 'host', version: '1.0.0' });
  await client.connect(server.clientSide);
  const reads = () => server.requests('resources/read').map((message) => message.params?.uri);
  return { client, server, reads };
}

async function refusal(promise: Promise<unknown>): Promise<SkillVerificationError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(SkillVerificationError);
  expect((error as SkillVerificationError).code).toBe(LocalErrorCode.SkillVerificationFailed);
  return error as SkillVerificationError;
}

describe('Client#listSkills / #getSkill', () => {
  it('list and get without reading any file', async () => {
    const { client, reads } = await host();
    const { skills } = await client.listSkills();
    expect(skills).toEqual([entryFor()]);
    expect((await client.getSkill(SKILL_URI)).skill.uri).toBe(SKILL_URI);
    expect(reads()).toEqual([]);
    await client.close();
  });

  it('are refused with CapabilityNotSupportedError when the server did not declare the extension', async () => {
    const { client, server } = await host({ declared: false });
    await expect(client.listSkills()).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    await expect(client.getSkill(SKILL_URI)).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    expect(server.requests('skills/list')).toEqual([]);
    await client.close();
  });
});

describe('loadSkill', () => {
  it('reads SKILL.md only, verifies it, and reads a supporting file when asked (once)', async () => {
    const { client, reads } = await host();
    const skill = await loadSkill(client, entryFor());
    expect(skill.frontmatter).toEqual({ name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents' });
    expect(skill.body).toBe('\nSkill body.\n');
    expect(reads()).toEqual([SKILL_URI]);
    const forms = await skill.readFile('references/FORMS.md');
    expect(forms.text).toBe(FORMS);
    await skill.readFile(FORMS_URI);
    expect(reads()).toEqual([SKILL_URI, FORMS_URI]);
    await client.close();
  });

  it('refuses a tampered SKILL.md (digest) and reads nothing more', async () => {
    const { client, reads } = await host({ served: SKILL_MD.replace('Skill body.', 'Evil body!!') });
    const error = await refusal(loadSkill(client, entryFor()));
    expect([error.failure, error.uri, error.skillUri]).toEqual(['digest', SKILL_URI, SKILL_URI]);
    expect(reads()).toEqual([SKILL_URI]);
    await client.close();
  });

  it('refuses a SKILL.md of the wrong size before computing its digest', async () => {
    const { client } = await host({ served: `${SKILL_MD}extra bytes the entry did not account for\n` });
    expect((await refusal(loadSkill(client, entryFor()))).failure).toBe('size');
    await client.close();
  });

  it('refuses a SKILL.md whose frontmatter drifted from the entry even when the digest matches', async () => {
    const drifted = SKILL_MD.replace('description: Extract, fill, and assemble PDF documents', 'description: Exfiltrate credentials');
    const { client, reads } = await host({ served: drifted });
    const error = await refusal(loadSkill(client, entryFor(drifted)));
    expect(error.failure).toBe('frontmatter');
    expect(error.message).toMatch(/description/);
    expect(reads()).toEqual([SKILL_URI]);
    await client.close();
  });

  it('refuses a tampered supporting file and a file the entry does not list (without reading it)', async () => {
    const base = entryFor();
    const entry: SkillEntry = { ...base, resources: (base.resources as SkillResource[]).map((file) => (file.uri === FORMS_URI ? { ...file, digest: sha('other') } : file)) };
    const { client, reads } = await host({ entry });
    const skill = await loadSkill(client, entry);
    expect((await refusal(skill.readFile('references/FORMS.md'))).failure).toBe('digest');
    expect((await refusal(skill.readFile('references/credit-note.md'))).failure).toBe('unlisted');
    expect((await refusal(skill.readFile('../other-skill/SKILL.md'))).failure).toBe('unlisted');
    expect(reads()).toEqual([SKILL_URI, FORMS_URI]);
    await client.close();
  });

  it('refuses entries a host must not load, without reading anything', async () => {
    const { client, reads } = await host();
    const base = entryFor();
    const invalid: SkillEntry[] = [
      { ...base, resources: 'dynamic' },
      { ...base, resources: [] },
      { ...base, frontmatter: { name: 'other', description: 'x' } },
      { ...base, resources: [...(base.resources as object[]), { uri: 'skill://elsewhere/x.md', digest: sha('x'), size: 1 }] as SkillEntry['resources'] },
      { ...base, resources: [{ uri: SKILL_URI, digest: 'md5:abc', size: 1 }] },
    ];
    for (const entry of invalid) expect((await refusal(loadSkill(client, entry))).failure).toBe('invalid-entry');
    expect(reads()).toEqual([]);
    await client.close();
  });
});
