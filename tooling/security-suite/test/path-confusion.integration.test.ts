/**
 * Path confusion (issue 32). A request-target such as `//evil.example/mcp` is an origin-form
 * target whose path is `//evil.example/mcp` (RFC 9112 §3.2.1); resolving it against a base URL
 * reads `evil.example` as an authority and `/mcp` as the path, so a server behind a proxy that
 * routes or protects by path prefix would serve its endpoint for a path the proxy never meant
 * for it. Every front door (Streamable HTTP, legacy HTTP+SSE, Protected Resource Metadata, the
 * WebSocket upgrade) reads the target with one parser: such targets are not the endpoint (404),
 * and an absolute-form target naming another host, or a path with dot segments, is refused (400).
 */
import { createStreamableHttpServer, type ListeningServer } from '@statemcp/http-transport/server';
import { createProtectedResource } from '@statemcp/http-transport/auth';
import { createWebSocketServer } from '@statemcp/http-transport/ws';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';
import { INITIALIZE_BODY, POST_HEADERS, sendRaw, tryUpgrade } from '../src/dns-rebinding-wire.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function serve(options: Partial<Parameters<typeof createStreamableHttpServer>[0]> = {}): Promise<ListeningServer> {
  const http = createStreamableHttpServer({
    path: '/mcp',
    connect: (transport) => new McpServer({ name: 'path-target', version: '1.0.0' }).connect(transport),
    ...options,
  });
  const listening = await http.listen({ port: 0 });
  cleanups.push(() => listening.close());
  return listening;
}

describe('request-target parsing', () => {
  it('does not serve //evil.example/mcp as /mcp', async () => {
    const { port } = await serve();
    const host = `127.0.0.1:${port}`;
    const confused = await sendRaw(port, 'POST', '//evil.example/mcp', { ...POST_HEADERS, host }, INITIALIZE_BODY);
    expect(confused.status).toBe(404);
    const plain = await sendRaw(port, 'POST', '/mcp', { ...POST_HEADERS, host }, INITIALIZE_BODY);
    expect(plain.status).toBe(200);
  });

  it('refuses an absolute-form target naming another host (400) and serves one naming this host', async () => {
    const { port } = await serve();
    const host = `127.0.0.1:${port}`;
    const other = await sendRaw(port, 'POST', 'http://other.example/mcp', { ...POST_HEADERS, host }, INITIALIZE_BODY);
    expect(other.status).toBe(400);
    expect(other.body).toMatch(/request target/i);
    // RFC 9112 §3.2.2: a server accepts the absolute-form; here its authority is the Host.
    const same = await sendRaw(port, 'POST', `http://${host}/mcp`, { ...POST_HEADERS, host }, INITIALIZE_BODY);
    expect(same.status).toBe(200);
  });

  it('refuses dot segments and backslashes that would be normalized into /mcp (400)', async () => {
    const { port } = await serve();
    const host = `127.0.0.1:${port}`;
    for (const target of ['/public/../mcp', '/public/%2e%2e/mcp', '/./mcp', '/\\evil.example/mcp']) {
      const answer = await sendRaw(port, 'POST', target, { ...POST_HEADERS, host }, INITIALIZE_BODY);
      expect({ target, status: answer.status }).toEqual({ target, status: 400 });
    }
  });

  it('does not serve the legacy SSE endpoint at //evil.example/sse', async () => {
    const { port } = await serve({ legacySse: true });
    const answer = await sendRaw(port, 'GET', '//evil.example/sse', { accept: 'text/event-stream', host: `127.0.0.1:${port}` });
    expect(answer.status).toBe(404);
  });

  it('does not serve the Protected Resource Metadata document at //evil.example/.well-known/…', async () => {
    const authorization = createProtectedResource({
      resource: 'http://127.0.0.1/mcp',
      authorizationServers: ['https://auth.example'],
      verifier: { verify: () => Promise.reject(new Error('no tokens in this test')) },
    });
    const { port } = await serve({ authorization });
    const host = `127.0.0.1:${port}`;
    const served = await sendRaw(port, 'GET', '/.well-known/oauth-protected-resource/mcp', { host });
    expect(served.status).toBe(200);
    const confused = await sendRaw(port, 'GET', '//evil.example/.well-known/oauth-protected-resource/mcp', { host });
    expect(confused.status).toBe(404);
  });

  it('does not upgrade a WebSocket at //evil.example/mcp when the server serves /mcp', async () => {
    const running = await createWebSocketServer({
      port: 0,
      path: '/mcp',
      connect: async (transport) => {
        await new McpServer({ name: 'path-target', version: '1.0.0' }).connect(transport);
      },
    });
    cleanups.push(() => running.close());
    const host = `127.0.0.1:${running.port}`;
    expect((await tryUpgrade(running.port, '//evil.example/mcp', { host })).status).toBe(404);
    expect((await tryUpgrade(running.port, '/mcp', { host })).status).toBe(101);
  });
});
