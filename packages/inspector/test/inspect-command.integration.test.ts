/**
 * `statemcp-inspect`'s core against servers this project did not write and did: the official
 * `server-everything` over stdio, and a statemcp McpServer over Streamable HTTP. The page's
 * commands go through the WebSocket exactly as the page sends them.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { runInspect, type InspectSession } from '../src/index.js';
import { rawText } from '../src/inspector-server.js';
import { demoServer } from './demo-session.js';

const require = createRequire(import.meta.url);
const sessions: InspectSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
});

/** Sends one command as the page does and resolves with the answer frame. */
async function command(session: InspectSession, method: string, params: Record<string, unknown> = {}): Promise<{ result?: unknown; error?: string }> {
  const socket = new WebSocket(`ws://127.0.0.1:${session.inspector.port}/events?token=${session.inspector.token}`);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const answer = new Promise<{ result?: unknown; error?: string }>((resolve) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(rawText(data)) as { type: string; result?: unknown; error?: string };
      if (frame.type === 'commandResult') resolve(frame);
    });
  });
  socket.send(JSON.stringify({ type: 'command', id: 1, method, params }));
  const frame = await answer;
  socket.close();
  return frame;
}

describe('runInspect', () => {
  it('inspects the official server-everything over stdio and runs the page commands on it', async () => {
    const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
    const session = await runInspect({ target: { kind: 'stdio', command: process.execPath, args: [entry, 'stdio'] }, port: 0 });
    sessions.push(session);
    expect(session.inspector.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    const listed = (await command(session, 'tools/list')).result as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name)).toContain('echo');
    const called = (await command(session, 'tools/call', { name: 'echo', arguments: { message: 'from the page' } })).result as { content: { text: string }[] };
    expect(called.content[0]?.text).toContain('from the page');
    const failed = await command(session, 'tools/call', { name: 'no-such-tool', arguments: {} });
    expect(failed.error ?? JSON.stringify(failed.result)).toMatch(/no-such-tool|not found|Unknown/i);
    const refused = await command(session, 'logging/setLevel', { level: 'debug' });
    expect(refused.error).toMatch(/Unknown command/);
  });

  it('inspects a Streamable HTTP server by URL', async () => {
    const http = await createStreamableHttpServer({ connect: (transport) => demoServer().connect(transport) }).listen({ port: 0 });
    try {
      const session = await runInspect({ target: { kind: 'http', url: http.url.href }, port: 0 });
      sessions.push(session);
      const called = (await command(session, 'tools/call', { name: 'echo', arguments: { text: 'over http' } })).result as { content: { text: string }[] };
      expect(called.content[0]?.text).toBe('over http');
      await session.close();
    } finally {
      await http.close();
    }
  });

  it('fails to start with the connection error and leaves nothing listening', async () => {
    await expect(runInspect({ target: { kind: 'http', url: 'http://127.0.0.1:1/mcp' }, port: 0 })).rejects.toThrow();
  });
});
