/**
 * End to end against a real authorization server (`oidc-provider` on 127.0.0.1): JWT access
 * tokens from the client-credentials grant verified through the issuer's JWKS, opaque tokens
 * through introspection, a token for one resource refused by another, and the official SDK v2
 * client (`ClientCredentialsProvider`) discovering and authenticating on its own.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as OfficialClient, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@statemcp/client';
import { McpServer } from '@statemcp/server';
import { decodeProtectedHeader } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { startAuthorizationServer, type TestAuthorizationServer } from '../../test/oidc-issuer.js';
import { StreamableHttpClientTransport } from '../client/index.js';
import { createStreamableHttpServer } from '../server/streamable-http-server.js';
import type { TokenVerifier } from './auth-info.js';
import { introspectionVerifier } from './introspection-verifier.js';
import { jwtVerifier } from './jwt-verifier.js';
import { createProtectedResource } from './protected-resource.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A listening HTTP server whose URL is known before the MCP layer is built on it. */
async function listen(): Promise<{ http: Server; url: string }> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  );
  return { http, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` };
}

/** Serves a protected `McpServer` (tool `whoami`) on `http`. */
function serveProtected(http: Server, resource: string, issuer: string, verifier: TokenVerifier): void {
  const mcpServer = new McpServer({ name: 'protected-e2e', version: '1.0.0' });
  mcpServer.registerTool('whoami', { description: 'Names the caller' }, (_args, extra) => ({
    content: [{ type: 'text', text: extra.auth === undefined ? 'anonymous' : `${extra.auth.clientId} ${extra.auth.scopes.join(' ')}` }],
  }));
  const authorization = createProtectedResource({ resource, authorizationServers: [issuer], verifier, scopesSupported: ['mcp'], requiredScopes: ['mcp'] });
  const mcp = createStreamableHttpServer({ connect: (transport) => mcpServer.connect(transport), authorization });
  http.on('request', (req, res) => void mcp.handleNodeRequest(req, res));
  cleanups.push(() => mcp.close());
}

async function startIssuer(resources: Parameters<typeof startAuthorizationServer>[0]['resources']): Promise<TestAuthorizationServer> {
  const issuer = await startAuthorizationServer({ resources });
  cleanups.push(() => issuer.close());
  return issuer;
}

async function whoamiWithToken(url: string, token: string): Promise<string> {
  const client = new Client({ name: 'statemcp-e2e', version: '1.0.0' });
  await client.connect(new StreamableHttpClientTransport(url, { headers: { authorization: `Bearer ${token}` } }));
  try {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    return (result.content as { text: string }[])[0]?.text ?? '';
  } finally {
    await client.close();
  }
}

describe('createProtectedResource with a real authorization server', () => {
  it('accepts a JWT access token issued for the resource and refuses it at another resource', async () => {
    const a = await listen();
    const b = await listen();
    const issuer = await startIssuer({ [a.url]: { scope: 'mcp' }, [b.url]: { scope: 'mcp' } });
    const jwksUri = `${issuer.issuer}/jwks`;
    serveProtected(a.http, a.url, issuer.issuer, jwtVerifier({ issuer: issuer.issuer, jwksUri, audience: a.url }));
    serveProtected(b.http, b.url, issuer.issuer, jwtVerifier({ issuer: issuer.issuer, jwksUri, audience: b.url }));

    const token = await issuer.clientCredentialsToken(a.url, 'mcp');
    // oidc-provider types its JWT access tokens (RFC 9068 §4), which jwtVerifier requires by default.
    expect(decodeProtectedHeader(token).typ).toBe('at+jwt');
    expect(await whoamiWithToken(a.url, token)).toBe(`${issuer.clientId} mcp`);

    const refused = await fetch(b.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${new URL(b.url).origin}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('verifies opaque tokens through token introspection (RFC 7662)', async () => {
    const a = await listen();
    const issuer = await startIssuer({ [a.url]: { scope: 'mcp', format: 'opaque' } });
    const verifier = introspectionVerifier({
      endpoint: `${issuer.issuer}/token/introspection`,
      clientId: issuer.clientId,
      clientSecret: issuer.clientSecret,
      audience: a.url,
      issuer: issuer.issuer,
    });
    serveProtected(a.http, a.url, issuer.issuer, verifier);
    const token = await issuer.clientCredentialsToken(a.url, 'mcp');
    expect(token.split('.')).toHaveLength(1);
    expect(await whoamiWithToken(a.url, token)).toBe(`${issuer.clientId} mcp`);
    await expect(whoamiWithToken(a.url, `${token}x`)).rejects.toThrow();
  });

  it('lets the official SDK v2 client discover the authorization server and authenticate (client credentials)', async () => {
    const a = await listen();
    const issuer = await startIssuer({ [a.url]: { scope: 'mcp' } });
    serveProtected(a.http, a.url, issuer.issuer, jwtVerifier({ issuer: issuer.issuer, jwksUri: `${issuer.issuer}/jwks`, audience: a.url }));
    const authProvider = new ClientCredentialsProvider({ clientId: issuer.clientId, clientSecret: issuer.clientSecret, scope: 'mcp', expectedIssuer: issuer.issuer });
    const client = new OfficialClient({ name: 'official-v2', version: '2.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(a.url), { authProvider }));
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: `${issuer.clientId} mcp` }]);
    await client.close();
  });
});
