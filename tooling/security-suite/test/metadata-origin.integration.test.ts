/**
 * Server-supplied metadata URLs (issue 32, LOW). The `resource_metadata` of a server's
 * `WWW-Authenticate` may name any URL; the client fetches the protected resource metadata only
 * from the MCP server's own origin, unless the application lists the other origin in
 * `resourceMetadataOrigins` — an internal host named by a hostile server gets no request.
 * Authorization server metadata is fetched only for an issuer the verified resource metadata
 * lists, from that issuer's well-known URLs.
 */
import { Client } from '@statemcp/client';
import { OAuthClientProvider, type OAuthClientProviderOptions } from '@statemcp/client/auth';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { afterEach, describe, expect, it } from 'vitest';
import { findCause, startRecordingServer, type RecordingServer } from '../src/asmixup-http.js';
import { startAuthorizationServer, type TestAuthorizationServer } from '../src/asmixup-servers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function recording(): Promise<RecordingServer> {
  const server = await startRecordingServer();
  cleanups.push(() => server.close());
  return server;
}

async function authorizationServer(): Promise<TestAuthorizationServer> {
  const server = await startAuthorizationServer();
  cleanups.push(() => server.close());
  return server;
}

/** An MCP server refusing every request with a challenge naming `metadataUrl`, until `valid` holds the token. */
async function challengingServer(metadataUrl: (origin: string) => string, valid?: ReadonlySet<string>): Promise<RecordingServer> {
  const server = await recording();
  server.route('POST', '/mcp', (request) => {
    const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (valid?.has(token) === true) {
      const body = JSON.parse(request.body) as { id?: number; method: string };
      if (body.id === undefined) return { status: 202 };
      const result = body.method === 'initialize' ? { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'origin-test', version: '1.0.0' } } : {};
      return { json: { jsonrpc: '2.0', id: body.id, result } };
    }
    return { status: 401, headers: { 'www-authenticate': `Bearer resource_metadata="${metadataUrl(server.origin)}"` } };
  });
  return server;
}

async function connect(url: string, options: OAuthClientProviderOptions): Promise<unknown> {
  const client = new Client({ name: 'metadata-origin', version: '1.0.0' });
  try {
    await client.connect(new StreamableHttpClientTransport(url, { authProvider: new OAuthClientProvider(options) }));
    await client.close();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('OAuthClientProvider with server-supplied metadata URLs', () => {
  it('fetches no resource_metadata URL on another origin and says which URL it refused', async () => {
    const internal = await recording();
    internal.route('GET', '/admin/metadata', () => ({ json: { resource: 'http://internal.example/', authorization_servers: [] } }));
    const hostile = await challengingServer(() => `${internal.origin}/admin/metadata`);
    const error = await connect(`${hostile.origin}/mcp`, { client: { client_id: 'c', client_secret: 's' }, grant: { type: 'client_credentials' } });
    expect(internal.requests.map((request) => `${request.method} ${request.path}`)).toEqual([]);
    expect(findCause(error, 'AUTH_DISCOVERY_REFUSED')).toMatchObject({
      name: 'OAuthDiscoveryError',
      problem: 'origin-not-allowed',
      document: `${internal.origin}/admin/metadata`,
      expected: hostile.origin,
    });
  });

  it('follows a resource_metadata URL on the same origin, at any path', async () => {
    const as = await authorizationServer();
    const server = await challengingServer((origin) => `${origin}/custom/metadata.json`, as.valid);
    server.route('GET', '/custom/metadata.json', () => ({ json: { resource: `${server.origin}/mcp`, authorization_servers: [as.issuer] } }));
    await expect(connect(`${server.origin}/mcp`, { client: { client_id: 'c', client_secret: 's' }, grant: { type: 'client_credentials' } })).resolves.toBeUndefined();
    expect(as.tokenRequests()).toHaveLength(1);
  });

  it('follows a resource_metadata URL on another origin the application allows', async () => {
    const as = await authorizationServer();
    const metadataHost = await recording();
    const server = await challengingServer(() => `${metadataHost.origin}/prm`, as.valid);
    metadataHost.route('GET', '/prm', () => ({ json: { resource: `${server.origin}/mcp`, authorization_servers: [as.issuer] } }));
    const options: OAuthClientProviderOptions = { client: { client_id: 'c', client_secret: 's' }, grant: { type: 'client_credentials' }, resourceMetadataOrigins: [metadataHost.origin] };
    await expect(connect(`${server.origin}/mcp`, options)).resolves.toBeUndefined();
    expect(metadataHost.requests.map((request) => request.path)).toEqual(['/prm']);
  });

  it('refuses protected resource metadata naming another resource, saying what it claimed', async () => {
    const as = await authorizationServer();
    const server = await challengingServer((origin) => `${origin}/.well-known/oauth-protected-resource/mcp`);
    server.route('GET', '/.well-known/oauth-protected-resource/mcp', () => ({ json: { resource: 'https://elsewhere.example/mcp', authorization_servers: [as.issuer] } }));
    const error = await connect(`${server.origin}/mcp`, { client: { client_id: 'c', client_secret: 's' }, grant: { type: 'client_credentials' } });
    expect(as.requests).toEqual([]);
    expect(findCause(error, 'AUTH_DISCOVERY_REFUSED')).toMatchObject({ problem: 'resource-mismatch', claimed: 'https://elsewhere.example/mcp', expected: `${server.origin}/mcp` });
  });
});
