/**
 * Authorization: an MCP server behind OAuth 2.1 (`@statemcp/http-transport/auth`) and a client
 * that gets its tokens by itself (`@statemcp/client/auth`), here with the client-credentials
 * grant of a service that has no user. Both talk to a real authorization server on 127.0.0.1.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@statemcp/client';
import { OAuthClientProvider } from '@statemcp/client/auth';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { createProtectedResource, jwtVerifier } from '@statemcp/http-transport/auth';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { McpServer } from '@statemcp/server';
import { startIssuer } from './authorization/issuer.js';

/** Runs the issuer, the protected server and the client; logs what each step did. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const authorizationServer = await startIssuer();
  const { issuer, client: credentials } = authorizationServer;

  // The resource server. Its URL is the token audience, so take the port before building it.
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const resource = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;

  const server = new McpServer({ name: 'reports', version: '1.0.0' });
  server.registerTool('whoami', { description: 'Names the caller' }, (_args, extra) => ({
    content: [{ type: 'text', text: `${extra.auth?.clientId ?? 'nobody'} with [${extra.auth?.scopes.join(' ') ?? ''}], ${extra.auth?.tokenType ?? 'no'} token` }],
  }));
  server.registerTool('purge', { description: 'Deletes every report (needs admin)' }, () => ({ content: [{ type: 'text', text: 'purged' }] }));
  const authorization = createProtectedResource({
    resource,
    authorizationServers: [issuer],
    verifier: jwtVerifier({ issuer, jwksUri: `${issuer}/jwks`, audience: resource }),
    scopesSupported: ['mcp', 'admin'],
    requiredScopes: ['mcp'], // every request
    toolScopes: { purge: ['admin'] }, // tools/call of purge, on top
    dpop: true, // accept DPoP-bound tokens (RFC 9449) beside Bearer ones
  });
  const mcp = createStreamableHttpServer({ connect: (transport) => server.connect(transport), authorization });
  http.on('request', (req, res) => void mcp.handleNodeRequest(req, res));

  // The client: on a 401 it discovers the authorization server from the resource's metadata and
  // asks it for a token; on a 403 insufficient_scope it asks again with the missing scopes.
  const authProvider = new OAuthClientProvider({
    client: credentials,
    grant: { type: 'client_credentials' },
    // The provider's own requests (metadata, token); wrapped here only to show the token requests.
    fetch: (input, init) => {
      const form = init?.body instanceof URLSearchParams ? init.body : undefined;
      if (form?.has('grant_type') === true) log(`token request: ${form.get('grant_type') ?? ''}, scope=${form.get('scope') ?? ''}`);
      return fetch(input, init);
    },
  });
  const client = new Client({ name: 'report-bot', version: '1.0.0' });
  await client.connect(new StreamableHttpClientTransport(resource, { authProvider }));
  const whoami = await client.callTool({ name: 'whoami' });
  log(`whoami: ${JSON.stringify(whoami.content[0])}`);
  const purge = await client.callTool({ name: 'purge' });
  log(`purge: ${JSON.stringify(purge.content[0])}`);

  // Without a token the endpoint only says where to get one.
  const anonymous = await fetch(resource, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  log(`no token: ${anonymous.status} ${anonymous.headers.get('www-authenticate') ?? ''}`);

  await client.close();
  await mcp.close();
  await new Promise<void>((resolve) => {
    http.close(() => resolve());
    http.closeAllConnections();
  });
  await server.close();
  await authorizationServer.close();
}
