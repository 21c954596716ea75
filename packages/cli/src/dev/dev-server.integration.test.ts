/**
 * `startDevServer` in this process (no transport of its own, no watcher: `reload()` is called
 * by hand) with a client over the in-memory transport: a first version that does not load, the
 * version that fixes it, and the dispose function of a replaced version.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { UsageError } from '../errors.js';
import { startDevServer, type DevServer } from './dev-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function entryFile(text: string): { file: string; write(text: string): void } {
  const dir = mkdtempSync(join(tmpdir(), 'statemcp-dev-server-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
  const file = join(dir, 'server.ts');
  writeFileSync(file, text);
  return { file, write: (next) => writeFileSync(file, next) };
}

async function connectClient(dev: DevServer): Promise<{ client: Client; heard: string[] }> {
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await dev.server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  const heard: string[] = [];
  client.onToolsListChanged(() => heard.push('tools'));
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return { client, heard };
}

const tool = (name: string, extra = '') =>
  `export default (server) => {\n  server.registerTool('${name}', {}, () => ({ content: [{ type: 'text', text: '${name}' }] }));\n  ${extra}\n};\n`;

describe('startDevServer', () => {
  it('serves nothing while the first version does not load, then the version that fixes it', async () => {
    const entry = entryFile('export default (server) => {\n');
    const lines: string[] = [];
    const dev = await startDevServer({ entry: entry.file, inspector: false, watch: false, log: (line) => lines.push(line) });
    cleanups.push(() => dev.close());
    expect(dev.version).toBe(0);
    expect(dev.lastError).toMatchObject({ reason: 'load-failed', file: entry.file });
    expect(lines.join('\n')).toContain('nothing served yet');
    const { client, heard } = await connectClient(dev);
    expect((await client.listTools()).tools).toEqual([]);

    entry.write(tool('hello'));
    const outcome = await dev.reload();
    expect(outcome).toMatchObject({ ok: true, version: 1, diff: { added: ['tool hello'], updated: [], removed: [] } });
    expect(dev.lastError).toBeUndefined();
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['hello']);
    expect(heard).toEqual(['tools']);
  });

  it('runs a replaced version’s dispose function, and the last one’s at close', async () => {
    const disposer = (label: string) => `return () => { (globalThis.__disposed ??= []).push('${label}'); };`;
    const entry = entryFile(tool('one', disposer('v1')));
    const dev = await startDevServer({ entry: entry.file, inspector: false, watch: false, log: () => undefined });
    const disposed = () => (globalThis as { __disposed?: string[] }).__disposed ?? [];
    entry.write(tool('two', disposer('v2')));
    expect(await dev.reload()).toMatchObject({ ok: true, version: 2, diff: { added: ['tool two'], removed: ['tool one'] } });
    expect(disposed()).toEqual(['v1']);
    entry.write('export default 1;\n');
    expect(await dev.reload()).toMatchObject({ ok: false, version: 2, error: { reason: 'bad-export' } });
    expect(disposed()).toEqual(['v1']);
    await dev.close();
    expect(disposed()).toEqual(['v1', 'v2']);
    await dev.close(); // idempotent
  });

  it('refuses an entry that does not exist', async () => {
    await expect(startDevServer({ entry: join(tmpdir(), 'statemcp-no-such-dir', 'server.ts'), inspector: false, watch: false })).rejects.toThrow(UsageError);
  });

  it('refuses a port in use with a UsageError', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = (blocker.address() as { port: number }).port;
    const entry = entryFile(tool('hello'));
    const error = await startDevServer({ entry: entry.file, http: { port }, inspector: false, watch: false, log: () => undefined }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(`port ${port} on 127.0.0.1 is in use`);
  });
});
