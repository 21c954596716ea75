/**
 * Interop the other way round: `@statemcp/client/auth` against an MCP server protected by the
 * official TypeScript SDK (1.x) — its authorization server router (`mcpAuthRouter`: metadata,
 * Dynamic Client Registration, `/authorize`, `/token` with its own PKCE check, the Protected
 * Resource Metadata) and `requireBearerAuth` in front of its Streamable HTTP transport. Only
 * the `OAuthServerProvider` (where codes and tokens are kept) is written here, in memory.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { Server as OfficialServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@statemcp/client';
import { OAuthClientProvider } from '@statemcp/client/auth';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';

import { StreamableHttpClientTransport } from './streamable-http.js';

/** The official SDK's storage seam: clients, codes and tokens in maps; every grant recorded. */
class InMemoryOfficialProvider implements OAuthServerProvider {
  readonly #clients = new Map<string, OAuthClientInformationFull>();
  readonly #codes = new Map<string, { readonly params: AuthorizationParams; readonly clientId: string }>();
  readonly #refreshTokens = new Map<string, { readonly clientId: string; readonly scopes: string[]; readonly resource: URL | undefined }>();
  readonly tokens = new Map<string, AuthInfo>();
  readonly grants: string[] = [];
  readonly registrations: string[] = [];

  get clientsStore(): OAuthServerProvider['clientsStore'] {
    return {
      getClient: (clientId) => this.#clients.get(clientId),
      registerClient: (metadata) => {
        const client: OAuthClientInformationFull = { ...metadata, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) };
        this.#clients.set(client.client_id, client);
        this.registrations.push(client.client_id);
        return client;
      },
    };
  }

  /** The user approves at once: straight back to the redirect URI with a code. */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: express.Response): Promise<void> {
    const code = randomUUID();
    this.#codes.set(code, { params, clientId: client.client_id });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const grant = this.#codes.get(code);
    if (grant === undefined) throw new InvalidGrantError('Unknown authorization code');
    return grant.params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string, _verifier?: string, _redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
    const grant = this.#codes.get(code);
    if (grant === undefined || grant.clientId !== client.client_id) throw new InvalidGrantError('Unknown authorization code');
    this.#codes.delete(code);
    this.grants.push(`authorization_code resource=${resource?.href ?? '-'} scope=${(grant.params.scopes ?? []).join(' ')}`);
    return this.#issue(client.client_id, grant.params.scopes ?? [], resource ?? grant.params.resource);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, _scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    const grant = this.#refreshTokens.get(refreshToken);
    if (grant === undefined || grant.clientId !== client.client_id) throw new InvalidGrantError('Unknown refresh token');
    this.#refreshTokens.delete(refreshToken);
    this.grants.push(`refresh_token resource=${resource?.href ?? '-'}`);
    return this.#issue(client.client_id, grant.scopes, resource ?? grant.resource);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const info = this.tokens.get(token);
    if (info === undefined) throw new InvalidTokenError('Unknown or expired access token');
    return info;
  }

  #issue(clientId: string, scopes: string[], resource: URL | undefined): OAuthTokens {
    const access = randomUUID();
    const refresh = randomUUID();
    this.tokens.set(access, { token: access, clientId, scopes, expiresAt: Math.floor(Date.now() / 1000) + 3600, ...(resource !== undefined && { resource }) });
    this.#refreshTokens.set(refresh, { clientId, scopes, resource });
    return { access_token: access, token_type: 'bearer', expires_in: 3600, refresh_token: refresh, scope: scopes.join(' ') };
  }
}

function officialMcpServer(): OfficialServer {
  const server = new OfficialServer({ name: 'official-protected', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'whoami', description: 'Names the caller', inputSchema: { type: 'object' } }] }));
  server.setRequestHandler(CallToolRequestSchema, (_request, extra) => ({
    content: [{ type: 'text', text: `${extra.authInfo?.clientId === undefined ? 'anonymous' : 'client'} ${extra.authInfo?.scopes.join(' ') ?? ''}` }],
  }));
  return server;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** The official SDK's authorization server and protected MCP endpoint on one 127.0.0.1 origin. */
async function startOfficialProtected(): Promise<{ url: string; provider: InMemoryOfficialProvider }> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const url = `${origin}/mcp`;
  const provider = new InMemoryOfficialProvider();
  const app = express();
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(origin), resourceServerUrl: new URL(url), scopesSupported: ['mcp'] }));
  const bearer = requireBearerAuth({ verifier: provider, requiredScopes: ['mcp'], resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(url)) });
  app.post('/mcp', express.json(), bearer, async (req, res) => {
    // Stateless: a server and a transport per request.
    const server = officialMcpServer();
    const transport = new StreamableHTTPServerTransport({});
    res.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  http.on('request', app);
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  );
  return { url, provider };
}

/** The user agent: follows the authorization endpoint's redirect without a browser. */
async function headless(authorizationUrl: URL): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (location === null) throw new Error(`The authorization endpoint answered HTTP ${response.status} without a redirect`);
  return new URL(location, authorizationUrl);
}

describe('@statemcp/client/auth against a server protected by the official SDK', () => {
  it('discovers, registers, authorizes with PKCE, calls a tool, and refreshes when the token is refused', async () => {
    const { url, provider } = await startOfficialProtected();
    const authProvider = new OAuthClientProvider({ clientMetadata: { client_name: 'statemcp-interop', redirect_uris: ['http://127.0.0.1:9/callback'] }, authorize: headless });
    const client = new Client({ name: 'statemcp-interop', version: '1.0.0' }, { era: 'legacy' });
    cleanups.push(() => client.close());
    await client.connect(new StreamableHttpClientTransport(url, { authProvider, standaloneStream: false }));

    expect(provider.registrations).toHaveLength(1);
    expect(provider.grants).toEqual([`authorization_code resource=${url} scope=mcp`]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami']);
    expect(await client.callTool({ name: 'whoami', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'client mcp' }] });

    // The server forgets the access token (expiry, revocation): 401, a refresh, the same call goes through.
    provider.tokens.clear();
    expect(await client.callTool({ name: 'whoami', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'client mcp' }] });
    expect(provider.grants).toEqual([`authorization_code resource=${url} scope=mcp`, `refresh_token resource=${url}`]);
    expect(provider.registrations).toHaveLength(1);
  });
});
