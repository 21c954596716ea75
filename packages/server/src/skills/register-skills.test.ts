import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { InMemoryTransport, JsonRpcError, SKILLS_EXTENSION_ID, type JsonObject } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../mcp-server.js';
import { initializedClient } from '../test-harness.js';
import { registerSkills } from './register-skills.js';

const INFO = { name: 'skills', version: '1.0.0' };
const CUSTOM = { custom: { optIn: false as const } };
const PDF_MD = '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: "2.1"\n---\n\n# PDF processing\n\nPick a template from `templates/`.\n';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const sha = (bytes: string | Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function skillsFolder(files: Record<string, string | Buffer>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'statemcp-skills-'));
  folders.push(root);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

const FIXTURE = {
  'pdf-processing/SKILL.md': PDF_MD,
  'pdf-processing/templates/invoice.md': '# Invoice\n',
  'pdf-processing/templates/logo.png': PNG,
  'acme/billing/refunds/SKILL.md': '---\nname: refunds\ndescription: Process refunds\n---\nBody\n',
};

async function request(server: McpServer, method: string, params: JsonObject = {}, version?: string): Promise<JsonObject> {
  const test = await initializedClient(server, version === undefined ? {} : { version });
  return (await test.client.request(method, params, CUSTOM));
}

describe('registerSkills', () => {
  it('declares the extension with directoryRead beside the resources capability', async () => {
    const server = new McpServer(INFO);
    await registerSkills(server, { directory: await skillsFolder(FIXTURE) });
    const capabilities = server.capabilities();
    expect((capabilities as { extensions?: unknown }).extensions).toEqual({ [SKILLS_EXTENSION_ID]: { directoryRead: true } });
    expect(capabilities.resources).toBeDefined();
  });

  it('lists entries whose frontmatter is the file\'s and whose digests and sizes are those of the bytes served', async () => {
    const server = new McpServer(INFO);
    const registered = await registerSkills(server, { directory: await skillsFolder(FIXTURE) });
    expect(registered.uris).toEqual(['skill://acme/billing/refunds/SKILL.md', 'skill://pdf-processing/SKILL.md']);
    const { skills } = await request(server, 'skills/list');
    const pdf = (skills as JsonObject[]).find((skill) => skill.uri === 'skill://pdf-processing/SKILL.md');
    expect(pdf).toEqual({
      uri: 'skill://pdf-processing/SKILL.md',
      frontmatter: { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', metadata: { version: '2.1' } },
      resources: [
        { uri: 'skill://pdf-processing/SKILL.md', digest: sha(PDF_MD), size: Buffer.byteLength(PDF_MD) },
        { uri: 'skill://pdf-processing/templates/invoice.md', digest: sha('# Invoice\n'), size: 10 },
        { uri: 'skill://pdf-processing/templates/logo.png', digest: sha(PNG), size: PNG.length },
      ],
    });
  });

  it('pages skills/list without splitting an entry', async () => {
    const server = new McpServer(INFO);
    await registerSkills(server, { directory: await skillsFolder(FIXTURE), pageSize: 1 });
    const test = await initializedClient(server);
    const first = (await test.client.request('skills/list', {}, CUSTOM));
    expect((first.skills as JsonObject[]).map((skill) => skill.uri)).toEqual(['skill://acme/billing/refunds/SKILL.md']);
    const second = (await test.client.request('skills/list', { cursor: first.nextCursor as string }, CUSTOM));
    expect((second.skills as JsonObject[]).map((skill) => skill.uri)).toEqual(['skill://pdf-processing/SKILL.md']);
    expect(second.nextCursor).toBeUndefined();
  });

  it('answers skills/get for a served skill (no cursor) and -32602 for any other URI', async () => {
    const server = new McpServer(INFO);
    await registerSkills(server, { directory: await skillsFolder(FIXTURE) });
    const test = await initializedClient(server);
    const result = (await test.client.request('skills/get', { uri: 'skill://acme/billing/refunds/SKILL.md' }, CUSTOM));
    expect((result.skill as JsonObject).frontmatter).toEqual({ name: 'refunds', description: 'Process refunds' });
    expect(result).not.toHaveProperty('nextCursor');
    for (const uri of ['skill://nope/SKILL.md', 'skill://pdf-processing/templates/invoice.md', 'skill://pdf-processing/../acme/billing/refunds/SKILL.md']) {
      await expect(test.client.request('skills/get', { uri }, CUSTOM)).rejects.toMatchObject({ code: -32602 });
    }
  });

  it('serves SKILL.md as text/markdown, text files as text and binary files as blobs', async () => {
    const server = new McpServer(INFO);
    await registerSkills(server, { directory: await skillsFolder(FIXTURE) });
    const test = await initializedClient(server);
    const read = async (uri: string) => ((await test.client.request('resources/read', { uri })) as { contents: JsonObject[] }).contents[0];
    expect(await read('skill://pdf-processing/SKILL.md')).toEqual({ uri: 'skill://pdf-processing/SKILL.md', mimeType: 'text/markdown', text: PDF_MD });
    expect(await read('skill://pdf-processing/templates/logo.png')).toEqual({ uri: 'skill://pdf-processing/templates/logo.png', mimeType: 'image/png', blob: PNG.toString('base64') });
    const { resources } = (await test.client.request('resources/list')) as { resources: JsonObject[] };
    expect(resources.find((resource) => resource.uri === 'skill://pdf-processing/SKILL.md')).toMatchObject({ name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', mimeType: 'text/markdown' });
    for (const uri of ['skill://pdf-processing/../acme/billing/refunds/SKILL.md', 'skill://pdf-processing/missing.md', 'skill:///etc/passwd']) {
      await expect(test.client.request('resources/read', { uri })).rejects.toMatchObject({ code: -32602 });
    }
  });

  it('reads directories: files, subdirectories as inode/directory, prefix folders; -32602 for a file or nothing', async () => {
    const server = new McpServer(INFO);
    await registerSkills(server, { directory: await skillsFolder(FIXTURE) });
    const test = await initializedClient(server);
    const root = (await test.client.request('resources/directory/read', { uri: 'skill://pdf-processing' }, CUSTOM));
    expect(root.resources).toEqual([
      { uri: 'skill://pdf-processing/SKILL.md', name: 'SKILL.md', mimeType: 'text/markdown', size: Buffer.byteLength(PDF_MD) },
      { uri: 'skill://pdf-processing/templates', name: 'templates', mimeType: 'inode/directory' },
    ]);
    const prefix = (await test.client.request('resources/directory/read', { uri: 'skill://acme' }, CUSTOM));
    expect(prefix.resources).toEqual([{ uri: 'skill://acme/billing', name: 'billing', mimeType: 'inode/directory' }]);
    await expect(test.client.request('resources/directory/read', { uri: 'skill://pdf-processing/SKILL.md' }, CUSTOM)).rejects.toMatchObject({ code: -32602, message: /not a directory/ });
    await expect(test.client.request('resources/directory/read', { uri: 'skill://nothing' }, CUSTOM)).rejects.toMatchObject({ code: -32602 });
  });

  it('does not answer resources/directory/read nor declare it when directoryRead is false', async () => {
    const server = new McpServer(INFO);
    await registerSkills(server, { directory: await skillsFolder(FIXTURE), directoryRead: false });
    expect((server.capabilities() as { extensions?: unknown }).extensions).toEqual({ [SKILLS_EXTENSION_ID]: {} });
    const test = await initializedClient(server);
    await expect(test.client.request('resources/directory/read', { uri: 'skill://pdf-processing' }, CUSTOM)).rejects.toMatchObject({ code: -32601 });
  });

  it('re-reads the files, so a changed file never goes out under a stale digest', async () => {
    const root = await skillsFolder(FIXTURE);
    const server = new McpServer(INFO);
    await registerSkills(server, { directory: root });
    const test = await initializedClient(server);
    const changed = '# Invoice v2\n';
    await writeFile(join(root, 'pdf-processing/templates/invoice.md'), changed);
    await writeFile(join(root, 'pdf-processing/templates/credit-note.md'), '# Credit\n');
    const { skill } = (await test.client.request('skills/get', { uri: 'skill://pdf-processing/SKILL.md' }, CUSTOM)) as { skill: { resources: JsonObject[] } };
    expect(skill.resources.map((resource) => resource.uri)).toContain('skill://pdf-processing/templates/credit-note.md');
    expect(skill.resources.find((resource) => resource.uri === 'skill://pdf-processing/templates/invoice.md')).toEqual({ uri: 'skill://pdf-processing/templates/invoice.md', digest: sha(changed), size: changed.length });
    const read = (await test.client.request('resources/read', { uri: 'skill://pdf-processing/templates/invoice.md' })) as { contents: JsonObject[] };
    expect(read.contents[0]?.text).toBe(changed);
  });

  it('adds resultType and the caching hints on 2026-07-28 only', async () => {
    const server = new McpServer(INFO);
    await registerSkills(server, { skills: [{ files: { 'SKILL.md': '---\nname: tiny\ndescription: A tiny skill\n---\n' } }], cache: { ttlMs: 60_000, cacheScope: 'public' } });
    const legacy = await request(server, 'skills/list');
    expect(legacy).not.toHaveProperty('ttlMs');
    const [clientTransport, serverTransport] = InMemoryTransport.createPair();
    const received: JsonObject[] = [];
    let bothAnswered: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (bothAnswered = resolve));
    await clientTransport.start({
      onMessage: (value) => {
        received.push(value as JsonObject);
        if (received.length === 2) bothAnswered();
      },
      onClose: () => undefined,
    });
    await server.connect(serverTransport);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
    await clientTransport.send({ jsonrpc: '2.0', id: 1, method: 'skills/list', params: { _meta: meta } });
    await clientTransport.send({ jsonrpc: '2.0', id: 2, method: 'skills/get', params: { _meta: meta, uri: 'skill://tiny/SKILL.md' } });
    await answered;
    for (const id of [1, 2]) expect(received.find((message) => message.id === id)?.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
  });
});

describe('registerSkills refusals', () => {
  const refusal = async (options: Parameters<typeof registerSkills>[1]) => registerSkills(new McpServer(INFO), options).then(() => undefined, (error: unknown) => (error as Error).message);

  it('refuses an invalid skill name, a name that is not the folder name, and a SKILL.md without frontmatter', async () => {
    expect(await refusal({ directory: await skillsFolder({ 'Bad--Name/SKILL.md': '---\nname: Bad--Name\ndescription: d\n---\n' }) })).toMatch(/Agent Skills naming rules/);
    expect(await refusal({ directory: await skillsFolder({ 'one/SKILL.md': '---\nname: two\ndescription: d\n---\n' }) })).toMatch(/differs from the skill's folder name/);
    expect(await refusal({ directory: await skillsFolder({ 'one/SKILL.md': '# no frontmatter\n' }) })).toMatch(/frontmatter/);
    expect(await refusal({ directory: await skillsFolder({ 'one/SKILL.md': '---\nname: one\n---\n' }) })).toMatch(/"description"/);
  });

  it('refuses paths leaving the skill and absolute paths in skills built in code', async () => {
    const skillMd = '---\nname: code\ndescription: d\n---\n';
    expect(await refusal({ skills: [{ files: { 'SKILL.md': skillMd, '../escape.md': 'x' } }] })).toMatch(/"\.\." segment/);
    expect(await refusal({ skills: [{ files: { 'SKILL.md': skillMd, '/etc/passwd': 'x' } }] })).toMatch(/absolute path/);
    expect(await refusal({ skills: [{ path: 'a/../code', files: { 'SKILL.md': skillMd } }] })).toMatch(/skill path/);
  });

  it('refuses a symbolic link in the skills folder', async () => {
    const outside = await skillsFolder({ 'secret.txt': 'secret' });
    const root = await skillsFolder({ 'one/SKILL.md': '---\nname: one\ndescription: d\n---\n' });
    await symlink(join(outside, 'secret.txt'), join(root, 'one', 'secret.txt'));
    expect(await refusal({ directory: root })).toMatch(/symbolic link/);
  });

  it('refuses a skill over the size limit, and a second call on the same server', async () => {
    const skillMd = '---\nname: big\ndescription: d\n---\n';
    expect(await refusal({ skills: [{ files: { 'SKILL.md': skillMd, 'data.txt': 'x'.repeat(200) } }], limits: { maxTotalBytes: 100 } })).toMatch(/over the limit of 100/);
    const server = new McpServer(INFO);
    await registerSkills(server, { skills: [{ files: { 'SKILL.md': skillMd } }] });
    await expect(registerSkills(server, { skills: [{ files: { 'SKILL.md': skillMd } }] })).rejects.toThrow(/already called/);
  });

  it('reports a code skill error as a JsonRpcError-free definition error', async () => {
    const error = await registerSkills(new McpServer(INFO), { skills: [{ files: { 'README.md': 'x' } }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(JsonRpcError);
    expect((error as Error).name).toBe('SkillDefinitionError');
  });
});
