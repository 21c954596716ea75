/**
 * DNS rebinding on non-loopback binds (issue 32). A page on `evil.example` whose name the
 * attacker re-points at the server's address talks to it "same-origin": its requests carry
 * `Host: evil.example` and a matching `Origin`. A server that listens on a non-loopback
 * address must therefore be told which names it answers to (`allowedHosts`): `listen()` and
 * `createWebSocketServer()` refuse to start without them, and a handler used on its own
 * (`handleNodeRequest` on a request that arrived on a non-loopback address) accepts only that
 * address itself as `Host`.
 *
 * The servers may bind all interfaces; the tests connect to 127.0.0.1 only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AllowedHostsRequiredError, createStreamableHttpServer, type ListeningServer } from '@statemcp/http-transport/server';
import { createWebSocketServer, type WebSocketMcpServer } from '@statemcp/http-transport/ws';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';
import { INITIALIZE_BODY, POST_HEADERS, sendRaw, tryUpgrade } from '../src/dns-rebinding-wire.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'rebinding-target', version: '1.0.0' });
  server.registerTool('secret', { description: 'Something only the owner should read' }, () => ({ content: [{ type: 'text', text: 'secret' }] }));
  return server;
}

/** What a listen attempt came to: the typed error, or `'listening'` (the server is closed again). */
async function outcomeOf(attempt: Promise<ListeningServer | WebSocketMcpServer>): Promise<unknown> {
  return attempt.then(
    async (running) => {
      await running.close();
      return 'listening';
    },
    (error: unknown) => error,
  );
}

describe('DNS rebinding on non-loopback binds', () => {
  it('refuses to listen on 0.0.0.0 without allowedHosts, with a typed error naming the option', async () => {
    const http = createStreamableHttpServer({ connect: (transport) => mcpServer().connect(transport) });
    const outcome = await outcomeOf(http.listen({ host: '0.0.0.0', port: 0 }));
    expect(outcome).toMatchObject({ name: 'AllowedHostsRequiredError', code: 'INVALID_ARGUMENT', bindAddress: '0.0.0.0' });
    expect(outcome).toBeInstanceOf(AllowedHostsRequiredError);
    expect((outcome as Error).message).toMatch(/allowedHosts: \['mcp\.example\.com'\]/);
  });

  it('with allowedHosts on 0.0.0.0, refuses Host evil.example with a matching Origin (403) and serves an allowed name', async () => {
    const http = createStreamableHttpServer({ connect: (transport) => mcpServer().connect(transport), allowedHosts: ['mcp.test'] });
    const listening = await http.listen({ host: '0.0.0.0', port: 0 });
    cleanups.push(() => listening.close());
    const { port } = listening;

    const rebound = await sendRaw(port, 'POST', '/mcp', { ...POST_HEADERS, host: `evil.example:${port}`, origin: `http://evil.example:${port}` }, INITIALIZE_BODY);
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/Host not allowed/);

    const allowed = await sendRaw(port, 'POST', '/mcp', { ...POST_HEADERS, host: `mcp.test:${port}`, origin: `http://mcp.test:${port}` }, INITIALIZE_BODY);
    expect(allowed.status).toBe(200);
    expect(allowed.headers['mcp-session-id']).toEqual(expect.any(String));
  });

  it('a handler on a request that arrived on a non-loopback address accepts that address as Host, never a name', async () => {
    const mcp = createStreamableHttpServer({ connect: (transport) => mcpServer().connect(transport) });
    // What `handleNodeRequest` sees when its node:http server listens on all interfaces and a
    // request arrives on the LAN address 192.0.2.10 (the socket here is loopback; the local
    // address is told to the handler as a framework or proxy adapter would).
    const http: Server = createServer((req, res) => void mcp.handleNodeRequest(req, res, { localAddress: '192.0.2.10' }));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      await mcp.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    });
    const { port } = http.address() as AddressInfo;

    const rebound = await sendRaw(port, 'POST', '/mcp', { ...POST_HEADERS, host: `evil.example:${port}`, origin: `http://evil.example:${port}` }, INITIALIZE_BODY);
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/allowedHosts/);

    const byAddress = await sendRaw(port, 'POST', '/mcp', { ...POST_HEADERS, host: `192.0.2.10:${port}` }, INITIALIZE_BODY);
    expect(byAddress.status).toBe(200);
  });

  it('keeps loopback binds working with no options, and refuses a foreign Host there', async () => {
    const listening = await createStreamableHttpServer({ connect: (transport) => mcpServer().connect(transport) }).listen({ port: 0 });
    cleanups.push(() => listening.close());
    const ok = await sendRaw(listening.port, 'POST', '/mcp', { ...POST_HEADERS, host: `127.0.0.1:${listening.port}` }, INITIALIZE_BODY);
    expect(ok.status).toBe(200);
    const rebound = await sendRaw(listening.port, 'POST', '/mcp', { ...POST_HEADERS, host: 'evil.example', origin: 'http://evil.example' }, INITIALIZE_BODY);
    expect(rebound.status).toBe(403);
  });

  describe('the WebSocket server', () => {
    const connect = async (transport: Parameters<Parameters<typeof createWebSocketServer>[0]['connect']>[0]): Promise<void> => {
      await mcpServer().connect(transport);
    };

    it('refuses to listen on 0.0.0.0 without allowedHosts, with the same typed error', async () => {
      const outcome = await outcomeOf(createWebSocketServer({ host: '0.0.0.0', port: 0, connect }));
      expect(outcome).toMatchObject({ name: 'AllowedHostsRequiredError', code: 'INVALID_ARGUMENT', bindAddress: '0.0.0.0' });
      expect(outcome).toBeInstanceOf(AllowedHostsRequiredError);
      expect((outcome as Error).message).toMatch(/allowedHosts/);
    });

    it('with allowedHosts on 0.0.0.0, refuses an upgrade with Host evil.example and a matching Origin (403)', async () => {
      const running = await createWebSocketServer({ host: '0.0.0.0', port: 0, path: '/mcp', allowedHosts: ['mcp.test'], connect });
      cleanups.push(() => running.close());
      const rebound = await tryUpgrade(running.port, '/mcp', { host: `evil.example:${running.port}`, origin: `http://evil.example:${running.port}` });
      expect(rebound.status).toBe(403);
      const allowed = await tryUpgrade(running.port, '/mcp', { host: `mcp.test:${running.port}`, origin: `http://mcp.test:${running.port}` });
      expect(allowed.status).toBe(101);
    });
  });
});
