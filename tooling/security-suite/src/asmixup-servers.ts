/**
 * The servers of the authorization-server mix-up tests, on 127.0.0.1: a plain authorization
 * server (RFC 8414 metadata, authorization, token and registration endpoints, every request
 * recorded) and an MCP server behind `createProtectedResource` whose tokens the test controls.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProtectedResource, type TokenVerifier } from '@statemcp/http-transport/auth';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { McpServer } from '@statemcp/server';
import { startRecordingServer, type RecordedRequest, type RecordingServer } from './asmixup-http.js';

/** Options of {@link startAuthorizationServer}. */
export interface TestAuthorizationServerOptions {
  /** Issue a new refresh token with each token response, refresh grants included (default true). */
  readonly rotateRefreshTokens?: boolean;
  /** Answers a token request instead of the default (issue `at-N`). */
  readonly onToken?: (request: RecordedRequest) => { status: number; json: unknown } | undefined;
}

/** A recording authorization server and the access tokens it issued and not revoked. */
export interface TestAuthorizationServer extends RecordingServer {
  readonly issuer: string;
  /** Access tokens issued and still valid. */
  readonly valid: Set<string>;
  /** The token requests, in order. */
  tokenRequests(): RecordedRequest[];
}

/** An authorization server whose issuer is its origin; `/authorize` redirects at once with a code. */
export async function startAuthorizationServer(options: TestAuthorizationServerOptions = {}): Promise<TestAuthorizationServer> {
  const server = await startRecordingServer();
  const issuer = server.origin;
  const valid = new Set<string>();
  let issued = 0;
  server.route('GET', '/.well-known/oauth-authorization-server', () => ({
    json: {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'private_key_jwt', 'none'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    },
  }));
  server.route('GET', '/authorize', (request) => {
    const redirect = new URL(request.query.get('redirect_uri') ?? '');
    redirect.searchParams.set('code', `code-${server.requests.length}`);
    redirect.searchParams.set('state', request.query.get('state') ?? '');
    redirect.searchParams.set('iss', issuer);
    return { status: 302, headers: { location: redirect.href } };
  });
  server.route('POST', '/register', () => ({ status: 201, json: { client_id: 'registered-client', token_endpoint_auth_method: 'none' } }));
  server.route('POST', '/token', (request) => {
    const custom = options.onToken?.(request);
    if (custom !== undefined) return custom;
    issued++;
    const accessToken = `at-${issued}`;
    valid.add(accessToken);
    const rotate = options.rotateRefreshTokens !== false || request.form.get('grant_type') !== 'refresh_token';
    return { json: { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, ...(rotate && { refresh_token: `rt-${issued}` }) } };
  });
  return { ...server, issuer, valid, tokenRequests: () => server.requests.filter((request) => request.path === '/token') };
}

/** A listening MCP server behind OAuth: tokens are valid while `valid` holds them. */
export interface ProtectedMcpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

/** An MCP server (tool `ping`) protected by `issuer`, accepting the tokens in `valid`. */
export async function startProtectedMcpServer(issuer: string, valid: ReadonlySet<string>): Promise<ProtectedMcpServer> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const verifier: TokenVerifier = {
    verify: async (token) => {
      if (!valid.has(token)) throw new Error('unknown or revoked token');
      return { clientId: 'test-client', scopes: ['mcp'], issuer, claims: {} };
    },
  };
  const mcpServer = new McpServer({ name: 'asmixup-protected', version: '1.0.0' });
  mcpServer.registerTool('ping', { description: 'Answers pong' }, () => ({ content: [{ type: 'text', text: 'pong' }] }));
  const authorization = createProtectedResource({ resource: url, authorizationServers: [issuer], verifier, scopesSupported: ['mcp'] });
  const mcp = createStreamableHttpServer({ connect: (transport) => mcpServer.connect(transport), authorization });
  http.on('request', (req, res) => void mcp.handleNodeRequest(req, res));
  return {
    url,
    close: async () => {
      await mcp.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
