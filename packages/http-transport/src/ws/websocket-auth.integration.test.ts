/**
 * Authentication of the WebSocket server on real sockets: the `authenticate` hook and the
 * `authorization` layer of the HTTP server, checked at the upgrade; per-tool scopes checked on
 * each request over the socket; the metadata document served on plain GETs; a connection closed
 * when its token expires.
 */
import { Client } from '@statemcp/client';
import { SimulatedClock } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';

import { jwtVerifier } from '../auth/jwt-verifier.js';
import { createProtectedResource } from '../auth/protected-resource.js';
import { ISSUER, NOW_MS, createTestIssuer } from '../auth/test-tokens.js';
import { WebSocketClientTransport, createWebSocketServer, type WebSocketMcpServer, type WebSocketServerOptions } from './index.js';

const RESOURCE = 'https://mcp.test.example/mcp';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A server with tools `whoami` (names `authInfo`) and `wipe`; `calls` counts handler runs. */
async function serve(options: Partial<WebSocketServerOptions>): Promise<{ running: WebSocketMcpServer; calls: { wipe: number } }> {
  const calls = { wipe: 0 };
  const running = await createWebSocketServer({
    port: 0,
    path: '/mcp',
    ...options,
    connect: async (transport) => {
      const server = new McpServer({ name: 'ws-auth', version: '1.0.0' });
      server.registerTool('whoami', { description: 'Names the caller' }, (_args, extra) => ({
        content: [{ type: 'text', text: JSON.stringify(extra.auth ?? extra.authInfo ?? null) }],
      }));
      server.registerTool('wipe', { description: 'Needs admin' }, () => {
        calls.wipe += 1;
        return { content: [{ type: 'text', text: 'wiped' }] };
      });
      await server.connect(transport);
    },
  });
  cleanups.push(() => running.close());
  return { running, calls };
}

async function connectClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'ws-auth-client', version: '1.0.0' });
  await client.connect(new WebSocketClientTransport(url, { headers }));
  cleanups.push(() => client.close());
  return client;
}

describe('createWebSocketServer', () => {
  describe('authenticate', () => {
    const authenticate: WebSocketServerOptions['authenticate'] = (request) => {
      const header = request.headers.get('authorization');
      if (header === null) return new Response('sign in first', { status: 401, headers: { 'www-authenticate': 'Bearer realm="ws"' } });
      if (header !== 'Bearer good') throw new Error('unknown token');
      return { user: 'bob' };
    };

    it('answers the upgrade with the hook’s Response, or 401 when it throws', async () => {
      const { running } = await serve({ authenticate });
      await expect(connectClient(running.url)).rejects.toThrow(/HTTP 401/);
      await expect(connectClient(running.url, { authorization: 'Bearer bad' })).rejects.toThrow(/HTTP 401/);
      expect(running.connections.size).toBe(0);
    });

    it('hands what the hook returned to every handler as authInfo', async () => {
      const { running } = await serve({ authenticate });
      const client = await connectClient(running.url, { authorization: 'Bearer good' });
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ user: 'bob' }) }]);
      expect([...running.connections][0]?.authInfo).toEqual({ user: 'bob' });
    });
  });

  describe('authorization', () => {
    /**
     * The test issuer's tokens expire an hour after NOW_MS, in the past of the wall clock, so the
     * connection timers run on a `SimulatedClock` that moves only when a test says.
     */
    async function protectedServe(clock = new SimulatedClock()): Promise<{ running: WebSocketMcpServer; calls: { wipe: number }; token: (scope: string) => Promise<string> }> {
      const issuer = await createTestIssuer(RESOURCE);
      const authorization = createProtectedResource({
        resource: RESOURCE,
        authorizationServers: [ISSUER],
        verifier: jwtVerifier({ issuer: ISSUER, jwks: issuer.jwks, audience: RESOURCE, now: () => NOW_MS }),
        requiredScopes: ['mcp'],
        toolScopes: { wipe: ['admin'] },
        now: () => NOW_MS,
      });
      const served = await serve({ authorization, clock });
      return { ...served, token: (scope) => issuer.token({ scope }) };
    }

    it('refuses a request over the socket that lacks a tool scope, without running the tool', async () => {
      const { running, calls, token } = await protectedServe();
      const client = await connectClient(running.url, { authorization: `Bearer ${await token('mcp')}` });
      await expect(client.callTool({ name: 'wipe', arguments: {} })).rejects.toThrow(/insufficient_scope/);
      expect(calls.wipe).toBe(0);
      const admin = await connectClient(running.url, { authorization: `Bearer ${await token('mcp admin')}` });
      expect((await admin.callTool({ name: 'wipe', arguments: {} })).content).toEqual([{ type: 'text', text: 'wiped' }]);
      expect(calls.wipe).toBe(1);
    });

    it('serves the Protected Resource Metadata document on a plain GET', async () => {
      const { running } = await protectedServe();
      const response = await fetch(`http://127.0.0.1:${running.port}/.well-known/oauth-protected-resource/mcp`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ resource: RESOURCE, authorization_servers: [ISSUER] });
      expect((await fetch(`http://127.0.0.1:${running.port}/mcp`)).status).toBe(426);
    });

    it('closes a connection when its token expires (1008)', async () => {
      const clock = new SimulatedClock();
      const { running, token } = await protectedServe(clock);
      const client = await connectClient(running.url, { authorization: `Bearer ${await token('mcp')}` });
      const [transport] = [...running.connections];
      expect(transport?.authInfo).toMatchObject({ subject: 'alice' });
      // Expired by the wall clock: closed on the clock's first turn.
      clock.advance(0);
      const info = await client.closed;
      expect(info).toMatchObject({ details: { code: 1008, reason: 'access token expired' } });
    });
  });
});
