// `pnpm start` for real: the notes server as a child process (PORT=0, so it picks a free port and
// prints its URL), reached by statemcp's client with an `x-user` header.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { afterEach, describe, expect, it } from 'vitest';
import { SEARCH_METHOD, Search } from '../src/notes-server.js';

const args = ['--import', fileURLToPath(new URL('../bin/register.mjs', import.meta.url)), fileURLToPath(new URL('../src/serve-http.ts', import.meta.url))];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
});

/** Starts the server process and resolves with the URL it prints once it listens. */
function startProcess(): Promise<URL> {
  const child = spawn(process.execPath, args, { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1] !== undefined) resolve(new URL(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${String(code)} before listening`)));
  });
}

describe('the notes server process', () => {
  it('listens on 127.0.0.1 and serves the custom method and header-aware tools', async () => {
    const url = await startProcess();
    expect(url.hostname).toBe('127.0.0.1');
    const client = new Client({ name: 'process-check', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(url, { headers: { 'x-user': 'grace' } }));
    expect(await client.request(SEARCH_METHOD, { query: 'view' }, Search)).toEqual({ paths: ['ideas/mcp'] });
    expect((await client.callTool({ name: 'my_notes', arguments: {} })).structuredContent).toEqual({ author: 'grace', paths: ['ideas/mcp'] });
    await client.close();
  });
});
