/**
 * The example app for real: `next build` (turbo's cached `build:next` task, or here when that
 * build is missing or out of date), then `next start` on 127.0.0.1, then statemcp's client
 * and the official SDK's client against both routes — tools/list and a call with progress on the
 * Node.js and the Edge runtime, and on the Node.js runtime a GET stream resumed with
 * `Last-Event-ID` after its connection dropped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as OfficialTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const appRoot = fileURLToPath(new URL('..', import.meta.url));
const nextBin = fileURLToPath(new URL('../node_modules/next/dist/bin/next', import.meta.url));
let app: ChildProcess | undefined;
let origin = '';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** The newest modification time (ms) of `path` and, for a folder, of everything under it; 0 when it does not exist. */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestChange(join(path, entry))), stats.mtimeMs);
}

/**
 * What `next build` reads: the app's own files and the `dist` of the workspace packages it
 * bundles. Under `pnpm test` turbo has just built (or restored from its cache) the app in the
 * `build:next` task this test depends on; run alone, the test builds it when it is missing or
 * older than any of these.
 */
const buildInputs = ['app', 'lib', 'next.config.mjs', 'package.json', 'tsconfig.json', '../../packages/protocol/dist', '../../packages/server/dist', '../../packages/http-transport/dist'];

function buildIsCurrent(): boolean {
  const built = newestChange(join(appRoot, '.next', 'BUILD_ID'));
  return built > 0 && buildInputs.every((input) => newestChange(join(appRoot, input)) <= built);
}

beforeAll(async () => {
  if (!buildIsCurrent()) {
    const started = performance.now();
    const build = spawnSync(process.execPath, [nextBin, 'build'], { cwd: appRoot, encoding: 'utf8', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    if (build.status !== 0) throw new Error(`next build failed:\n${build.stdout}\n${build.stderr}`);
    console.log(`next build: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const port = await freePort();
  app = spawn(process.execPath, [nextBin, 'start', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: appRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/Ready in|started server/i.test(output)) resolve();
    };
    app?.stdout?.on('data', read);
    app?.stderr?.on('data', read);
    app?.once('exit', (code) => reject(new Error(`next start exited (${String(code)}):\n${output}`)));
  });
  origin = `http://127.0.0.1:${port}`;
}, 600_000);

afterAll(async () => {
  if (app !== undefined && app.exitCode === null) {
    app.kill('SIGTERM');
    await once(app, 'exit');
  }
});

function text(result: { content?: unknown }): string {
  return (result.content as { text?: string }[]).map((block) => block.text ?? '').join('');
}

async function exerciseBothClients(path: string, serverName: string): Promise<void> {
  const url = new URL(path, origin);
  const client = new Client({ name: 'statemcp-next', version: '0.0.0' });
  await client.connect(new StreamableHttpClientTransport(url));
  expect(client.serverInfo?.name).toBe(serverName);
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'count', 'add-tool']));
  const progress: number[] = [];
  expect(text(await client.callTool({ name: 'count', arguments: { n: 3 } }, { onProgress: (update) => progress.push(update.progress) }))).toBe('counted to 3');
  expect(progress).toEqual([1, 2, 3]);
  await client.close();

  const official = new OfficialClient({ name: 'official-next', version: '1.0.0' });
  await official.connect(new OfficialTransport(url));
  expect((await official.listTools()).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'count', 'add-tool']));
  const officialProgress: number[] = [];
  const counted = await official.callTool({ name: 'count', arguments: { n: 2 } }, undefined, { onprogress: (update) => officialProgress.push(update.progress) });
  expect(text(counted as { content?: unknown })).toBe('counted to 2');
  expect(officialProgress).toEqual([1, 2]);
  await official.close();
}

const postHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function eventText(response: Response): ReadableStream<string> {
  if (response.body === null) throw new Error('an event stream without a body');
  return response.body.pipeThrough(new TextDecoderStream());
}

describe('the Next.js example app (next build && next start)', () => {
  it('Node.js runtime: both clients list tools and call one with progress', async () => {
    await exerciseBothClients('/api/mcp', 'nextjs-node');
  });

  it('Edge runtime: both clients list tools and call one with progress (stateless)', async () => {
    await exerciseBothClients('/api/edge/mcp', 'nextjs-edge');
  });

  it('Node.js runtime: a GET stream resumed with Last-Event-ID after its connection dropped', async () => {
    const url = new URL('/api/mcp', origin);
    const init = await fetch(url, {
      method: 'POST',
      headers: postHeaders,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
    });
    await init.text();
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-11-25' };
    expect(session['mcp-session-id']).not.toBe('');
    await fetch(url, { method: 'POST', headers: { ...postHeaders, ...session }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    const abort = new AbortController();
    const stream = await fetch(url, { headers: { accept: 'text/event-stream', ...session }, signal: abort.signal });
    expect(stream.status).toBe(200);
    const reader = eventText(stream).getReader();
    const call = async (id: number, name: string): Promise<void> => {
      const answer = await fetch(url, {
        method: 'POST',
        headers: { ...postHeaders, ...session },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'add-tool', arguments: { name } } }),
      });
      expect(await answer.text()).toContain(`added ${name}`);
    };
    await call(2, 'first');
    let seen = '';
    while (!/list_changed[^]*\n\n/.test(seen)) seen += (await reader.read()).value ?? '';
    const event = seen.split('\n\n').find((block) => block.includes('list_changed')) ?? '';
    const lastEventId = /^id: ?(.+)$/m.exec(event)?.[1] ?? '';
    expect(lastEventId).not.toBe('');
    abort.abort();
    await reader.cancel().catch(() => undefined);
    // While nobody listens, another change: kept in the event store, replayed on resumption.
    await call(3, 'second');
    const resumed = await fetch(url, { headers: { accept: 'text/event-stream', 'last-event-id': lastEventId, ...session } });
    expect(resumed.status).toBe(200);
    const resumedReader = eventText(resumed).getReader();
    let replayed = '';
    while (!replayed.includes('list_changed')) replayed += (await resumedReader.read()).value ?? '';
    expect(replayed).toContain('notifications/tools/list_changed');
    await resumedReader.cancel();
  });
});
