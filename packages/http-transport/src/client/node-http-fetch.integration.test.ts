import { Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { RedirectRefusedError } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { createNodeHttpFetch, nodeHttpFetch, responseHeader } from './node-http-fetch.js';
import { serverPerTest, startTestHttpServer } from './test-http-server.js';

const servers = serverPerTest();
const serve = servers.serve;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describe('nodeHttpFetch', () => {
  it('POSTs a body with headers and returns status, headers and the body', async () => {
    const base = await serve((req, res) => {
      void readBody(req).then((body) => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-echo-header': req.headers['x-test'] ?? '' });
        res.end(JSON.stringify({ method: req.method, body }));
      });
    });
    const response = await nodeHttpFetch(`${base}/mcp`, { method: 'POST', headers: { 'x-test': 'yes', 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-echo-header')).toBe('yes');
    await expect(response.json()).resolves.toEqual({ method: 'POST', body: '{"a":1}' });
  });

  it('sends a plain record of any spelling, and reads one response header as Headers would', async () => {
    const base = await serve((req, res) => {
      res.setHeader('x-echo', `${String(req.headers['x-mixed'] ?? '')}|${String(req.headers['x-lower'] ?? '')}`);
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.end('ok');
    });
    const response = await nodeHttpFetch(`${base}/`, { headers: { 'X-Mixed': 'one', 'x-mixed': 'two', 'x-lower': 'three' } });
    expect(responseHeader(response, 'x-echo')).toBe('one, two|three');
    expect(responseHeader(response, 'set-cookie')).toBe('a=1, b=2');
    expect(responseHeader(response, 'x-absent')).toBeNull();
    expect(response.headers.get('x-echo')).toBe('one, two|three');
    expect(responseHeader(response, 'set-cookie')).toBe(response.headers.get('set-cookie'));
    await expect(response.text()).resolves.toBe('ok');
    await expect(nodeHttpFetch(`${base}/`, { headers: { 'x-bad': 'line\nbreak' } })).rejects.toThrow(TypeError);
  });

  it('sends the path with its query, and userinfo as Basic credentials, on every request to the same URL', async () => {
    const seen: string[] = [];
    const base = await serve((req, res) => {
      seen.push(`${req.url ?? ''} ${req.headers.authorization ?? '-'}`);
      res.end('ok');
    });
    const withQuery = `${base}/mcp/a%20b?x=1&y=%2F`;
    const withUser = base.replace('http://', 'http://us%40er:p%3Ass@');
    for (const url of [withQuery, withQuery, withUser, `${withUser}/`]) await (await nodeHttpFetch(url)).text();
    const basic = `Basic ${Buffer.from('us@er:p:ss').toString('base64')}`;
    expect(seen).toEqual(['/mcp/a%20b?x=1&y=%2F -', '/mcp/a%20b?x=1&y=%2F -', `/ ${basic}`, `/ ${basic}`]);
  });

  it('streams the body as it arrives (SSE)', async () => {
    let finish: (() => void) | undefined;
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      finish = () => res.end('data: two\n\n');
    });
    const response = await nodeHttpFetch(base, { method: 'GET' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    finish?.();
    const rest: string[] = [];
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      rest.push(new TextDecoder().decode(next.value));
    }
    expect(rest.join('')).toBe('data: two\n\n');
  });

  it('gives 202 and 204 responses without trouble', async () => {
    const base = await serve((req, res) => {
      res.writeHead(req.url === '/empty' ? 204 : 202);
      res.end();
    });
    expect((await nodeHttpFetch(`${base}/empty`, { method: 'DELETE' })).status).toBe(204);
    const accepted = await nodeHttpFetch(`${base}/notify`, { method: 'POST', body: '{}' });
    expect(accepted.status).toBe(202);
    await expect(accepted.text()).resolves.toBe('');
  });

  it('rejects at once when aborted before the response, and errors the body when aborted after', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/slow') return; // never answers
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
    });
    const before = new AbortController();
    const pending = nodeHttpFetch(`${base}/slow`, { method: 'GET', signal: before.signal });
    before.abort(new Error('stop waiting'));
    await expect(pending).rejects.toThrow('stop waiting');

    const after = new AbortController();
    const response = await nodeHttpFetch(`${base}/stream`, { method: 'GET', signal: after.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    after.abort(new Error('closed by the client'));
    await expect(reader.read()).rejects.toThrow();
  });

  it('follows a same-origin 307 keeping method and body, without credentials, session id or custom headers', async () => {
    const seen: IncomingMessage['headers'][] = [];
    const base = await serve((req, res) => {
      seen.push(req.headers);
      if (req.url === '/old') {
        res.writeHead(307, { location: '/new' });
        res.end('moved');
        return;
      }
      void readBody(req).then((body) => res.end(`${req.method} ${req.url ?? ''} ${body}`));
    });
    const headers = { authorization: 'Bearer t', dpop: 'proof', 'mcp-session-id': 's', 'x-api-key': 'k', 'content-type': 'text/plain' };
    const response = await nodeHttpFetch(`${base}/old`, { method: 'POST', headers, body: 'payload' });
    await expect(response.text()).resolves.toBe('POST /new payload');
    expect(seen[0]).toMatchObject(headers);
    expect(seen[1]?.['content-type']).toBe('text/plain');
    for (const name of ['authorization', 'dpop', 'mcp-session-id', 'x-api-key']) expect(seen[1]?.[name]).toBeUndefined();
    // The redirect's body was drained: both requests used one keep-alive connection.
    expect(servers.current?.connections).toBe(1);
  });

  it('refuses a redirect to another origin with RedirectRefusedError, and hands a manual one back as it came', async () => {
    const other = await startTestHttpServer((_req, res) => res.end('should not be reached'));
    try {
      let reached = 0;
      other.server.on('request', () => reached++);
      const base = await serve((_req, res) => {
        res.writeHead(302, { location: `${other.url}/steal` });
        res.end();
      });
      await expect(nodeHttpFetch(`${base}/mcp`, { headers: { authorization: 'Bearer t' } })).rejects.toMatchObject({
        name: 'RedirectRefusedError',
        refusal: 'cross-origin',
        location: `${other.url}/steal`,
      });
      const manual = await nodeHttpFetch(`${base}/mcp`, { redirect: 'manual' });
      expect(manual.status).toBe(302);
      expect(manual.headers.get('location')).toBe(`${other.url}/steal`);
      await expect(nodeHttpFetch(`${base}/mcp`, { redirect: 'error' })).rejects.toBeInstanceOf(RedirectRefusedError);
      expect(reached).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('reports a refused connection as fetch does (TypeError with a cause)', async () => {
    const base = await serve((_req, res) => res.end());
    await servers.close();
    await expect(nodeHttpFetch(base, { method: 'GET' })).rejects.toMatchObject({ name: 'TypeError', message: 'fetch failed' });
  });

  it('retries once when a pooled keep-alive socket was closed by the server while idle', async () => {
    let requests = 0;
    const base = await serve((_req, res) => {
      requests++;
      res.end('ok');
    });
    expect(await (await nodeHttpFetch(base, { method: 'POST', body: 'a' })).text()).toBe('ok');
    // The server drops the idle connection; the client's pool may still hand it out.
    servers.current?.server.closeIdleConnections();
    expect(await (await nodeHttpFetch(base, { method: 'POST', body: 'b' })).text()).toBe('ok');
    expect(requests).toBe(2);
  });

  it('never makes a request wait behind 300 long-lived streams to the same host (no socket cap)', async () => {
    const streams: ServerResponse[] = [];
    const base = await serve((req, res) => {
      if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': open\n\n');
        streams.push(res);
        return;
      }
      res.end('pong');
    });
    const controller = new AbortController();
    try {
      const opened = await Promise.all(Array.from({ length: 300 }, () => nodeHttpFetch(`${base}/stream`, { method: 'GET', signal: controller.signal })));
      expect(opened.every((response) => response.status === 200)).toBe(true);
      expect(streams).toHaveLength(300);
      // The 301st request to the host gets a socket at once instead of queueing behind the streams.
      const answer = await nodeHttpFetch(`${base}/ping`, { method: 'POST', body: 'x' });
      expect(await answer.text()).toBe('pong');
    } finally {
      controller.abort();
    }
  });

  it('uses the agents it is given', async () => {
    const base = await serve((_req, res) => res.end('ok'));
    const agent = new Agent({ keepAlive: false, maxSockets: 1 });
    let created = 0;
    const createConnection = agent.createConnection.bind(agent);
    agent.createConnection = ((...args: Parameters<typeof createConnection>) => {
      created++;
      return createConnection(...args);
    });
    const fetchWithAgent = createNodeHttpFetch({ httpAgent: agent });
    expect(await (await fetchWithAgent(base, { method: 'GET' })).text()).toBe('ok');
    expect(created).toBe(1);
    agent.destroy();
  });
});
