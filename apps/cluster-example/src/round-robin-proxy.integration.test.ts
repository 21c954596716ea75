import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.js';

interface Target {
  readonly url: URL;
  readonly seen: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[];
  readonly server: Server;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});

async function target(name: string, handle?: (request: IncomingMessage, response: ServerResponse) => void): Promise<Target> {
  const seen: Target['seen'] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body });
      if (handle !== undefined) handle(request, response);
      else response.end(`${name} ${request.method ?? ''} ${body}`);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  open.push({ close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) });
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), seen, server };
}

async function proxy(targets: readonly Target[]): Promise<RoundRobinProxy> {
  const started = await startRoundRobinProxy({ targets: targets.map((item) => item.url) });
  open.push(started);
  return started;
}

describe('startRoundRobinProxy', () => {
  it('sends request n to target n mod N, whatever the method, with path, body and end-to-end headers', async () => {
    const targets = await Promise.all(['a', 'b', 'c'].map((name) => target(name)));
    const { url } = await proxy(targets);
    const answers: string[] = [];
    for (const method of ['POST', 'GET', 'DELETE', 'POST']) {
      const response = await fetch(new URL('/mcp?x=1', url), {
        method,
        headers: { 'mcp-session-id': 's-1', 'last-event-id': 'e-7', 'x-custom': 'kept', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
        ...(method === 'POST' ? { body: '{"n":1}' } : {}),
      });
      answers.push(await response.text());
    }
    expect(answers).toEqual(['a POST {"n":1}', 'b GET ', 'c DELETE ', 'a POST {"n":1}']);
    const first = targets[0]?.seen[0];
    expect(first).toMatchObject({ method: 'POST', path: '/mcp?x=1', body: '{"n":1}' });
    expect(first?.headers).toMatchObject({ host: url.host, 'mcp-session-id': 's-1', 'last-event-id': 'e-7', 'x-custom': 'kept' });
  });

  it('streams server-sent events chunk by chunk, before the response ends', async () => {
    let finish: (() => void) | undefined;
    const sse = await target('sse', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's-2' });
      response.write('id: 1\ndata: first\n\n');
      finish = () => response.end('id: 2\ndata: second\n\n');
    });
    const { url } = await proxy([sse]);
    const response = await fetch(new URL('/mcp', url), { headers: { accept: 'text/event-stream' } });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('mcp-session-id')).toBe('s-2');
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toBe('id: 1\ndata: first\n\n');
    finish?.();
    let rest = '';
    for (let chunk = await reader?.read(); chunk !== undefined && !chunk.done; chunk = await reader?.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('id: 2\ndata: second\n\n');
  });

  it('aborts the forwarded request when the client goes away', async () => {
    const closed = new Promise<void>((resolve) => {
      void target('slow', (request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(': open\n\n');
        response.once('close', () => resolve());
        void request;
      }).then(async (slow) => {
        const { url } = await proxy([slow]);
        const abort = new AbortController();
        const response = await fetch(new URL('/mcp', url), { signal: abort.signal });
        await response.body?.getReader().read();
        abort.abort();
      });
    });
    await closed;
  });

  it('answers 502 with a JSON-RPC error when the target cannot be reached', async () => {
    const gone = await target('gone');
    await new Promise<void>((resolve) => (gone.server.closeAllConnections(), gone.server.close(() => resolve())));
    const { url } = await proxy([gone]);
    const response = await fetch(new URL('/mcp', url), { method: 'POST', body: '{}' });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32603 } });
  });

  it('refuses an empty target list', async () => {
    await expect(startRoundRobinProxy({ targets: [] })).rejects.toThrow(RangeError);
  });
});
