import { InMemoryTransport } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { buildRequestInfoServer, readSeenRequests } from '../../test/request-info-fixture.js';
import { SseClientTransport, StreamableHttpClientTransport } from '../client/index.js';
import { createWebSocketServer, WebSocketClientTransport, type WebSocketMcpServer } from '../ws/index.js';
import { createStreamableHttpServer } from './streamable-http-server.js';
import type { ListeningServer } from './server-options.js';

const closers: (ListeningServer | WebSocketMcpServer)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((server) => server.close()));
});

describe('McpServer handlers read the HTTP request (extra.http)', () => {
  it('sees the POST of each call through the node:http front door, in every handler kind', async () => {
    const mcp = buildRequestInfoServer();
    const listening = await createStreamableHttpServer({ connect: (transport) => mcp.connect(transport) }).listen();
    closers.push(listening);
    const seen = await readSeenRequests(new StreamableHttpClientTransport(listening.url, { headers: { 'x-tenant': 'acme' } }));
    for (const request of [seen.tool, seen.resource, seen.prompt]) {
      expect(request).toMatchObject({ absent: false, method: 'POST', url: listening.url.href, remoteAddress: '127.0.0.1', frozen: true });
      if (request.absent) continue;
      expect(request.headers['x-tenant']).toBe('acme');
      // The client's default era meets this dual-era server in 2026-07-28: no session, routing headers instead.
      expect(request.headers['mcp-session-id']).toBeUndefined();
      expect(request.headers['mcp-method']).toMatch(/^(tools\/call|resources\/read|prompts\/get)$/);
      expect(request.headers['content-type']).toBe('application/json');
    }
  });

  it('sees the POST of each message on the legacy HTTP+SSE endpoint', async () => {
    const mcp = buildRequestInfoServer();
    const listening = await createStreamableHttpServer({ connect: (transport) => mcp.connect(transport), legacySse: true }).listen();
    closers.push(listening);
    const origin = listening.url.origin;
    const seen = await readSeenRequests(new SseClientTransport(`${origin}/sse`, { headers: { 'x-tenant': 'legacy' } }));
    expect(seen.tool).toMatchObject({ absent: false, method: 'POST', remoteAddress: '127.0.0.1', headers: { 'x-tenant': 'legacy' } });
    expect(seen.tool.absent === false && new URL(seen.tool.url).pathname).toBe('/messages');
  });

  it('sees the Request of the fetch front door, with the remote address its caller passed', async () => {
    const mcp = buildRequestInfoServer();
    const http = createStreamableHttpServer({ connect: (transport) => mcp.connect(transport) });
    const seen = await readSeenRequests(
      new StreamableHttpClientTransport('http://localhost/mcp', {
        headers: { 'x-tenant': 'fetch' },
        fetch: (input, init) => http.handleFetch(new Request(input, init), { remoteAddress: '203.0.113.7' }),
      }),
    );
    await http.close();
    expect(seen.tool).toMatchObject({ absent: false, method: 'POST', url: 'http://localhost/mcp', remoteAddress: '203.0.113.7' });
    expect(seen.prompt).toMatchObject({ headers: { 'x-tenant': 'fetch' } });
  });

  it('sees the upgrade request of a WebSocket connection', async () => {
    const mcp = buildRequestInfoServer();
    const ws = await createWebSocketServer({
      port: 0,
      path: '/ws',
      connect: async (transport) => {
        await mcp.connect(transport);
      },
    });
    closers.push(ws);
    const seen = await readSeenRequests(new WebSocketClientTransport(ws.url, { headers: { 'x-tenant': 'socket' } }));
    expect(seen.resource).toMatchObject({ absent: false, method: 'GET', url: `http://127.0.0.1:${ws.port}/ws`, remoteAddress: '127.0.0.1', frozen: true });
    expect(seen.tool).toMatchObject({ headers: { 'x-tenant': 'socket', upgrade: 'websocket' } });
  });

  it('tells handlers there is no HTTP request on a transport without one', async () => {
    const mcp = buildRequestInfoServer();
    const [clientTransport, serverTransport] = InMemoryTransport.createPair();
    await mcp.connect(serverTransport);
    const seen = await readSeenRequests(clientTransport);
    expect(seen).toEqual({ tool: { absent: true }, resource: { absent: true }, prompt: { absent: true } });
  });
});
