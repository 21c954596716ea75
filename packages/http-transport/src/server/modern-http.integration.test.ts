/**
 * The 2026-07-28 wire on the same endpoint as legacy sessions, on real 127.0.0.1 sockets with
 * raw `fetch`: a sessionless POST whose body is a modern request is served statelessly, its
 * routing headers are checked against the body (-32020), errors carry the request id and the
 * HTTP status of their code (400, 404), progress turns the answer into SSE, and a legacy
 * client's session keeps working beside it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Servers } from '../../test/mcp-fixture.js';
import { postInit } from './test-support.js';

const servers = new Servers();
afterEach(() => servers.closeAll());

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

function headersFor(method: string, name?: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
  };
  if (name !== undefined) headers['mcp-name'] = name;
  return headers;
}

async function post(url: string, body: object, headers: Record<string, string>): Promise<{ status: number; type: string; text: string; json: () => Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type') ?? '', text, json: () => JSON.parse(text) as Record<string, unknown> };
}

describe('Streamable HTTP server, 2026-07-28 requests', () => {
  it('serves server/discover statelessly as JSON, without a session id', async () => {
    const { url } = await servers.start();
    const response = await fetch(url, { method: 'POST', headers: headersFor('server/discover'), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } }) });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toMatchObject({ id: 1, result: { resultType: 'complete', supportedVersions: [MODERN], ttlMs: 0, cacheScope: 'private' } });
  });

  it('answers a missing _meta with 400 and -32602 carrying the request id', async () => {
    const { url } = await servers.start();
    const answer = await post(url, { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }, headersFor('tools/list'));
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({ id: 7, error: { code: -32602 } });
  });

  it('answers an unsupported version with 400 and -32022 naming the supported ones', async () => {
    const { url } = await servers.start();
    const meta = { ...META, 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' };
    const answer = await post(url, { jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: meta } }, { ...headersFor('server/discover'), 'mcp-protocol-version': 'v999.0.0' });
    expect(answer.status).toBe(400);
    expect(answer.json()).toMatchObject({ id: 3, error: { code: -32022, data: { supported: [MODERN], requested: 'v999.0.0' } } });
  });

  it('answers removed and unknown methods with 404 and -32601', async () => {
    const { url } = await servers.start();
    for (const method of ['initialize', 'ping', 'unknown/method']) {
      const answer = await post(url, { jsonrpc: '2.0', id: 4, method, params: { _meta: META } }, headersFor(method));
      expect(answer.status).toBe(404);
      expect(answer.json()).toMatchObject({ id: 4, error: { code: -32601 } });
    }
  });

  it('rejects routing headers that disagree with the body with 400 and -32020', async () => {
    const { url } = await servers.start();
    const call = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: META } };
    const cases: Record<string, string>[] = [
      { ...headersFor('tools/call', 'echo'), 'mcp-method': 'tools/list' },
      { ...headersFor('tools/call', 'other') },
      headersFor('tools/call'),
      { ...headersFor('tools/call', 'echo'), 'mcp-method': 'TOOLS/CALL' },
      { ...headersFor('tools/call', 'echo'), 'mcp-protocol-version': '2025-11-25' },
    ];
    for (const headers of cases) {
      const answer = await post(url, call, headers);
      expect(answer.status).toBe(400);
      expect(answer.json()).toMatchObject({ id: 5, error: { code: -32020 } });
    }
    const { 'mcp-method': _lower, ...rest } = headersFor('tools/call', '  echo  ');
    const ok = await post(url, call, { ...rest, 'MCP-METHOD': 'tools/call' });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ id: 5, result: { content: [{ type: 'text', text: 'x' }] } });
  });

  it('streams progress as SSE when the request asked for it', async () => {
    const { url } = await servers.start();
    const body = { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'count', arguments: {}, _meta: { ...META, progressToken: 'p' } } };
    const answer = await post(url, body, headersFor('tools/call', 'count'));
    expect(answer.status).toBe(200);
    expect(answer.type).toContain('text/event-stream');
    const events = answer.text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    expect(events.filter((event) => event.method === 'notifications/progress')).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ id: 6, result: { resultType: 'complete', content: [{ text: 'counted' }] } });
  });

  it('serves each request without a session, and aborts its handler when the client goes away', async () => {
    const started = await servers.start();
    let reached: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (reached = resolve));
    let abortReason: Promise<unknown> | undefined;
    started.mcp.registerTool('wait', { description: 'Waits until cancelled' }, (_args, extra) => {
      abortReason = new Promise((resolve) => extra.signal.addEventListener('abort', () => resolve(extra.signal.reason), { once: true }));
      reached();
      return abortReason.then(() => ({ content: [] }));
    });
    const controller = new AbortController();
    const body = { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'wait', arguments: {}, _meta: META } };
    const pending = fetch(started.url, { method: 'POST', headers: headersFor('tools/call', 'wait'), body: JSON.stringify(body), signal: controller.signal }).catch(() => undefined);
    await running;
    expect(started.mcp.connections).toEqual([]);
    controller.abort();
    await pending;
    await expect(abortReason).resolves.toMatchObject({ message: 'The client went away' });
  });

  it('keeps legacy sessions working on the same endpoint', async () => {
    const { url } = await servers.start();
    const init = await fetch(url, postInit({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } } }));
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).not.toBeNull();
  });
});
