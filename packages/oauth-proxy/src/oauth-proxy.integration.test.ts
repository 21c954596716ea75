/**
 * The OAuth proxy end to end, every party real and on 127.0.0.1: an upstream identity provider
 * without registration (a second oidc-provider), the proxy in front of it, two statemcp protected
 * MCP servers that verify the proxy's JWTs through its JWKS (with DPoP), and statemcp clients with
 * `OAuthClientProvider` that register dynamically (or by a client ID metadata document) and sign
 * in through a headless browser (cookies kept, redirects followed, the consent page answered, the
 * upstream sign-in page submitting itself).
 */
import { createHash } from 'node:crypto';
import { Client } from '@statemcp/client';
import { InMemoryOAuthStore, OAuthClientProvider, type OAuthClientMetadata } from '@statemcp/client/auth';
import { createProtectedResource, jwtVerifier } from '@statemcp/http-transport/auth';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { McpServer } from '@statemcp/server';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { createOAuthProxy, type OAuthProxy, type OAuthProxyOptions } from './index.js';
import { generateSigningKey } from './signing-keys.js';
import { listen, startIdentityProvider, TestBrowser, type TestIdentityProvider } from './test-identity-provider.js';

const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const USER = 'alice@upstream';
const CLIENT: OAuthClientMetadata = { client_name: 'e2e agent', redirect_uris: [REDIRECT_URI] };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface ProtectedServer {
  readonly url: string;
  /** The reasons the server refused tokens (its `onError`). */
  readonly refusals: unknown[];
}

/** A statemcp MCP server (`whoami`) that takes the proxy's tokens for its own URL only. */
async function startProtectedServer(): Promise<{ url: string; serve: (proxy: OAuthProxy) => ProtectedServer }> {
  const server = await listen();
  cleanups.push(server.close);
  const url = `${server.origin}/mcp`;
  return {
    url,
    serve: (proxy) => {
      const refusals: unknown[] = [];
      const mcpServer = new McpServer({ name: 'behind-the-proxy', version: '1.0.0' });
      mcpServer.registerTool('whoami', { description: 'Names the caller' }, (_args, extra) => ({
        content: [{ type: 'text', text: `${extra.auth?.subject ?? 'anonymous'} ${extra.auth?.scopes.join(' ') ?? ''}` }],
      }));
      const authorization = createProtectedResource({
        resource: url,
        authorizationServers: [proxy.issuer],
        verifier: jwtVerifier({ issuer: proxy.issuer, jwksUri: proxy.jwksUri, audience: url }),
        scopesSupported: ['mcp'],
        requiredScopes: ['mcp'],
        dpop: true,
      });
      const mcp = createStreamableHttpServer({ connect: (transport) => mcpServer.connect(transport), authorization, onError: (error) => refusals.push(error) });
      server.http.on('request', (req, res) => void mcp.handleNodeRequest(req, res));
      cleanups.push(() => mcp.close());
      return { url, refusals };
    },
  };
}

interface Setup {
  readonly proxy: OAuthProxy;
  readonly upstream: TestIdentityProvider;
  readonly a: ProtectedServer;
  readonly b: ProtectedServer;
  readonly proxyErrors: unknown[];
}

/** The upstream, the proxy in front of it (for servers A and B), and the two servers. */
async function setUp(options: Partial<OAuthProxyOptions> = {}): Promise<Setup> {
  const proxyServer = await listen();
  cleanups.push(proxyServer.close);
  const upstream = await startIdentityProvider(`${proxyServer.origin}/upstream/callback`, USER);
  cleanups.push(upstream.close);
  const serverA = await startProtectedServer();
  const serverB = await startProtectedServer();
  const proxyErrors: unknown[] = [];
  const proxy = await createOAuthProxy({
    issuer: proxyServer.origin,
    upstream: { issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret },
    resources: [
      { resource: serverA.url, scopes: ['mcp'] },
      { resource: serverB.url, scopes: ['mcp'] },
    ],
    onError: (error) => proxyErrors.push(error),
    ...options,
  });
  proxyServer.http.on('request', (req, res) => void proxy.handleNodeRequest(req, res));
  return { proxy, upstream, a: serverA.serve(proxy), b: serverB.serve(proxy), proxyErrors };
}

async function connect(url: string, authProvider: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: 'proxy-e2e', version: '1.0.0' });
  cleanups.push(() => client.close());
  await client.connect(new StreamableHttpClientTransport(url, { authProvider, standaloneStream: false }));
  return client;
}

async function whoami(client: Client): Promise<string> {
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  return (result.content as { text: string }[])[0]?.text ?? '';
}

describe('createOAuthProxy', () => {
  it('registers an MCP client dynamically, signs the user in upstream after consent, and its DPoP-bound token calls a tool', async () => {
    const signingKeys = [await generateSigningKey(), await generateSigningKey()];
    const { proxy, upstream, a, proxyErrors } = await setUp({ signingKeys });
    const browser = new TestBrowser(REDIRECT_URI);
    const store = new InMemoryOAuthStore();
    const client = await connect(a.url, new OAuthClientProvider({ clientMetadata: CLIENT, authorize: browser.authorize, store }));

    expect(await whoami(client)).toBe(`${USER} mcp`);
    expect(upstream.logins()).toBe(1);
    // The user approved this very client before the upstream was involved.
    expect(browser.consentPages).toHaveLength(1);
    expect(browser.consentPages[0]).toContain('Allow e2e agent?');
    expect(browser.consentPages[0]).toContain(a.url);

    const registration = await store.getClient(proxy.issuer);
    expect(registration?.client_id).toMatch(/.+/);
    const tokens = await store.getTokens(a.url);
    expect(tokens?.token_type).toBe('dpop');
    const claims = decodeJwt(tokens?.access_token ?? '');
    expect(claims).toMatchObject({ iss: proxy.issuer, aud: a.url, sub: USER, client_id: registration?.client_id, scope: 'mcp' });
    expect(claims['cnf']).toHaveProperty('jkt');
    // Signed with the first key; both keys are published (rotation).
    expect(decodeProtectedHeader(tokens?.access_token ?? '')).toMatchObject({ typ: 'at+jwt', kid: signingKeys[0]?.kid });
    const published = (await (await fetch(proxy.jwksUri)).json()) as { keys: { kid: string; d?: string }[] };
    expect(published.keys.map((key) => key.kid)).toEqual(signingKeys.map((key) => key.kid));
    expect(published.keys.every((key) => key.d === undefined)).toBe(true);
    expect(proxyErrors).toEqual([]);
  });

  it('rotates its signing key as the README says: publish, switch; tokens of the old key keep working', async () => {
    const [oldKey, newKey] = [await generateSigningKey(), await generateSigningKey()];
    const proxyServer = await listen();
    cleanups.push(proxyServer.close);
    const upstream = await startIdentityProvider(`${proxyServer.origin}/upstream/callback`, USER);
    cleanups.push(upstream.close);
    const serverA = await startProtectedServer();
    const start = (signingKeys: typeof oldKey[]): Promise<OAuthProxy> =>
      createOAuthProxy({
        issuer: proxyServer.origin,
        upstream: { issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret },
        resources: [{ resource: serverA.url, scopes: ['mcp'] }],
        signingKeys,
      });
    // Step 1, publish: the new key is in the JWKS, the old one signs. (A restart swaps the proxy.)
    let proxy = await start([oldKey, newKey]);
    proxyServer.http.on('request', (req, res) => void proxy.handleNodeRequest(req, res));
    const a = serverA.serve(proxy);
    const before = new InMemoryOAuthStore();
    const first = await connect(a.url, new OAuthClientProvider({ clientMetadata: CLIENT, authorize: new TestBrowser(REDIRECT_URI).authorize, store: before }));
    expect(await whoami(first)).toBe(`${USER} mcp`);
    expect(decodeProtectedHeader((await before.getTokens(a.url))?.access_token ?? '').kid).toBe(oldKey.kid);

    // Step 2, switch: the new key signs; the MCP server already holds it from the JWKS.
    proxy = await start([newKey, oldKey]);
    const after = new InMemoryOAuthStore();
    const second = await connect(a.url, new OAuthClientProvider({ clientMetadata: CLIENT, authorize: new TestBrowser(REDIRECT_URI).authorize, store: after }));
    expect(await whoami(second)).toBe(`${USER} mcp`);
    expect(decodeProtectedHeader((await after.getTokens(a.url))?.access_token ?? '').kid).toBe(newKey.kid);
    // The token signed with the old key still verifies.
    expect(await whoami(first)).toBe(`${USER} mcp`);
    expect(a.refusals).toEqual([]);
  });

  it('refuses a token for another resource: server A turns away the token issued for server B', async () => {
    const { proxy, a, b } = await setUp();
    const storeB = new InMemoryOAuthStore();
    const clientB = await connect(b.url, new OAuthClientProvider({ clientMetadata: CLIENT, authorize: new TestBrowser(REDIRECT_URI).authorize, store: storeB }));
    expect(await whoami(clientB)).toBe(`${USER} mcp`);

    // A client that holds B's token (and its DPoP key and registration) for A.
    const tokensForB = await storeB.getTokens(b.url);
    const registration = await storeB.getClient(proxy.issuer);
    const storeA = new InMemoryOAuthStore();
    if (tokensForB === undefined || registration === undefined) throw new Error('the first client has no tokens');
    await storeA.setTokens(a.url, tokensForB);
    await storeA.setClient(proxy.issuer, registration);
    const signIns: URL[] = [];
    const authorize = (url: URL): Promise<URL> => {
      signIns.push(url);
      return Promise.reject(new Error('no user at the browser'));
    };
    // Only observes the token endpoint's answers; every request goes to the real servers.
    const tokenAnswers: unknown[] = [];
    const observing: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input instanceof Request ? input.url : input).endsWith('/token')) tokenAnswers.push(await response.clone().json());
      return response;
    };
    await expect(connect(a.url, new OAuthClientProvider({ clientMetadata: CLIENT, authorize, store: storeA, fetch: observing }))).rejects.toThrow();

    // A refused the token for its audience; the refresh token (granted for B) got nothing for A
    // (invalid_target); only a new sign-in could help (the client asks for one, for A).
    expect(a.refusals.length).toBeGreaterThan(0);
    expect(a.refusals.every((error) => error instanceof Error && /unexpected "aud" claim value/.test(error.message))).toBe(true);
    expect(tokenAnswers.length).toBeGreaterThan(0);
    expect(tokenAnswers.every((answer) => (answer as { error?: string }).error === 'invalid_target')).toBe(true);
    expect(signIns.length).toBeGreaterThan(0);
    expect(signIns.every((url) => url.searchParams.get('resource') === a.url)).toBe(true);
  });

  it('answers invalid_target for a resource it does not serve', async () => {
    const { proxy } = await setUp();
    const registered = await fetch(`${proxy.issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI], application_type: 'native', token_endpoint_auth_method: 'none' }),
    });
    expect(registered.status).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const url = new URL(`${proxy.issuer}/auth`);
    for (const [name, value] of Object.entries({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 'xyz',
      resource: 'https://elsewhere.example/mcp',
    })) {
      url.searchParams.set(name, value);
    }
    const response = await fetch(url, { redirect: 'manual' });
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.href.startsWith(REDIRECT_URI)).toBe(true);
    expect(location.searchParams.get('error')).toBe('invalid_target');
    expect(location.searchParams.get('iss')).toBe(proxy.issuer);
  });

  it('grants every scope of the resource to an authorization request without scope (the conformance suite sends none)', async () => {
    const { proxy, a } = await setUp();
    const registered = await fetch(`${proxy.issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI], application_type: 'native', token_endpoint_auth_method: 'none' }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const verifier = 'a-code-verifier-of-forty-three-characters-or-more';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const url = new URL(`${proxy.issuer}/auth`);
    for (const [name, value] of Object.entries({ client_id: clientId, response_type: 'code', redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256', state: 's', resource: a.url })) {
      url.searchParams.set(name, value);
    }
    const answer = await new TestBrowser(REDIRECT_URI).authorize(url);
    const token = await fetch(`${proxy.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: answer.searchParams.get('code') ?? '', redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: clientId, resource: a.url }),
    });
    expect(token.headers.get('cache-control')).toBe('no-store');
    const body = (await token.json()) as { access_token: string; token_type: string };
    expect(body.token_type).toBe('Bearer');
    expect(decodeJwt(body.access_token)).toMatchObject({ aud: a.url, scope: 'mcp', sub: USER });
  });

  it('answers bad requests to its own routes with a page or a status, never a crash', async () => {
    const { proxy, proxyErrors } = await setUp();
    const callback = await fetch(`${proxy.issuer}/upstream/callback?state=unknown&code=x`);
    expect(callback.status).toBe(400);
    expect(await callback.text()).toContain('Sign-in expired');
    expect((await fetch(`${proxy.issuer}/upstream/callback`)).status).toBe(400);
    expect((await fetch(`${proxy.issuer}/upstream/callback`, { method: 'POST' })).status).toBe(405);
    // No interaction cookie: this browser started no sign-in.
    const page = await fetch(`${proxy.issuer}/interaction/abc123`);
    expect(page.status).toBe(400);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const confirm = await fetch(`${proxy.issuer}/interaction/abc123/confirm`, { method: 'POST', body: 'csrf=x&decision=approve', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(confirm.status).toBe(400);
    expect((await fetch(`${proxy.issuer}/interaction/abc123/confirm`)).status).toBe(405);
    expect(proxyErrors).toEqual([]);
  });

  it('refuses a consent form that does not carry the page CSRF token', async () => {
    const { a, upstream } = await setUp();
    const browser = new TestBrowser(REDIRECT_URI);
    // The page is shown, then the form goes back with another token (as a forged form would).
    browser.csrf = 'forged-token';
    await expect(connect(a.url, new OAuthClientProvider({ clientMetadata: CLIENT, authorize: browser.authorize }))).rejects.toThrow(/HTTP 403/);
    expect(upstream.logins()).toBe(0);
  });

  it('takes a client ID metadata document as the client_id instead of a registration', async () => {
    const documentUrl = 'https://agent.example.test/oauth/client.json';
    const document = {
      client_id: documentUrl,
      client_name: 'agent by metadata document',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    };
    const fetched: string[] = [];
    // The proxy's outgoing requests: the document's host is served here; everything else goes out.
    const proxyFetch: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url !== documentUrl) return fetch(input, init);
      fetched.push(url);
      return Response.json(document, { headers: { 'cache-control': 'max-age=300' } });
    };
    const { proxy, a } = await setUp({ fetch: proxyFetch });
    const metadata = (await (await fetch(`${proxy.issuer}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ issuer: proxy.issuer, client_id_metadata_document_supported: true, code_challenge_methods_supported: ['S256'] });

    const browser = new TestBrowser(REDIRECT_URI);
    const store = new InMemoryOAuthStore();
    const client = await connect(a.url, new OAuthClientProvider({ clientMetadataUrl: documentUrl, clientMetadata: CLIENT, authorize: browser.authorize, store }));
    expect(await whoami(client)).toBe(`${USER} mcp`);
    expect(fetched.length).toBeGreaterThanOrEqual(1);
    expect(browser.consentPages[0]).toContain('agent by metadata document');
    expect(decodeJwt((await store.getTokens(a.url))?.access_token ?? '')).toMatchObject({ client_id: documentUrl, aud: a.url });
  });

  it('ends with access_denied at the client when the user denies it, and never reaches the upstream', async () => {
    const { a, upstream } = await setUp();
    const browser = new TestBrowser(REDIRECT_URI);
    browser.decision = 'deny';
    await expect(connect(a.url, new OAuthClientProvider({ clientMetadata: CLIENT, authorize: browser.authorize }))).rejects.toThrow(/authorization response from the server is an error/);
    // (The client's connect tries twice: each try shows the page and is denied.)
    expect(browser.answers.length).toBeGreaterThan(0);
    expect(browser.answers.every((answer) => answer.searchParams.get('error') === 'access_denied')).toBe(true);
    expect(browser.consentPages).toHaveLength(browser.answers.length);
    expect(upstream.logins()).toBe(0);
  });

  it('skips the page for an auto-approved client and refuses an account the application does not admit', async () => {
    const admitted: string[] = [];
    const { a, upstream } = await setUp({
      consent: { autoApprove: (client) => client.clientName === 'e2e agent' },
      account: (identity) => {
        admitted.push(identity.subject);
        return identity.subject === 'someone-else' ? identity.subject : undefined;
      },
    });
    const browser = new TestBrowser(REDIRECT_URI);
    await expect(connect(a.url, new OAuthClientProvider({ clientMetadata: CLIENT, authorize: browser.authorize }))).rejects.toThrow(/authorization response from the server is an error/);
    expect(browser.answers.length).toBeGreaterThan(0);
    expect(browser.answers.every((answer) => answer.searchParams.get('error') === 'access_denied' && answer.searchParams.get('error_description') === 'This account may not use this server')).toBe(true);
    expect(browser.consentPages).toEqual([]);
    // Every try went through the upstream (its sign-in page once; its session after that).
    expect(upstream.logins()).toBe(1);
    expect(admitted).toEqual(browser.answers.map(() => USER));
  });
});
