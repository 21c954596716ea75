/**
 * The public bridge to the official SDK's Transport, against real processes this project did
 * not write: statemcp's `Client` over the official SDK's stdio and Streamable HTTP client
 * transports (`fromOfficialTransport`) driving `@modelcontextprotocol/server-everything`, and
 * the official SDK's server over statemcp's `StdioServerTransport` (`toOfficialTransport`)
 * driven by statemcp's client.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport as SdkStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as SdkHttpClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, type CallToolResult } from '@statemcp/client';
import { fromOfficialTransport, type ProgressUpdate } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../src/process-tree.js';
import { StdioClientTransport } from '../src/index.js';
import { fixture, node, sourceFixture } from './support/paths.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const everything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

const clients: Client[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.terminate()));
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
});

function newClient(era: 'auto' | 'legacy'): Client {
  const client = new Client({ name: 'statemcp-over-official', version: '0.0.0' }, { era });
  clients.push(client);
  return client;
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** tools/list, an echo, and a call with progress: what every leg below checks against server-everything. */
async function exerciseEverything(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'trigger-long-running-operation']));
  expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'over the bridge' } }))).toContain('over the bridge');
  const progress: ProgressUpdate[] = [];
  const result = await client.callTool(
    { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
    { onProgress: (update) => progress.push(update) },
  );
  expect(textOf(result)).toContain('Steps: 3');
  expect(progress.map((update) => [update.progress, update.total])).toEqual([
    [1, 3],
    [2, 3],
    [3, 3],
  ]);
}

/** Starts server-everything's Streamable HTTP server on a free loopback port. */
async function startEverythingHttp(): Promise<URL> {
  const child = spawn(node, [fixture('listen-loopback.mjs'), everything, 'streamableHttp'], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening (\d+)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${stderr}`)));
  });
  return new URL(`http://127.0.0.1:${port}/mcp`);
}

describe('fromOfficialTransport: statemcp Client over the official client transports', () => {
  it('over the official StdioClientTransport against server-everything, then a clean shutdown', async () => {
    const official = new SdkStdioClientTransport({ command: node, args: [everything, 'stdio'], cwd: packageRoot, stderr: 'pipe' });
    const client = newClient('auto');
    await client.connect(fromOfficialTransport(official, { answersUntilClosed: true }));
    expect(client.era).toBe('legacy');
    await exerciseEverything(client);
    const pid = official.pid ?? -1;
    await client.close();
    expect(await isProcessAlive(pid)).toBe(false);
  });

  it('over the official StreamableHTTPClientTransport against server-everything: session id, progress, DELETE on close', async () => {
    const url = await startEverythingHttp();
    const official = new SdkHttpClientTransport(url);
    const client = newClient('legacy');
    const transport = fromOfficialTransport(official);
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/.+/);
    await exerciseEverything(client);
    const sessionId = transport.sessionId;
    await official.terminateSession();
    await client.close();
    // The session is gone on the server: a request carrying its id is refused.
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId ?? '' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
  });
});

describe('toOfficialTransport: the official server over statemcp StdioServerTransport', () => {
  it('is driven by statemcp Client: handshake, tools/list, calls, progress, clean shutdown', async () => {
    const transport = new StdioClientTransport({ command: node, args: [await sourceFixture('official-server-over-statemcp-stdio.mjs')], cwd: packageRoot });
    const client = newClient('auto');
    await client.connect(transport);
    expect(client.era).toBe('legacy');
    expect(client.serverInfo).toMatchObject({ name: 'official-over-statemcp-stdio' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['add', 'count']);
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
    const progress: number[] = [];
    const counted = await client.callTool({ name: 'count', arguments: { n: 4 } }, { onProgress: (update) => progress.push(update.progress) });
    expect(textOf(counted)).toBe('counted to 4');
    expect(progress).toEqual([1, 2, 3, 4]);
    await client.close();
    expect(transport.status).toBe('closed');
    expect(await isProcessAlive(transport.pid ?? -1)).toBe(false);
  });
});
