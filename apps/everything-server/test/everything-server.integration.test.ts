// The everything server as a real child process: over Streamable HTTP (session ids, DNS-rebinding
// protection, a tool call resumed with Last-Event-ID) and over stdio.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@statemcp/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LAUNCHER = fileURLToPath(new URL('../bin/everything-server.mjs', import.meta.url));
const PROTOCOL = '2025-11-25';

interface SseEvent {
  id?: string;
  retry?: number;
  data: string;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const event: SseEvent = { data: '' };
      for (const line of block.split('\n')) {
        const [field = '', ...rest] = line.split(':');
        const value = rest.join(':').replace(/^ /, '');
        if (field === 'id') event.id = value;
        else if (field === 'retry') event.retry = Number(value);
        else if (field === 'data') event.data += value;
      }
      return event;
    });
}

describe('everything-server over Streamable HTTP', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    child = spawn(process.execPath, [LAUNCHER, '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (\S+)/.exec(out);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${String(code)}`)));
    });
  });

  afterAll(async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  async function initialize(): Promise<string> {
    const response = await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(response.status).toBe(200);
    await response.text();
    const sessionId = response.headers.get('mcp-session-id') ?? '';
    expect(sessionId).toMatch(/^[\x21-\x7e]+$/);
    const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL });
    expect(initialized.status).toBe(202);
    return sessionId;
  }

  it('listens on 127.0.0.1 at /mcp', () => {
    expect(new URL(url).hostname).toBe('127.0.0.1');
    expect(new URL(url).pathname).toBe('/mcp');
  });

  it('refuses a foreign Host or Origin (DNS-rebinding protection)', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect((await post(ping, { origin: 'http://evil.example.com' })).status).toBe(403);
    const foreignHost = await fetch(url, { method: 'POST', headers: { host: 'evil.example.com', 'content-type': 'application/json' }, body: JSON.stringify(ping) }).catch(() => undefined);
    // fetch may refuse to override Host; when it does send it, the server must refuse it.
    if (foreignHost !== undefined) expect(foreignHost.status).toBeGreaterThanOrEqual(400);
  });

  it('closes a tool call stream mid-call and replays the result after Last-Event-ID', async () => {
    const sessionId = await initialize();
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL };
    const call = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'test_reconnection', arguments: {} } }, headers);
    expect(call.headers.get('content-type')).toContain('text/event-stream');
    const first = parseSse(await call.text());
    expect(first[0]).toMatchObject({ data: '' });
    expect(first[0]?.id).toBeTruthy();
    expect(first.some((event) => event.retry !== undefined)).toBe(true);
    expect(first.some((event) => event.data.includes('"id":7'))).toBe(false);
    const lastEventId = first.filter((event) => event.id !== undefined).at(-1)?.id ?? '';

    const resumed = await fetch(url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastEventId } });
    expect(resumed.status).toBe(200);
    const reader = resumed.body?.getReader();
    let text = '';
    while (reader !== undefined && !text.includes('"id":7')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader?.cancel();
    expect(text).toContain('Reconnection test completed');

    const end = await fetch(url, { method: 'DELETE', headers });
    expect(end.status).toBeLessThan(300);
    expect((await post({ jsonrpc: '2.0', id: 8, method: 'ping' }, headers)).status).toBe(404);
  });
});

describe('everything-server --redis', () => {
  it('exits with status 1 and says why when Redis cannot be reached at start', async () => {
    const child = spawn(process.execPath, [LAUNCHER, '--http', '--redis', 'redis://127.0.0.1:1', '--instance-id', 'a'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, STATEMCP_REQUEST_STATE_KEY: 'k'.repeat(32) },
    });
    let err = '';
    let out = '';
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (status) => resolve(status)));
    expect(code).toBe(1);
    expect(err).toContain('cannot join the cluster at redis://127.0.0.1:1');
    expect(out).not.toContain('listening');
  });
});

describe('everything-server over stdio', () => {
  it('serves a client and exits when it closes', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [LAUNCHER, '--stdio'] });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('test_simple_text');
    const read = await client.readResource({ uri: 'test://static-binary' });
    expect(read.contents[0]).toMatchObject({ mimeType: 'image/png' });
    await client.close();
    expect((await client.closed).reason).toBe('closed');
  });
});
