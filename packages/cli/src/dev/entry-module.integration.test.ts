/**
 * Loading versions of an entry module through tsx (real files in a temp folder): every version
 * re-evaluates the entry and the project modules it imports; a broken version is a typed error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EntryModuleError } from '../errors.js';
import { loadEntry, type LoadedEntry } from './entry-module.js';

const dirs: string[] = [];
const loaded: LoadedEntry[] = [];
afterEach(async () => {
  for (const entry of loaded.splice(0)) await entry.unload();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'statemcp-entry-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Runs a loaded version's register function against a stand-in that records tool names and descriptions. */
async function registered(entry: LoadedEntry): Promise<string[]> {
  const names: string[] = [];
  const server = { registerTool: (name: string, config: { description?: string }) => names.push(`${name}: ${config.description ?? ''}`) };
  await entry.register(server as never);
  return names;
}

describe('loadEntry', () => {
  it('evaluates the entry and the modules it imports afresh for every version', async () => {
    const dir = project({
      'text.ts': "export const text: string = 'first';\n",
      'server.ts': "import { text } from './text.js';\nexport const serverInfo = { name: 'x', version: '1' };\nexport default (server: { registerTool(name: string, config: object): void }) => server.registerTool('t', { description: text });\n",
    });
    const first = await loadEntry(join(dir, 'server.ts'), 1);
    loaded.push(first);
    expect(first.serverInfo).toEqual({ name: 'x', version: '1' });
    expect(await registered(first)).toEqual(['t: first']);
    writeFileSync(join(dir, 'text.ts'), "export const text: string = 'second';\n");
    const second = await loadEntry(join(dir, 'server.ts'), 2);
    loaded.push(second);
    expect(await registered(second)).toEqual(['t: second']);
    expect(await registered(first)).toEqual(['t: first']);
  });

  it('reports a syntax error as load-failed with the file and line', async () => {
    const dir = project({ 'server.ts': 'export default function (server) {\n  server.registerTool(\n' });
    const error = await loadEntry(join(dir, 'server.ts'), 1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EntryModuleError);
    expect(error).toMatchObject({ reason: 'load-failed', file: join(dir, 'server.ts') });
    expect((error as Error).message).toMatch(/server\.ts:\d+:\d+/);
  });

  it('reports a module whose top level throws as load-failed', async () => {
    const dir = project({ 'server.ts': "throw new Error('no database');\n" });
    await expect(loadEntry(join(dir, 'server.ts'), 1)).rejects.toMatchObject({ reason: 'load-failed', message: expect.stringContaining('no database') });
  });

  it('reports a default export that is not a function as bad-export', async () => {
    const dir = project({ 'server.ts': 'export default 42;\n' });
    await expect(loadEntry(join(dir, 'server.ts'), 1)).rejects.toMatchObject({ reason: 'bad-export', message: expect.stringContaining('its default export is number') });
  });
});
