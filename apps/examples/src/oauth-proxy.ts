/**
 * An OAuth proxy (`@statemcp/oauth-proxy`) in front of an identity provider that MCP clients
 * cannot register with: the client registers with the proxy, the user approves it and signs in
 * at the upstream, and the proxy's own token — bound to this MCP server, and to the client's
 * DPoP key — calls a tool. Every party is real and on 127.0.0.1; the upstream stands in for
 * GitHub, Google or Entra, and the user at the browser is played by code.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@statemcp/client';
import { InMemoryOAuthStore, OAuthClientProvider } from '@statemcp/client/auth';
import { createProtectedResource, jwtVerifier } from '@statemcp/http-transport/auth';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { createOAuthProxy } from '@statemcp/oauth-proxy';
import { McpServer } from '@statemcp/server';
import { decodeJwt } from 'jose';
import { browserUser, startUpstream } from './authorization/upstream-idp.js';

async function listen(): Promise<{ origin: string; server: ReturnType<typeof createServer> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Runs the upstream, the proxy, the protected server and the client; logs what each step did. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  // The proxy's origin is its issuer; the upstream knows its callback as the redirect URI.
  const proxyHttp = await listen();
  const upstream = await startUpstream(`${proxyHttp.origin}/upstream/callback`);
  const mcpHttp = await listen();
  const resource = `${mcpHttp.origin}/mcp`;

  const proxy = await createOAuthProxy({
    issuer: proxyHttp.origin,
    upstream: { issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret },
    resources: [{ resource, scopes: ['mcp'] }],
  });
  proxyHttp.server.on('request', (req, res) => void proxy.handleNodeRequest(req, res));

  // The MCP server takes the proxy's tokens for its own URL, DPoP-bound or not.
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('whoami', { description: 'Names the caller' }, (_args, extra) => ({
    content: [{ type: 'text', text: `${extra.auth?.subject ?? 'nobody'} with [${extra.auth?.scopes.join(' ') ?? ''}], ${extra.auth?.tokenType ?? 'no'} token` }],
  }));
  const authorization = createProtectedResource({
    resource,
    authorizationServers: [proxy.issuer],
    verifier: jwtVerifier({ issuer: proxy.issuer, jwksUri: proxy.jwksUri, audience: resource }),
    scopesSupported: ['mcp'],
    requiredScopes: ['mcp'],
    dpop: true,
  });
  const mcp = createStreamableHttpServer({ connect: (transport) => server.connect(transport), authorization });
  mcpHttp.server.on('request', (req, res) => void mcp.handleNodeRequest(req, res));

  // The client registers itself with the proxy (RFC 7591) and signs its user in.
  const redirectUri = 'http://127.0.0.1:8976/callback';
  const store = new InMemoryOAuthStore();
  const authProvider = new OAuthClientProvider({
    clientMetadata: { client_name: 'notes agent', redirect_uris: [redirectUri] },
    store,
    authorize: browserUser(redirectUri, (html) => log(`consent page: ${/<title>(.*)<\/title>/.exec(html)?.[1] ?? ''}`)),
  });
  const client = new Client({ name: 'notes-agent', version: '1.0.0' });
  await client.connect(new StreamableHttpClientTransport(resource, { authProvider }));
  log(`registered as: ${(await store.getClient(proxy.issuer))?.client_id === undefined ? 'nothing' : 'a new client id'}`);
  const whoami = await client.callTool({ name: 'whoami' });
  log(`whoami: ${JSON.stringify(whoami.content[0])}`);
  const claims = decodeJwt((await store.getTokens(resource))?.access_token ?? '');
  log(`token: iss=${claims.iss === proxy.issuer ? 'the proxy' : String(claims.iss)}, aud=${claims.aud === resource ? 'this MCP server' : String(claims.aud)}, sub=${claims.sub ?? ''}, DPoP-bound=${String(claims['cnf'] !== undefined)}`);

  await client.close();
  await mcp.close();
  await server.close();
  for (const http of [proxyHttp.server, mcpHttp.server]) {
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  }
  await upstream.close();
}
