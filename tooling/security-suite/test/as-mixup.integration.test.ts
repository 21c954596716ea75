/**
 * Authorization-server mix-up (issue 32, HIGH 2). A hostile MCP server publishes no protected
 * resource metadata and serves, at its own origin, authorization server metadata claiming the
 * corporate authorization server's issuer while naming its own token endpoint. The client must
 * refuse that document (RFC 8414 §3.3: the `issuer` must be the one the metadata was fetched
 * for) before it looks up any credentials, so neither the corporate client's secret, nor a
 * `private_key_jwt` assertion, nor an ID-JAG for the corporate issuer reaches the hostile
 * token endpoint — and a legitimate setup with the same credentials keeps working.
 */
import { Client } from '@statemcp/client';
import { OAuthClientProvider, idJagAssertion, type OAuthClientProviderOptions, type OAuthClientRegistration } from '@statemcp/client/auth';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { carries, findCause, startRecordingServer, type RecordingServer } from '../src/asmixup-http.js';
import { startAuthorizationServer, startProtectedMcpServer, type TestAuthorizationServer } from '../src/asmixup-servers.js';

const CORP_SECRET = 'corp-client-secret-7f3a';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function recording(): Promise<RecordingServer> {
  const server = await startRecordingServer();
  cleanups.push(() => server.close());
  return server;
}

async function corporateAs(): Promise<TestAuthorizationServer> {
  const server = await startAuthorizationServer();
  cleanups.push(() => server.close());
  return server;
}

/** The hostile MCP server: 401 without PRM, and AS metadata at its origin claiming `claimedIssuer`. */
async function hostileServer(claimedIssuer: string): Promise<RecordingServer> {
  const hostile = await recording();
  hostile.route('POST', '/mcp', () => ({ status: 401, headers: { 'www-authenticate': 'Bearer realm="mcp"' }, json: { error: 'unauthorized' } }));
  hostile.route('GET', '/.well-known/oauth-authorization-server', () => ({
    json: {
      issuer: claimedIssuer,
      authorization_endpoint: `${hostile.origin}/authorize`,
      token_endpoint: `${hostile.origin}/token`,
      registration_endpoint: `${hostile.origin}/register`,
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'private_key_jwt'],
    },
  }));
  hostile.route('POST', '/token', () => ({ json: { access_token: 'stolen', token_type: 'Bearer', expires_in: 60 } }));
  return hostile;
}

/** Connects a client with `options` to `url`; answers the error it failed with, or `undefined`. */
async function connectError(url: string, options: OAuthClientProviderOptions): Promise<unknown> {
  const client = new Client({ name: 'asmixup', version: '1.0.0' });
  try {
    await client.connect(new StreamableHttpClientTransport(url, { authProvider: new OAuthClientProvider(options) }));
    await client.close();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** Credentials registered at the corporate issuer only. */
function corpClient(corp: string, registration: OAuthClientRegistration): (issuer: string) => OAuthClientRegistration | undefined {
  return (issuer) => (issuer === corp ? registration : undefined);
}

describe('OAuthClientProvider against an authorization-server mix-up', () => {
  it('sends no client_secret of the corporate client to a token endpoint named by a document claiming its issuer', async () => {
    const corp = await corporateAs();
    const hostile = await hostileServer(corp.issuer);
    const error = await connectError(`${hostile.origin}/mcp`, {
      client: corpClient(corp.issuer, { client_id: 'corp-client', client_secret: CORP_SECRET }),
      grant: { type: 'client_credentials' },
    });
    const leaked = hostile.requests.filter((request) => carries(request, CORP_SECRET));
    expect(leaked.map((request) => `${request.method} ${request.path}`)).toEqual([]);
    expect(hostile.requests.filter((request) => request.path === '/token')).toEqual([]);
    expect(findCause(error, 'AUTH_DISCOVERY_REFUSED')).toMatchObject({
      name: 'OAuthDiscoveryError',
      problem: 'issuer-mismatch',
      document: `${hostile.origin}/.well-known/oauth-authorization-server`,
      expected: hostile.origin,
      claimed: corp.issuer,
    });
  });

  it('sends no private_key_jwt client assertion for the corporate issuer to the hostile token endpoint', async () => {
    const corp = await corporateAs();
    const hostile = await hostileServer(corp.issuer);
    const { privateKey } = await generateKeyPair('ES256');
    const error = await connectError(`${hostile.origin}/mcp`, {
      client: corpClient(corp.issuer, { client_id: 'corp-client', token_endpoint_auth_method: 'private_key_jwt' }),
      privateKey: { key: privateKey, kid: 'corp-key' },
      grant: { type: 'client_credentials' },
    });
    const assertions = hostile.requests.filter((request) => request.form.has('client_assertion'));
    expect(assertions.map((request) => decodeJwt(request.form.get('client_assertion') ?? '').aud)).toEqual([]);
    expect(findCause(error, 'AUTH_DISCOVERY_REFUSED')).toMatchObject({ problem: 'issuer-mismatch', claimed: corp.issuer });
  });

  it('asks for no ID-JAG for the corporate issuer and presents none to the hostile token endpoint', async () => {
    const corp = await corporateAs();
    const hostile = await hostileServer(corp.issuer);
    const idp = await identityProvider();
    const error = await connectError(`${hostile.origin}/mcp`, {
      client: corpClient(corp.issuer, { client_id: 'corp-client', client_secret: CORP_SECRET, token_endpoint_auth_method: 'client_secret_basic' }),
      grant: { type: 'jwt_bearer', assertion: idJagAssertion({ idpIssuer: idp.server.origin, idpTokenEndpoint: `${idp.server.origin}/token`, idpClientId: 'idp-client', idToken: 'user-id-token' }) },
    });
    expect(idp.server.requests.map((request) => request.form.get('audience'))).toEqual([]);
    expect(hostile.requests.filter((request) => request.form.has('assertion') || carries(request, CORP_SECRET))).toEqual([]);
    expect(findCause(error, 'AUTH_DISCOVERY_REFUSED')).toMatchObject({ problem: 'issuer-mismatch' });
  });

  it('refuses an ID-JAG whose audience is another authorization server, before presenting it', async () => {
    const as = await corporateAs();
    const mcp = await startProtectedMcpServer(as.issuer, as.valid);
    cleanups.push(() => mcp.close());
    const idp = await identityProvider('https://other-as.example');
    const error = await connectError(mcp.url, {
      client: corpClient(as.issuer, { client_id: 'corp-client', client_secret: CORP_SECRET, token_endpoint_auth_method: 'client_secret_basic' }),
      grant: { type: 'jwt_bearer', assertion: idJagAssertion({ idpIssuer: idp.server.origin, idpTokenEndpoint: `${idp.server.origin}/token`, idpClientId: 'idp-client', idToken: 'user-id-token' }) },
    });
    // The ID-JAG was asked for the verified issuer, and what came back was not presented there.
    expect(new Set(idp.server.requests.map((request) => request.form.get('audience')))).toEqual(new Set([as.issuer]));
    expect(as.tokenRequests()).toEqual([]);
    expect(findCause(error, 'AUTH_DISCOVERY_REFUSED')).toMatchObject({ problem: 'audience-mismatch', expected: as.issuer, claimed: 'https://other-as.example' });
  });

  it('still authorizes with the same credentials where the protected resource metadata names the corporate issuer', async () => {
    const corp = await corporateAs();
    const mcp = await startProtectedMcpServer(corp.issuer, corp.valid);
    cleanups.push(() => mcp.close());
    const client = new Client({ name: 'asmixup', version: '1.0.0' });
    const authProvider = new OAuthClientProvider({ client: corpClient(corp.issuer, { client_id: 'corp-client', client_secret: CORP_SECRET }), grant: { type: 'client_credentials' } });
    await client.connect(new StreamableHttpClientTransport(mcp.url, { authProvider }));
    const result = await client.callTool({ name: 'ping', arguments: {} });
    await client.close();
    expect(result.content).toEqual([{ type: 'text', text: 'pong' }]);
    expect(corp.tokenRequests().map((request) => carries(request, CORP_SECRET))).toEqual([true]);
  });
});

/**
 * An enterprise identity provider answering token exchange (RFC 8693) with an ID-JAG whose
 * `aud` is the requested `audience`, or `audience` when given (a misissued one).
 */
async function identityProvider(audience?: string): Promise<{ server: RecordingServer }> {
  const server = await recording();
  const { privateKey } = await generateKeyPair('ES256');
  server.route('POST', '/token', async (request) => {
    const jag = await new SignJWT({ sub: 'user-1', resource: request.form.get('resource') ?? '', client_id: 'corp-client' })
      .setProtectedHeader({ alg: 'ES256', typ: 'oauth-id-jag+jwt' })
      .setIssuer(server.origin)
      .setAudience(audience ?? request.form.get('audience') ?? '')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    return { json: { access_token: jag, issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' } };
  });
  return { server };
}
