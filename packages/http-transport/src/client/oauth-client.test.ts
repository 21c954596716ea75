/**
 * `@statemcp/client`'s `Client` over `StreamableHttpClientTransport` with `OAuthClientProvider`
 * as its `authProvider`, against `McpServer` behind a protected resource and an authorization
 * server written here (routed in-process through `fetch`): the access tokens are JWTs signed
 * and verified with `jose` (audience = the resource, issuer, expiry, and for DPoP the proof's
 * signature, `htm`/`htu`, `ath` and the `cnf.jkt` binding).
 */
import { Client } from '@statemcp/client';
import { InMemoryOAuthStore, OAuthClientProvider, type OAuthStore } from '@statemcp/client/auth';
import { SimulatedClock } from '@statemcp/protocol';
import { SignJWT, calculateJwkThumbprint, decodeProtectedHeader, generateKeyPair, importJWK, jwtVerify, base64url } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';

import { FIXTURE_TOOLS, buildFixtureServer, firstText } from '../../test/mcp-fixture.js';
import { createStreamableHttpServer, type StreamableHttpServer } from '../server/index.js';
import { StreamableHttpClientTransport } from './streamable-http.js';

const RESOURCE = 'http://localhost/mcp';
const PRM = 'http://localhost/.well-known/oauth-protected-resource/mcp';
const ISSUER = 'http://127.0.0.1:8401';
const REDIRECT = 'http://127.0.0.1:9/callback';

interface Deployment {
  readonly fetch: typeof fetch;
  /** `grant_type` of each token request. */
  readonly grants: string[];
  /** `DPoP` proofs seen by the MCP endpoint. */
  readonly proofs: string[];
  /** Makes the MCP endpoint refuse the next token it sees as expired. */
  expireNext: boolean;
  readonly http: StreamableHttpServer;
}

async function deploy(options: { dpop: boolean }): Promise<Deployment> {
  const keys = await generateKeyPair('ES256');
  const mcp = buildFixtureServer();
  const http = createStreamableHttpServer({ connect: (transport) => mcp.connect(transport) });
  let issued = 0;
  const challenge = (error?: string): Response =>
    new Response(null, { status: 401, headers: { 'www-authenticate': `${options.dpop ? 'DPoP' : 'Bearer'} resource_metadata="${PRM}"${error === undefined ? '' : `, error="${error}"`}` } });

  /** The proof of a DPoP request: its key's thumbprint when valid for `method` `url` (and `token`). */
  const verifyProof = async (proof: string | null, method: string, url: string, token?: string): Promise<string | undefined> => {
    if (proof === null) return undefined;
    const header = decodeProtectedHeader(proof);
    if (header.typ !== 'dpop+jwt' || header.jwk === undefined) return undefined;
    const { payload } = await jwtVerify(proof, await importJWK(header.jwk, header.alg), { maxTokenAge: 60 });
    if (payload.htm !== method || payload.htu !== url || typeof payload.jti !== 'string') return undefined;
    if (token !== undefined) {
      const ath = base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))));
      if (payload.ath !== ath) return undefined;
    }
    return calculateJwkThumbprint(header.jwk);
  };

  const mint = async (scope: string, jkt: string | undefined): Promise<Response> => {
    issued++;
    const token = await new SignJWT({ scope, ...(jkt !== undefined && { cnf: { jkt } }) })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer(ISSUER)
      .setAudience(RESOURCE)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(keys.privateKey);
    return Response.json({ access_token: token, token_type: jkt === undefined ? 'Bearer' : 'DPoP', expires_in: 300, refresh_token: `refresh-${issued}`, scope });
  };

  const deployment: Deployment = {
    grants: [],
    proofs: [],
    expireNext: false,
    http,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const at = `${url.origin}${url.pathname}`;
      if (at === RESOURCE) {
        const [scheme, token] = (request.headers.get('authorization') ?? '').split(' ');
        if (token === undefined || scheme !== (options.dpop ? 'DPoP' : 'Bearer')) return challenge();
        try {
          const { payload } = await jwtVerify(token, keys.publicKey, { issuer: ISSUER, audience: RESOURCE });
          if (options.dpop) {
            const proof = request.headers.get('dpop');
            const jkt = await verifyProof(proof, request.method, RESOURCE, token);
            if (jkt === undefined || (payload.cnf as { jkt?: string } | undefined)?.jkt !== jkt) return challenge('invalid_token');
            deployment.proofs.push(proof ?? '');
          }
        } catch {
          return challenge('invalid_token');
        }
        if (deployment.expireNext) {
          deployment.expireNext = false;
          return challenge('invalid_token');
        }
        return http.handleFetch(request);
      }
      switch (at) {
        case PRM:
          return Response.json({ resource: RESOURCE, authorization_servers: [ISSUER], scopes_supported: ['mcp'] });
        case `${ISSUER}/.well-known/oauth-authorization-server`:
          return Response.json({
            issuer: ISSUER,
            authorization_endpoint: `${ISSUER}/authorize`,
            token_endpoint: `${ISSUER}/token`,
            registration_endpoint: `${ISSUER}/register`,
            code_challenge_methods_supported: ['S256'],
            authorization_response_iss_parameter_supported: true,
            ...(options.dpop && { dpop_signing_alg_values_supported: ['ES256'] }),
          });
        case `${ISSUER}/register`:
          return Response.json({ client_id: 'client-1', token_endpoint_auth_method: 'none' }, { status: 201 });
        case `${ISSUER}/token`: {
          const body = new URLSearchParams(await request.text());
          deployment.grants.push(body.get('grant_type') ?? '');
          if (body.get('resource') !== RESOURCE) return Response.json({ error: 'invalid_target' }, { status: 400 });
          const jkt = await verifyProof(request.headers.get('dpop'), 'POST', `${ISSUER}/token`);
          if (options.dpop && jkt === undefined) return Response.json({ error: 'invalid_dpop_proof' }, { status: 400 });
          return mint(body.get('scope') ?? '', jkt);
        }
        default:
          return new Response('not found', { status: 404 });
      }
    },
  };
  return deployment;
}

/** The user agent: the authorization server approves at once. */
async function approve(url: URL): Promise<URL> {
  const redirect = new URL(url.searchParams.get('redirect_uri') ?? REDIRECT);
  redirect.searchParams.set('code', 'approved');
  redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
  redirect.searchParams.set('iss', ISSUER);
  return redirect;
}

const opened: Client[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
});

async function connect(deployment: Deployment, store?: OAuthStore): Promise<{ client: Client; provider: OAuthClientProvider }> {
  const provider = new OAuthClientProvider({ clientMetadata: { client_name: 'test', redirect_uris: [REDIRECT] }, authorize: approve, fetch: deployment.fetch, ...(store !== undefined && { store }) });
  const transport = new StreamableHttpClientTransport(RESOURCE, { fetch: deployment.fetch, authProvider: provider, standaloneStream: false });
  const client = new Client({ name: 'oauth-test', version: '1.0.0' }, { defaultTimeoutMs: 10_000 });
  opened.push(client);
  await client.connect(transport);
  return { client, provider };
}

describe('OAuthClientProvider as the transport authProvider', () => {
  it('logs in on the first 401 and sends the bearer token on every request', async () => {
    const deployment = await deploy({ dpop: false });
    const { client, provider } = await connect(deployment);
    expect(provider.authorized).toBe(true);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(FIXTURE_TOOLS);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'protected' } }))).toBe('protected');
    expect(deployment.grants).toEqual(['authorization_code']);
  });

  it('refreshes once when the server refuses an expired token, without a new login', async () => {
    const deployment = await deploy({ dpop: false });
    const { client } = await connect(deployment);
    deployment.expireNext = true;
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'again' } }))).toBe('again');
    expect(deployment.grants).toEqual(['authorization_code', 'refresh_token']);
  });

  it('binds tokens with DPoP and sends a fresh proof with every request', async () => {
    const deployment = await deploy({ dpop: true });
    const { client } = await connect(deployment);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'bound' } }))).toBe('bound');
    await client.listTools();
    expect(deployment.proofs.length).toBeGreaterThanOrEqual(3);
    const jtis = deployment.proofs.map((proof) => (JSON.parse(new TextDecoder().decode(base64url.decode(proof.split('.')[1] ?? ''))) as { jti: string }).jti);
    expect(new Set(jtis).size).toBe(jtis.length);
    deployment.expireNext = true;
    await client.listTools();
    expect(deployment.grants).toEqual(['authorization_code', 'refresh_token']);
  });

  it('does not count the time the user takes to sign in against the request timeout', async () => {
    const deployment = await deploy({ dpop: false });
    const clock = new SimulatedClock();
    // The user reads the consent page for a minute; the first request's timeout is one second.
    const slowUser = async (url: URL): Promise<URL> => {
      clock.advance(60_000);
      return approve(url);
    };
    const provider = new OAuthClientProvider({ clientMetadata: { client_name: 'test', redirect_uris: [REDIRECT] }, authorize: slowUser, fetch: deployment.fetch });
    const transport = new StreamableHttpClientTransport(RESOURCE, { fetch: deployment.fetch, authProvider: provider, standaloneStream: false, clock });
    const client = new Client({ name: 'oauth-test', version: '1.0.0' }, { clock, defaultTimeoutMs: 1000, discoveryTimeoutMs: 1000 });
    opened.push(client);
    await client.connect(transport, { timeoutMs: 1000 });
    expect(provider.authorized).toBe(true);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'patient' } }))).toBe('patient');
  });

  it('stores the DPoP key with the bound token: a restarted client uses the stored token and refreshes with the same key', async () => {
    const deployment = await deploy({ dpop: true });
    const store = new InMemoryOAuthStore();
    const first = await connect(deployment, store);
    await first.client.close();
    const stored = await store.getTokens(RESOURCE);
    expect(stored).toMatchObject({ token_type: 'dpop', dpop_key: { kty: 'EC', crv: 'P-256' } });
    expect(typeof stored?.dpop_key?.d).toBe('string');
    // "Restart": a new provider over the same store, no login, the stored token and key.
    const again = await connect(deployment, store);
    expect(firstText(await again.client.callTool({ name: 'echo', arguments: { text: 'restarted' } }))).toBe('restarted');
    expect(deployment.grants).toEqual(['authorization_code']);
    deployment.expireNext = true;
    await again.client.listTools();
    expect(deployment.grants).toEqual(['authorization_code', 'refresh_token']);
    expect((await store.getTokens(RESOURCE))?.dpop_key).toEqual(stored?.dpop_key);
  });
});
