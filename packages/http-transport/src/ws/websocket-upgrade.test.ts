import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { refusalReply, refuseUpgrade, textRefusal } from './websocket-upgrade.js';

const forbidden = (): Response =>
  new Response(JSON.stringify({ error: 'insufficient_scope', error_description: 'this request needs scope admin' }), {
    status: 403,
    headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="insufficient_scope", scope="admin"' },
  });

describe('refusalReply', () => {
  it('answers a refused request with an error carrying the status, the OAuth error and the challenge', async () => {
    const reply = await refusalReply([{ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'wipe' } }], forbidden(), false);
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: {
        code: -32600,
        message: 'Forbidden (insufficient_scope): this request needs scope admin',
        data: { status: 403, error: 'insufficient_scope', wwwAuthenticate: 'Bearer error="insufficient_scope", scope="admin"' },
      },
    });
  });

  it('answers each request of a refused batch in an array, and nothing for notifications', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 'a', method: 'tools/call' },
      { jsonrpc: '2.0', method: 'notifications/progress' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
    ];
    const replies = await refusalReply(batch, forbidden(), true);
    expect(replies).toEqual([expect.objectContaining({ id: 'a' }), expect.objectContaining({ id: 'b' })]);
    expect(await refusalReply([{ jsonrpc: '2.0', method: 'notifications/progress' }], forbidden(), false)).toBeUndefined();
  });
});

describe('refuseUpgrade', () => {
  it('writes the status line, the headers and the body, then ends the socket', async () => {
    const socket = new PassThrough();
    const written: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => written.push(chunk));
    const ended = new Promise<void>((resolve) => socket.on('end', resolve));
    await refuseUpgrade(socket, new Response('no token\n', { status: 401, headers: { 'www-authenticate': 'Bearer realm="mcp"' } }));
    await ended;
    const text = Buffer.concat(written).toString('latin1');
    expect(text.startsWith('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n')).toBe(true);
    expect(text).toContain('www-authenticate: Bearer realm="mcp"\r\n');
    expect(text).toContain('Content-Length: 9\r\n\r\nno token\n');
  });

  it('gives a plain-text refusal its status', async () => {
    const response = textRefusal(404, 'No MCP WebSocket endpoint at /x');
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('No MCP WebSocket endpoint at /x\n');
  });
});
