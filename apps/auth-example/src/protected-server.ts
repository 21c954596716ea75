/**
 * The example's MCP server behind `createProtectedResource`: `whoami` (scope `mcp`) names the
 * caller from `extra.auth`; `reset_counter` also needs `admin`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { createProtectedResource, jwtVerifier } from '@statemcp/http-transport/auth';
import { McpServer } from '@statemcp/server';

export interface ExampleProtectedServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Reserves a 127.0.0.1 port, so the resource URL is known before the server is built. */
export async function reservePort(): Promise<{ url: string; http: ReturnType<typeof createServer> }> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { http, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` };
}

export function serveProtected(reserved: { url: string; http: ReturnType<typeof createServer> }, issuer: string): ExampleProtectedServer {
  const server = new McpServer({ name: 'auth-example', version: '1.0.0' });
  let counter = 0;
  server.registerTool('whoami', { description: 'Names the caller and its scopes' }, (_args, extra) => {
    counter += 1;
    return { content: [{ type: 'text', text: `${extra.auth?.clientId ?? 'anonymous'} with scopes [${extra.auth?.scopes.join(' ') ?? ''}]` }] };
  });
  server.registerTool('reset_counter', { description: 'Resets the whoami call counter (needs admin)' }, () => {
    const previous = counter;
    counter = 0;
    return { content: [{ type: 'text', text: `counter reset (was ${previous})` }] };
  });
  const authorization = createProtectedResource({
    resource: reserved.url,
    authorizationServers: [issuer],
    verifier: jwtVerifier({ issuer, jwksUri: `${issuer}/jwks`, audience: reserved.url }),
    scopesSupported: ['mcp', 'admin'],
    requiredScopes: ['mcp'],
    toolScopes: { reset_counter: ['admin'] },
    resourceName: 'statemcp auth example',
  });
  const mcp = createStreamableHttpServer({ connect: (transport) => server.connect(transport), authorization });
  reserved.http.on('request', (req, res) => void mcp.handleNodeRequest(req, res));
  return {
    url: reserved.url,
    close: async () => {
      await mcp.close();
      await new Promise<void>((resolve) => {
        reserved.http.close(() => resolve());
        reserved.http.closeAllConnections();
      });
    },
  };
}
