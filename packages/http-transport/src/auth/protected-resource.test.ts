import { McpServer } from '@statemcp/server';
import { describe, expect, it } from 'vitest';
import { SharedStoreUnavailableError } from '../server/shared-state.js';
import { createStreamableHttpServer } from '../server/streamable-http-server.js';
import { jwtVerifier } from './jwt-verifier.js';
import { createProtectedResource, protectedResourceMetadataUrl, type ProtectedResourceOptions } from './protected-resource.js';
import { ISSUER, NOW_MS, NOW_S, createDpopKey, createTestIssuer, unsignedToken, type TestIssuer } from './test-tokens.js';

const RESOURCE = 'https://mcp.test.example/mcp';
const ACCEPT = 'application/json, text/event-stream';

interface Fixture {
  issuer: TestIssuer;
  /** Calls of `connect` and of the tool handler: a refused request reaches neither. */
  reached: { connects: number; calls: number };
  fetch(body: unknown, headers?: Record<string, string>): Promise<Response>;
}

async function protectedServer(overrides: Partial<ProtectedResourceOptions> = {}, resource = RESOURCE, issuer?: TestIssuer): Promise<Fixture> {
  const tokens = issuer ?? (await createTestIssuer(resource));
  const reached = { connects: 0, calls: 0 };
  const mcpServer = new McpServer({ name: 'protected', version: '1.0.0' });
  mcpServer.registerTool('whoami', { description: 'Names the caller' }, (_args, extra) => {
    reached.calls += 1;
    const auth = extra.auth;
    return { content: [{ type: 'text', text: auth === undefined ? 'anonymous' : `${auth.subject ?? '-'} ${auth.clientId} ${auth.tokenType} ${auth.scopes.join(',')}` }] };
  });
  mcpServer.registerTool('wipe', { description: 'Needs the admin scope' }, () => {
    reached.calls += 1;
    return { content: [{ type: 'text', text: 'wiped' }] };
  });
  const authorization = createProtectedResource({
    resource,
    authorizationServers: [ISSUER],
    verifier: jwtVerifier({ issuer: ISSUER, jwks: tokens.jwks, audience: resource, now: () => NOW_MS }),
    scopesSupported: ['mcp', 'admin'],
    requiredScopes: ['mcp'],
    toolScopes: { wipe: ['admin'] },
    now: () => NOW_MS,
    ...overrides,
  });
  const mcp = createStreamableHttpServer({
    connect: (transport) => {
      reached.connects += 1;
      return mcpServer.connect(transport);
    },
    authorization,
    enableJsonResponse: true,
    allowedHosts: [new URL(resource).hostname],
  });
  const url = new URL(resource);
  return {
    issuer: tokens,
    reached,
    fetch: (body, headers = {}) =>
      mcp.handleFetch(
        new Request(url, { method: 'POST', headers: { host: url.host, accept: ACCEPT, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }),
        { localAddress: '10.0.0.1' },
      ),
  };
}

const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const call = (name: string, id = 1): unknown => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
const statelessCall = (name: string): unknown => [call(name)][0];

/** Opens a session with `authorization`, returns its id. */
async function openSession(fixture: Fixture, authorization: string, extra: Record<string, string> = {}): Promise<string> {
  const response = await fixture.fetch(initialize, { authorization, ...extra });
  expect(response.status).toBe(200);
  const id = response.headers.get('mcp-session-id');
  expect(id).toBeTruthy();
  return id ?? '';
}

async function callIn(fixture: Fixture, sessionId: string, authorization: string, name: string, extra: Record<string, string> = {}): Promise<Response> {
  return fixture.fetch(call(name), { authorization, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', ...extra });
}

async function toolText(response: Response): Promise<string> {
  const body = (await response.json()) as { result?: { content?: { text?: string }[] } };
  return body.result?.content?.[0]?.text ?? '';
}

describe('createProtectedResource', () => {
  describe('#metadataUrl', () => {
    it('is the path-based well-known URL of the resource (RFC 9728 §3.1)', () => {
      expect(protectedResourceMetadataUrl('https://a.example/mcp').href).toBe('https://a.example/.well-known/oauth-protected-resource/mcp');
      expect(protectedResourceMetadataUrl('https://a.example/').href).toBe('https://a.example/.well-known/oauth-protected-resource');
    });
  });

  describe('#serve', () => {
    it('serves the Protected Resource Metadata document from the server, outside the MCP path', async () => {
      const tokens = await createTestIssuer(RESOURCE);
      const authorization = createProtectedResource({
        resource: RESOURCE,
        authorizationServers: [ISSUER],
        verifier: jwtVerifier({ issuer: ISSUER, jwks: tokens.jwks, audience: RESOURCE }),
        scopesSupported: ['mcp'],
        dpop: true,
      });
      const mcp = createStreamableHttpServer({ connect: () => undefined, authorization, path: '/mcp' });
      const response = await mcp.handleFetch(new Request('https://mcp.test.example/.well-known/oauth-protected-resource/mcp'), { localAddress: '10.0.0.1' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: [ISSUER],
        bearer_methods_supported: ['header'],
        scopes_supported: ['mcp'],
        dpop_signing_alg_values_supported: ['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA'],
        dpop_bound_access_tokens_required: false,
      });
    });
  });

  describe('#authenticate', () => {
    it('answers a request without a token with 401 naming the metadata and the scope, and no error', async () => {
      const fixture = await protectedServer();
      const response = await fixture.fetch(initialize);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer scope="mcp", resource_metadata="https://mcp.test.example/.well-known/oauth-protected-resource/mcp"',
      );
      expect(fixture.reached).toEqual({ connects: 0, calls: 0 });
    });

    it.each([
      ['expired', (issuer: TestIssuer) => issuer.token({}, { expiresIn: -120 })],
      ['wrong-audience', (issuer: TestIssuer) => issuer.token({ aud: 'https://other.example/mcp' })],
      ['wrong-issuer', (issuer: TestIssuer) => issuer.token({ iss: 'https://evil.example' })],
      ['unsigned (alg none)', () => Promise.resolve(unsignedToken({ iss: ISSUER, aud: RESOURCE, sub: 'alice', scope: 'mcp', exp: NOW_S + 600 }))],
      ['malformed', () => Promise.resolve('not.a.jwt')],
      ['garbage', () => Promise.resolve('%%%')],
    ])('refuses a %s token with 401 invalid_token before any handler', async (_name, mint) => {
      const fixture = await protectedServer();
      const response = await fixture.fetch(initialize, { authorization: `Bearer ${await mint(fixture.issuer)}` });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", scope="mcp", resource_metadata="https:\/\/mcp\.test\.example\/\.well-known\/oauth-protected-resource\/mcp"$/);
      expect(fixture.reached).toEqual({ connects: 0, calls: 0 });
    });

    it('refuses a token issued for another resource of the same issuer', async () => {
      const other = 'https://other.test.example/mcp';
      const issuer = await createTestIssuer(RESOURCE);
      const mine = await protectedServer({}, RESOURCE, issuer);
      const theirs = await protectedServer({}, other, issuer);
      const token = await issuer.token();
      expect((await mine.fetch(initialize, { authorization: `Bearer ${token}` })).status).toBe(200);
      const refused = await theirs.fetch(initialize, { authorization: `Bearer ${token}` });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(theirs.reached.connects).toBe(0);
    });

    it('answers a header with two credentials with 400 invalid_request', async () => {
      const fixture = await protectedServer();
      const response = await fixture.fetch(initialize, { authorization: 'Bearer a b' });
      expect(response.status).toBe(400);
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_request"');
    });

    it('answers a token without the required scope with 403 insufficient_scope', async () => {
      const fixture = await protectedServer();
      const response = await fixture.fetch(initialize, { authorization: `Bearer ${await fixture.issuer.token({ scope: 'other' })}` });
      expect(response.status).toBe(403);
      expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
      expect(response.headers.get('www-authenticate')).toContain('scope="mcp"');
    });
  });

  describe('#authorize', () => {
    it('hands the verified principal to handlers and asks for a tool scope with 403 only for that tool', async () => {
      const fixture = await protectedServer();
      const bearer = `Bearer ${await fixture.issuer.token()}`;
      const sessionId = await openSession(fixture, bearer);
      expect(await toolText(await callIn(fixture, sessionId, bearer, 'whoami'))).toBe('alice client-a Bearer mcp');
      const refused = await callIn(fixture, sessionId, bearer, 'wipe');
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", error_description="[^"]+", scope="mcp admin", resource_metadata=/);
      expect(fixture.reached.calls).toBe(1);
      const admin = `Bearer ${await fixture.issuer.token({ scope: 'mcp admin' })}`;
      expect(await toolText(await callIn(fixture, sessionId, admin, 'wipe'))).toBe('wiped');
    });

    it('checks scopes in stateless mode too, per request', async () => {
      const tokens = await createTestIssuer(RESOURCE);
      const authorization = createProtectedResource({
        resource: RESOURCE,
        authorizationServers: [ISSUER],
        verifier: jwtVerifier({ issuer: ISSUER, jwks: tokens.jwks, audience: RESOURCE, now: () => NOW_MS }),
        toolScopes: { wipe: ['admin'] },
      });
      const mcpServer = new McpServer({ name: 'stateless', version: '1.0.0' });
      mcpServer.registerTool('wipe', {}, (_args, extra) => ({ content: [{ type: 'text', text: extra.auth?.clientId ?? '' }] }));
      const mcp = createStreamableHttpServer({ connect: (transport) => mcpServer.connect(transport), authorization, stateless: true, enableJsonResponse: true, allowedHosts: [new URL(RESOURCE).hostname] });
      const post = async (scope: string): Promise<Response> =>
        mcp.handleFetch(
          new Request(RESOURCE, {
            method: 'POST',
            headers: { accept: ACCEPT, 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${await tokens.token({ scope })}` },
            body: JSON.stringify(statelessCall('wipe')),
          }),
          { localAddress: '10.0.0.1' },
        );
      expect((await post('mcp')).status).toBe(403);
      expect(await toolText(await post('admin'))).toBe('client-a');
    });
  });

  describe('2026-07-28 requests', () => {
    it('authenticates each stateless request and hands its principal to the handler', async () => {
      const fixture = await protectedServer();
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'modern', version: '1' },
      };
      const modern = async (name: string, authorization?: string): Promise<Response> =>
        fixture.fetch(
          { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name, arguments: {}, _meta: meta } },
          { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name, ...(authorization === undefined ? {} : { authorization }) },
        );
      expect((await modern('whoami')).status).toBe(401);
      const bearer = `Bearer ${await fixture.issuer.token({ sub: 'carol' })}`;
      const answer = await modern('whoami', bearer);
      expect(answer.status).toBe(200);
      expect(await toolText(answer)).toBe('carol client-a Bearer mcp');
      expect((await modern('wipe', bearer)).status).toBe(403);
      expect(fixture.reached.calls).toBe(1);
    });
  });

  describe('#principalOf', () => {
    it('binds a session to the principal that opened it: another principal gets 404', async () => {
      const fixture = await protectedServer();
      const alice = `Bearer ${await fixture.issuer.token()}`;
      const bob = `Bearer ${await fixture.issuer.token({ sub: 'bob' })}`;
      const sessionId = await openSession(fixture, alice);
      const stolen = await callIn(fixture, sessionId, bob, 'whoami');
      expect(stolen.status).toBe(404);
      expect(fixture.reached.calls).toBe(0);
      const aliceAgain = `Bearer ${await fixture.issuer.token({ jti: 'second' })}`;
      expect(await toolText(await callIn(fixture, sessionId, aliceAgain, 'whoami'))).toBe('alice client-a Bearer mcp');
    });
  });

  describe('DPoP', () => {
    async function dpopFixture(options: { nonce?: boolean; required?: boolean } = {}): Promise<Fixture & { key: Awaited<ReturnType<typeof createDpopKey>> }> {
      const fixture = await protectedServer({ dpop: { ...options } });
      return { ...fixture, key: await createDpopKey() };
    }

    it('accepts a bound token with a fresh proof and refuses the same proof replayed', async () => {
      const fixture = await dpopFixture();
      const token = await fixture.issuer.token({ cnf: { jkt: fixture.key.thumbprint } });
      const proof = await fixture.key.proof({ htm: 'POST', htu: RESOURCE, token });
      const ok = await fixture.fetch(initialize, { authorization: `DPoP ${token}`, dpop: proof });
      expect(ok.status).toBe(200);
      const sessionId = ok.headers.get('mcp-session-id') ?? '';
      const whoami = await callIn(fixture, sessionId, `DPoP ${token}`, 'whoami', { dpop: await fixture.key.proof({ htm: 'POST', htu: RESOURCE, token }) });
      expect(await toolText(whoami)).toBe('alice client-a DPoP mcp');
      const replayed = await callIn(fixture, sessionId, `DPoP ${token}`, 'whoami', { dpop: proof });
      expect(replayed.status).toBe(401);
      expect(replayed.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof", error_description="[^"]*replayed[^"]*", scope="mcp", resource_metadata="[^"]+", algs="ES256 ES384 RS256 PS256 EdDSA"$/);
      expect(fixture.reached.calls).toBe(1);
    });

    it('checks the replay set and the nonce once: a readmitted request (relayed in a cluster) passes with the spent proof', async () => {
      const key = await createDpopKey();
      const tokens = await createTestIssuer(RESOURCE);
      const resource = createProtectedResource({
        resource: RESOURCE,
        authorizationServers: [ISSUER],
        verifier: jwtVerifier({ issuer: ISSUER, jwks: tokens.jwks, audience: RESOURCE, now: () => NOW_MS }),
        dpop: { required: true },
        now: () => NOW_MS,
      });
      const token = await tokens.token({ cnf: { jkt: key.thumbprint } });
      const request = async (proof: string): Promise<Request> => new Request(RESOURCE, { method: 'POST', headers: { authorization: `DPoP ${token}`, dpop: proof } });
      const proof = await key.proof({ htm: 'POST', htu: RESOURCE, token });
      const reported: unknown[] = [];
      const context = (readmitted: boolean) => ({ report: (error: unknown) => reported.push(error), readmitted });
      expect(await resource.authenticate(await request(proof), context(false))).not.toBeInstanceOf(Response);
      expect(await resource.authenticate(await request(proof), context(true))).not.toBeInstanceOf(Response);
      const replayed = await resource.authenticate(await request(proof), context(false));
      expect(replayed).toBeInstanceOf(Response);
      expect((replayed as Response).status).toBe(401);
      expect(reported).toEqual([]);
    });

    it('answers 503 when the replay store cannot be reached, and reports its error', async () => {
      const key = await createDpopKey();
      const tokens = await createTestIssuer(RESOURCE);
      const down = new SharedStoreUnavailableError('dpop-replay', 'Redis is unreachable');
      const resource = createProtectedResource({
        resource: RESOURCE,
        authorizationServers: [ISSUER],
        verifier: jwtVerifier({ issuer: ISSUER, jwks: tokens.jwks, audience: RESOURCE, now: () => NOW_MS }),
        dpop: { required: true, replayStore: { record: () => Promise.reject(down) } },
        now: () => NOW_MS,
      });
      const token = await tokens.token({ cnf: { jkt: key.thumbprint } });
      const headers = { authorization: `DPoP ${token}`, dpop: await key.proof({ htm: 'POST', htu: RESOURCE, token }) };
      const reported: unknown[] = [];
      const answer = await resource.authenticate(new Request(RESOURCE, { method: 'POST', headers }), { report: (error) => reported.push(error), readmitted: false });
      expect(answer).toBeInstanceOf(Response);
      expect((answer as Response).status).toBe(503);
      expect((answer as Response).headers.get('retry-after')).toBe('1');
      expect(await (answer as Response).text()).not.toContain('Redis');
      expect(reported).toEqual([down]);
    });

    it.each([
      ['the wrong method', { htm: 'GET' }, 'invalid_dpop_proof'],
      ['the wrong URI', { htu: 'https://mcp.test.example/other' }, 'invalid_dpop_proof'],
      ['another token', { token: 'another-token' }, 'invalid_dpop_proof'],
      ['a stale iat', { iat: NOW_S - 3600 }, 'invalid_dpop_proof'],
    ])('refuses a proof for %s', async (_name, change, error) => {
      const fixture = await dpopFixture();
      const token = await fixture.issuer.token({ cnf: { jkt: fixture.key.thumbprint } });
      const proof = await fixture.key.proof({ htm: 'POST', htu: RESOURCE, token, ...change });
      const response = await fixture.fetch(initialize, { authorization: `DPoP ${token}`, dpop: proof });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain(`error="${error}"`);
      expect(fixture.reached.connects).toBe(0);
    });

    it('refuses a proof signed by another key than the token is bound to, and a bound token sent as Bearer', async () => {
      const fixture = await dpopFixture();
      const token = await fixture.issuer.token({ cnf: { jkt: fixture.key.thumbprint } });
      const stranger = await createDpopKey();
      const wrongKey = await fixture.fetch(initialize, { authorization: `DPoP ${token}`, dpop: await stranger.proof({ htm: 'POST', htu: RESOURCE, token }) });
      expect(wrongKey.status).toBe(401);
      expect(wrongKey.headers.get('www-authenticate')).toContain('error="invalid_token"');
      const asBearer = await fixture.fetch(initialize, { authorization: `Bearer ${token}` });
      expect(asBearer.status).toBe(401);
      expect(asBearer.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
      expect(fixture.reached.connects).toBe(0);
    });

    it('asks for a server nonce (use_dpop_nonce + DPoP-Nonce) and accepts the proof that carries it', async () => {
      const fixture = await dpopFixture({ nonce: true, required: true });
      const token = await fixture.issuer.token({ cnf: { jkt: fixture.key.thumbprint } });
      const first = await fixture.fetch(initialize, { authorization: `DPoP ${token}`, dpop: await fixture.key.proof({ htm: 'POST', htu: RESOURCE, token }) });
      expect(first.status).toBe(401);
      expect(first.headers.get('www-authenticate')).toContain('error="use_dpop_nonce"');
      const nonce = first.headers.get('dpop-nonce') ?? '';
      expect(nonce).not.toBe('');
      const second = await fixture.fetch(initialize, { authorization: `DPoP ${token}`, dpop: await fixture.key.proof({ htm: 'POST', htu: RESOURCE, token, nonce }) });
      expect(second.status).toBe(200);
      const bearer = await fixture.fetch(initialize, { authorization: `Bearer ${await fixture.issuer.token()}` });
      expect(bearer.status).toBe(401);
      expect(bearer.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_token"/);
    });
  });
});
