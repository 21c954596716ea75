/**
 * The Streamable HTTP client transport's own `node:http` POST (`node-http-post.ts`), on real
 * 127.0.0.1 sockets: taken on the default `fetch` only, with every behaviour of the `fetch`
 * path — JSON and SSE answers, session and version headers, a refused redirect that sends
 * nothing to its `Location`, a refusal's status and body, the POST closed when its 2026-07-28
 * request is cancelled or the transport closes, DELETE on close.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AuthRequiredError, ConnectionClosedError, RedirectRefusedError, TransportError, type JsonRpcMessage } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';

import { RecordingSink, initializeRequest, initializeResult, initializedNotification, settle } from '../../test/fake-http.js';
import { unscopedSignal } from './abort-scope.js';
import { postExchange } from './http-answer.js';
import { HttpResponseError } from './http-errors.js';
import { StreamableHttpClientTransport, type StreamableHttpClientTransportOptions } from './streamable-http.js';
import { serverPerTest, startTestHttpServer } from './test-http-server.js';

const servers = serverPerTest();

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: { id?: unknown; method?: string } | undefined;
}

/** A server recording each request (its JSON body parsed) before `answer` writes the response. */
async function recordingServer(answer: (seen: Seen, res: ServerResponse, req: IncomingMessage) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const url = await servers.serve((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: text === '' ? undefined : (JSON.parse(text) as Seen['body']) };
      seen.push(request);
      answer(request, res, req);
    });
  });
  return { url: `${url}/mcp`, seen };
}

async function started(url: string, options: StreamableHttpClientTransportOptions = {}): Promise<{ transport: StreamableHttpClientTransport; sink: RecordingSink }> {
  const sink = new RecordingSink();
  const transport = new StreamableHttpClientTransport(url, { legacyFallback: false, ...options });
  await transport.start(sink);
  return { transport, sink };
}

/** A 2026-07-28 `tools/call` (its `_meta` names the revision: no session, routing headers). */
function modernCall(id: number): JsonRpcMessage {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' } };
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait', arguments: {}, _meta: meta } };
}

describe('StreamableHttpClientTransport on its own node:http POST', () => {
  it('reads JSON and SSE answers, echoes the session id and version, and DELETEs the session on close', async () => {
    const { url, seen } = await recordingServer((request, res) => {
      if (request.method === 'GET') return void res.writeHead(405).end();
      if (request.method === 'DELETE') return void res.writeHead(200).end();
      if (request.body?.method === 'initialize') return void res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'session-1' }).end(JSON.stringify(initializeResult(request.body.id)));
      if (request.body?.id === undefined) return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`id: e1\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } })}\n\nid: e2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: request.body.id, result: { ok: true } })}\n\n`);
    });
    const { transport, sink } = await started(url);
    await transport.send(initializeRequest);
    transport.setProtocolVersion('2025-11-25');
    await transport.send(initializedNotification);
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } });
    await settle();
    expect(transport.sessionId).toBe('session-1');
    expect(sink.messages).toEqual([initializeResult(0), expect.objectContaining({ method: 'notifications/message' }), { jsonrpc: '2.0', id: 1, result: { ok: true } }]);
    const call = seen.find((request) => request.body?.id === 1);
    expect(call?.headers).toMatchObject({ 'mcp-session-id': 'session-1', 'mcp-protocol-version': '2025-11-25', accept: 'application/json, text/event-stream', 'content-type': 'application/json' });
    await transport.close();
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': 'session-1' } });
    expect(sink.errors).toEqual([]);
  });

  it('sends the head node:http would: Host, Content-Length, Basic credentials from the URL, and the caller headers', async () => {
    const { url, seen } = await recordingServer((request, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: request.body?.id, result: {} })));
    const target = new URL(url);
    const withUser = `http://user%20a:p%40ss@${target.host}/mcp`;
    const { transport } = await started(withUser, { headers: { 'X-Trace': 't1', 'x-trace': 't2' } });
    const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'héllo' } } } as const;
    await transport.send(body);
    const { transport: second } = await started(url, { headers: { authorization: 'Bearer own', host: 'example.test' } });
    await second.send({ ...body, id: 8 });
    expect(seen[0]?.headers).toMatchObject({
      host: target.host,
      'content-length': String(Buffer.byteLength(JSON.stringify(body))),
      authorization: `Basic ${Buffer.from('user a:p@ss').toString('base64')}`,
      'x-trace': 't1, t2',
      'content-type': 'application/json',
    });
    expect(seen[0]?.headers['transfer-encoding']).toBeUndefined();
    expect(seen[1]?.headers).toMatchObject({ host: 'example.test', authorization: 'Bearer own' });
    await Promise.all([transport.terminate(), second.terminate()]);
  });

  it('refuses a redirect of a POST and sends nothing to its Location, on this origin or another', async () => {
    const elsewhere = await startTestHttpServer((_req, res) => res.end('{}'));
    try {
      let target = '/moved';
      const { url, seen } = await recordingServer((_request, res) => void res.writeHead(307, { location: target }).end('moved'));
      const { transport } = await started(url);
      const sameOrigin = transport.send(initializeRequest);
      await expect(sameOrigin).rejects.toBeInstanceOf(RedirectRefusedError);
      await expect(sameOrigin).rejects.toMatchObject({ refusal: 'not-followed', location: `${new URL(url).origin}/moved` });
      target = `${elsewhere.url}/mcp`;
      await expect(transport.send(initializeRequest)).rejects.toMatchObject({ refusal: 'cross-origin', location: target });
      expect(seen.map((request) => request.url)).toEqual(['/mcp', '/mcp']);
      expect(elsewhere.connections).toBe(0);
      await transport.terminate();
    } finally {
      await elsewhere.close();
    }
  });

  it('fails a refused POST with its status and the start of its body, and 401 as AuthRequiredError', async () => {
    let status = 500;
    const { url } = await recordingServer((_request, res) => {
      res.writeHead(status, { 'content-type': 'text/html', 'www-authenticate': 'Bearer realm="mcp"' });
      res.end(`<html><body><h1>Broken</h1>${'x'.repeat(10_000)}</body></html>`);
    });
    const { transport, sink } = await started(url);
    const failed = await transport.send(initializeRequest).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(TransportError);
    const cause = (failed as Error).cause as HttpResponseError;
    expect(cause).toBeInstanceOf(HttpResponseError);
    expect(cause).toMatchObject({ status: 500, method: 'POST' });
    expect(cause.body.startsWith('<html><body><h1>Broken</h1>x')).toBe(true);
    expect(cause.body).toHaveLength(2048);
    expect(sink.errors).toEqual([failed]);
    status = 401;
    const refused = await transport.send(initializeRequest).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthRequiredError);
    expect(((refused as Error).cause as HttpResponseError).wwwAuthenticate).toBe('Bearer realm="mcp"');
    await transport.terminate();
  });

  it('closes the POST of a cancelled 2026-07-28 request, and the POSTs in flight on close', async () => {
    const closed: unknown[] = [];
    const { url, seen } = await recordingServer((request, res) => {
      // Never answered: the client ends each exchange.
      res.on('close', () => closed.push(request.body?.id));
    });
    const { transport } = await started(url);
    const cancelled = transport.send(modernCall(7)).catch((error: unknown) => error);
    const pending = transport.send(modernCall(8)).catch((error: unknown) => error);
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[0]?.headers).toMatchObject({ 'mcp-method': 'tools/call', 'mcp-name': 'wait', 'mcp-protocol-version': '2026-07-28' });
    expect(seen[0]?.headers['mcp-session-id']).toBeUndefined();
    expect(transport.cancelRequest(7)).toBe(true);
    expect(transport.cancelRequest(7)).toBe(false);
    await expect.poll(() => closed).toEqual([7]);
    expect(await cancelled).toMatchObject({ name: 'TransportError', cause: { name: 'AbortError' } });
    await transport.terminate();
    expect(await pending).toBeInstanceOf(ConnectionClosedError);
    await expect.poll(() => closed).toEqual([7, 8]);
  });

  it('stops reading an SSE answer whose 2026-07-28 request is cancelled, and closes its connection', async () => {
    const closed: unknown[] = [];
    const { url } = await recordingServer((request, res) => {
      res.on('close', () => closed.push(request.body?.id));
      // The stream opens with a priming event and never carries the answer.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: p1\ndata: \n\n');
    });
    const { transport, sink } = await started(url);
    await transport.send(modernCall(9));
    expect(transport.cancelRequest(9)).toBe(true);
    await expect.poll(() => closed).toEqual([9]);
    await settle();
    // Cancelled, not undeliverable: the session settles a cancelled request itself.
    expect(sink.undeliverable).toEqual([]);
    await transport.terminate();
  });
});

describe('postExchange', () => {
  it('POSTs on node:http by default, and with the given fetch once a fetch, requestInit or authProvider is set', async () => {
    const { url, seen } = await recordingServer((_request, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    const calls: RequestInit[] = [];
    const fetch: typeof globalThis.fetch = (_input, init) => {
      calls.push(init ?? {});
      return Promise.resolve(new Response('{"via":"fetch"}', { headers: { 'content-type': 'application/json' } }));
    };
    const headers = { 'content-type': 'application/json' };
    const direct = await postExchange(new URL(url), {}, fetch)(headers, '{"id":1}', unscopedSignal());
    await expect(direct.text(1024, 'body')).resolves.toBe('{"ok":true}');
    expect(calls).toEqual([]);
    expect(seen).toHaveLength(1);
    const authProvider = { headers: () => ({}), onResponse: () => false };
    for (const options of [{ fetch }, { requestInit: { credentials: 'omit' as const } }, { authProvider }]) {
      const stop = unscopedSignal();
      const answer = await postExchange(new URL(url), options, fetch)(headers, '{"id":2}', stop);
      await expect(answer.text(1024, 'body')).resolves.toBe('{"via":"fetch"}');
      expect(calls.at(-1)).toMatchObject({ method: 'POST', body: '{"id":2}', redirect: 'manual', signal: stop.signal });
    }
    expect(calls).toHaveLength(3);
    expect(seen).toHaveLength(1);
  });
});
