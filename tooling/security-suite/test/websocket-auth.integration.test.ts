/**
 * The WebSocket server's authentication hook (issue 32). The WebSocket server takes the same
 * `authorization` layer (`createProtectedResource` with a token verifier) and `authenticate`
 * hook as the Streamable HTTP server, checked at the upgrade: no token, an invalid or an expired
 * one gets 401 with `WWW-Authenticate` before any upgrade; a valid token opens a connection
 * bound to its principal, whose handlers see `authInfo` as they do over HTTP.
 */
import { Client } from '@statemcp/client';
import { createProtectedResource, jwtVerifier } from '@statemcp/http-transport/auth';
import { WebSocketClientTransport, createWebSocketServer, type WebSocketMcpServer, type WebSocketServerTransport } from '@statemcp/http-transport/ws';
import { McpServer } from '@statemcp/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tryUpgrade } from '../src/dns-rebinding-wire.js';
import { WEBSOCKET_AUTH_ISSUER, createWebSocketAuthIssuer, type WebSocketAuthIssuer } from '../src/websocket-auth-issuer.js';

const RESOURCE = 'http://127.0.0.1/mcp';

let issuer: WebSocketAuthIssuer;
beforeAll(async () => {
  issuer = await createWebSocketAuthIssuer();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A protected WebSocket MCP server with a `whoami` tool; `accepted` collects its server transports. */
async function protectedServer(): Promise<{ running: WebSocketMcpServer; accepted: WebSocketServerTransport[] }> {
  const accepted: WebSocketServerTransport[] = [];
  const authorization = createProtectedResource({
    resource: RESOURCE,
    authorizationServers: [WEBSOCKET_AUTH_ISSUER],
    verifier: jwtVerifier({ issuer: WEBSOCKET_AUTH_ISSUER, audience: RESOURCE, jwks: issuer.jwks }),
    requiredScopes: ['mcp'],
  });
  const running = await createWebSocketServer({
    port: 0,
    path: '/mcp',
    authorization,
    connect: async (transport) => {
      accepted.push(transport);
      const server = new McpServer({ name: 'ws-protected', version: '1.0.0' });
      server.registerTool('whoami', { description: 'Names the caller' }, (_args, extra) => ({
        content: [{ type: 'text', text: extra.auth === undefined ? 'anonymous' : `${extra.auth.subject ?? '?'} via ${extra.auth.clientId}` }],
      }));
      await server.connect(transport);
    },
  });
  cleanups.push(() => running.close());
  return { running, accepted };
}

describe('WebSocket server authentication', () => {
  it('answers 401 with WWW-Authenticate at the upgrade when no token is sent', async () => {
    const { running, accepted } = await protectedServer();
    const answer = await tryUpgrade(running.port, '/mcp', { host: `127.0.0.1:${running.port}` });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(answer.headers['www-authenticate']).toMatch(/resource_metadata="http:\/\/127\.0\.0\.1\/\.well-known\/oauth-protected-resource\/mcp"/);
    expect(accepted).toHaveLength(0);
  });

  it('answers 401 invalid_token for an expired token and for a token signed by another key', async () => {
    const { running, accepted } = await protectedServer();
    const host = `127.0.0.1:${running.port}`;
    const expired = await tryUpgrade(running.port, '/mcp', { host, authorization: `Bearer ${await issuer.token(RESOURCE, {}, -120)}` });
    expect(expired.status).toBe(401);
    expect(expired.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    const forger = await createWebSocketAuthIssuer();
    const forged = await tryUpgrade(running.port, '/mcp', { host, authorization: `Bearer ${await forger.token(RESOURCE)}` });
    expect(forged.status).toBe(401);
    expect(forged.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    expect(accepted).toHaveLength(0);
  });

  it('binds a connection opened with a valid token to its principal, visible to handlers as authInfo', async () => {
    const { running, accepted } = await protectedServer();
    const token = await issuer.token(RESOURCE);
    const client = new Client({ name: 'ws-client', version: '1.0.0' });
    await client.connect(new WebSocketClientTransport(running.url, { headers: { authorization: `Bearer ${token}` } }));
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'alice via ws-client' }]);
    expect(accepted).toHaveLength(1);
    expect(accepted[0]?.principal).toBe(`${WEBSOCKET_AUTH_ISSUER} alice`);
    expect(accepted[0]?.authInfo).toMatchObject({ subject: 'alice', clientId: 'ws-client', token });
  });

  it('refuses a client without a token before any session exists', async () => {
    const { running, accepted } = await protectedServer();
    const client = new Client({ name: 'ws-client', version: '1.0.0' });
    await expect(client.connect(new WebSocketClientTransport(running.url))).rejects.toThrow(/HTTP 401/);
    expect(accepted).toHaveLength(0);
  });
});
