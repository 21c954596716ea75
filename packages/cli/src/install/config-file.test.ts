import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigFileError } from '../errors.js';
import { addServer, backupFile, backupStamp, detectIndent, formatConfig, readConfig, stripJsonComments, writeFileAtomic } from './config-file.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'statemcp-config-file-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('stripJsonComments', () => {
  it('removes line and block comments and trailing commas, keeping strings intact', () => {
    const text = `{
  // a comment
  "url": "http://x//not-a-comment", /* block
  comment */ "list": [1, 2,],
  "quote": "a \\" // still a string",
}`;
    expect(JSON.parse(stripJsonComments(text))).toEqual({ url: 'http://x//not-a-comment', list: [1, 2], quote: 'a " // still a string' });
  });

  it('keeps the line structure so parse errors point at the right line', () => {
    const text = '{\n  /* one\n two */\n  "a": 1\n}';
    expect(stripJsonComments(text).split('\n')).toHaveLength(text.split('\n').length);
  });
});

describe('readConfig', () => {
  it('reads a missing file as an empty document to be created', async () => {
    const file = join(tempDir(), 'absent.json');
    expect(await readConfig(file, false)).toEqual({ exists: false, file, document: {} });
  });

  it('refuses a file that is not JSON with a ConfigFileError naming it', async () => {
    const file = join(tempDir(), 'broken.json');
    writeFileSync(file, '{ "mcpServers": { ');
    const error = await readConfig(file, false).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigFileError);
    expect(error).toMatchObject({ reason: 'unparsable', file, code: 'INVALID_ARGUMENT' });
    expect((error as Error).message).toContain(file);
  });

  it('refuses comments where the client does not allow them, and accepts them where it does', async () => {
    const file = join(tempDir(), 'mcp.json');
    writeFileSync(file, '{\n  // my servers\n  "servers": {},\n}\n');
    await expect(readConfig(file, false)).rejects.toMatchObject({ reason: 'unparsable' });
    expect(await readConfig(file, true)).toMatchObject({ exists: true, document: { servers: {} }, hasComments: true });
  });

  it('refuses a document that is not an object', async () => {
    const file = join(tempDir(), 'array.json');
    writeFileSync(file, '[]');
    await expect(readConfig(file, false)).rejects.toMatchObject({ reason: 'unexpected-shape' });
  });
});

describe('addServer', () => {
  const config = { exists: true as const, file: '/x.json', text: '', hasComments: false, document: { theme: 'dark', mcpServers: { a: { command: 'a' }, b: { command: 'b' } } } };

  it('adds a server after the others and keeps every other key', () => {
    const { document, previous } = addServer(config, 'mcpServers', 'c', { command: 'c' }, false);
    expect(previous).toBeUndefined();
    expect(document).toEqual({ theme: 'dark', mcpServers: { a: { command: 'a' }, b: { command: 'b' }, c: { command: 'c' } } });
    expect(config.document.mcpServers).not.toHaveProperty('c');
  });

  it('refuses a server of the same name without force', () => {
    expect(() => addServer(config, 'mcpServers', 'a', { command: 'new' }, false)).toThrow(expect.objectContaining({ reason: 'server-exists', file: '/x.json' }));
  });

  it('replaces it in place with force', () => {
    const { document, previous } = addServer(config, 'mcpServers', 'a', { command: 'new' }, true);
    expect(previous).toEqual({ command: 'a' });
    expect(Object.keys(document.mcpServers as object)).toEqual(['a', 'b']);
    expect((document.mcpServers as Record<string, unknown>).a).toEqual({ command: 'new' });
  });

  it('refuses a servers key that is not an object', () => {
    const odd = { ...config, document: { mcpServers: [] } };
    expect(() => addServer(odd, 'mcpServers', 'a', {}, false)).toThrow(expect.objectContaining({ reason: 'unexpected-shape' }));
  });
});

describe('formatConfig', () => {
  it('keeps the file’s indentation and final newline', () => {
    expect(detectIndent('{\n\t"a": 1\n}')).toBe('\t');
    expect(detectIndent(undefined)).toBe(2);
    const config = { exists: true as const, file: '/x.json', text: '{\n    "a": 1\n}', hasComments: false, document: { a: 1 } };
    expect(formatConfig(config, { a: 2 })).toBe('{\n    "a": 2\n}');
  });
});

describe('backupFile', () => {
  it('copies the file to <file>.bak-<timestamp> and never over an earlier backup', async () => {
    const dir = tempDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"v":1}');
    const now = new Date('2026-11-28T14:05:09.123Z');
    expect(backupStamp(now)).toBe('2026-11-28T14-05-09-123Z');
    const first = await backupFile(file, now);
    const second = await backupFile(file, now);
    expect(first).toBe(`${file}.bak-2026-11-28T14-05-09-123Z`);
    expect(second).toBe(`${first}-1`);
    expect(readFileSync(first, 'utf8')).toBe('{"v":1}');
  });
});

describe('writeFileAtomic', () => {
  it('replaces the file, keeps its permissions and leaves no temp file', async () => {
    const dir = tempDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, 'old');
    chmodSync(file, 0o600);
    await writeFileAtomic(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('creates the folders of a new file', async () => {
    const file = join(tempDir(), 'a', 'b', 'mcp.json');
    await writeFileAtomic(file, '{}\n');
    expect(readFileSync(file, 'utf8')).toBe('{}\n');
  });
});
