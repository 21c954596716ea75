/**
 * statemcp's OAuth client end to end against a real authorization server: `oidc-provider` on
 * 127.0.0.1 with a pre-registered public client (authorization code + PKCE, RFC 8707 resource,
 * RFC 9207 `iss`, DPoP-bound tokens, refresh tokens, revocation), a user who signs in through
 * the provider's interaction pages (driven headlessly here: cookies kept, redirects followed),
 * and statemcp's protected server verifying the provider's JWT access tokens through its JWKS
 * and their DPoP proofs.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@statemcp/client';
import { InMemoryOAuthStore, OAuthClientProvider } from '@statemcp/client/auth';
import { McpServer } from '@statemcp/server';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from '../client/index.js';
import { createStreamableHttpServer } from '../server/streamable-http-server.js';
import type { TokenVerifier } from './auth-info.js';
import { jwtVerifier } from './jwt-verifier.js';
import { createProtectedResource } from './protected-resource.js';

const CLIENT_ID = 'statemcp-cli';
const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const ACCOUNT = 'user-1';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function listen(): Promise<{ http: Server; origin: string }> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  );
  return { http, origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

/** `oidc-provider` for one resource; its interaction page signs `ACCOUNT` in and grants what was asked. */
async function startProvider(resource: string): Promise<{ issuer: string; logins: () => number }> {
  const { http, origin: issuer } = await listen();
  const signing = await generateKeyPair('ES256', { extractable: true });
  const idTokens = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [REDIRECT_URI],
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(signing.privateKey)), kid: 'es', alg: 'ES256', use: 'sig' }, { ...(await exportJWK(idTokens.privateKey)), kid: 'rs', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: ['a-test-cookie-signing-key'] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Refresh tokens for the code grant of a client allowed them (no consent prompt in a test).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return { scope: 'mcp', audience: resource, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } };
        },
      },
    },
  });
  let logins = 0;
  const handle = provider.callback();
  http.on('request', (req, res) => {
    if (!(req.url ?? '').startsWith('/interaction/')) {
      void handle(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const clientId = String(details.params.client_id);
      const grant = details.grantId === undefined ? new provider.Grant({ accountId: ACCOUNT, clientId }) : await provider.Grant.find(details.grantId);
      if (grant === undefined) throw new Error('the interaction names an unknown grant');
      const scope = details.params.scope;
      const requested = typeof scope === 'string' ? scope.split(' ') : [];
      const oidc = requested.filter((scope) => scope === 'openid' || scope === 'offline_access');
      if (oidc.length > 0) grant.addOIDCScope(oidc.join(' '));
      grant.addResourceScope(resource, 'mcp');
      const grantId = await grant.save();
      logins++;
      await provider.interactionFinished(req, res, { login: { accountId: ACCOUNT }, consent: { grantId } }, { mergeWithLastSubmission: false });
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(error instanceof Error ? error.message : String(error));
    });
  });
  return { issuer, logins: () => logins };
}

/** The user's browser: follows redirects with its cookies until the redirect URI is reached. */
async function browser(authorizationUrl: URL): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (url.href.startsWith(REDIRECT_URI)) return url;
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { redirect: 'manual', headers: cookie === '' ? {} : { cookie } });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    const body = await response.text();
    if (location === null) throw new Error(`The authorization server answered HTTP ${response.status} without a redirect: ${body.slice(0, 200)}`);
    url = new URL(location, url);
  }
  throw new Error('Too many redirects');
}

/** statemcp's protected MCP server (`whoami`) behind the provider's JWT access tokens; `refuseNext` rejects one token. */
async function startProtected(): Promise<{ url: string; listening: { http: Server }; serve: (issuer: string) => { refuseNext: () => void } }> {
  const listening = await listen();
  const url = `${listening.origin}/mcp`;
  return {
    url,
    listening,
    serve: (issuer) => {
      const verify = jwtVerifier({ issuer, jwksUri: `${issuer}/jwks`, audience: url });
      let refuse = false;
      const verifier: TokenVerifier = {
        verify: async (token) => {
          if (refuse) {
            refuse = false;
            throw new Error('expired');
          }
          return verify.verify(token);
        },
      };
      const mcpServer = new McpServer({ name: 'protected-code-flow', version: '1.0.0' });
      mcpServer.registerTool('whoami', { description: 'Names the caller' }, (_args, extra) => ({
        content: [{ type: 'text', text: `${extra.auth?.subject ?? 'anonymous'} ${extra.auth?.scopes.join(' ') ?? ''}` }],
      }));
      const authorization = createProtectedResource({ resource: url, authorizationServers: [issuer], verifier, scopesSupported: ['mcp'], requiredScopes: ['mcp'], dpop: true });
      const mcp = createStreamableHttpServer({ connect: (transport) => mcpServer.connect(transport), authorization });
      listening.http.on('request', (req, res) => void mcp.handleNodeRequest(req, res));
      cleanups.push(() => mcp.close());
      return { refuseNext: () => (refuse = true) };
    },
  };
}

describe('OAuthClientProvider with a real authorization server (oidc-provider)', () => {
  it('signs in with the authorization code and PKCE, calls a tool with a DPoP-bound token, refreshes on a 401, and signs in again once the refresh token is revoked', async () => {
    const protectedServer = await startProtected();
    const { issuer, logins } = await startProvider(protectedServer.url);
    const server = protectedServer.serve(issuer);
    const grants: string[] = [];
    // Only observes the token requests; every request goes to the real servers.
    const observing: typeof fetch = async (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/token')) grants.push(new URLSearchParams(typeof init?.body === 'string' ? init.body : init?.body instanceof URLSearchParams ? init.body : '').get('grant_type') ?? '');
      return fetch(input, init);
    };
    const store = new InMemoryOAuthStore();
    const authProvider = new OAuthClientProvider({ client: { client_id: CLIENT_ID }, redirectUri: REDIRECT_URI, authorize: browser, store, fetch: observing });
    const client = new Client({ name: 'statemcp-code-flow', version: '1.0.0' });
    cleanups.push(() => client.close());
    await client.connect(new StreamableHttpClientTransport(protectedServer.url, { authProvider, standaloneStream: false }));
    const whoami = async (): Promise<string> => ((await client.callTool({ name: 'whoami', arguments: {} })).content as { text: string }[])[0]?.text ?? '';

    expect(await whoami()).toBe(`${ACCOUNT} mcp`);
    expect(logins()).toBe(1);
    expect(grants).toEqual(['authorization_code']);

    server.refuseNext();
    expect(await whoami()).toBe(`${ACCOUNT} mcp`);
    expect(grants).toEqual(['authorization_code', 'refresh_token']);
    expect(logins()).toBe(1);

    // The refresh token is revoked at the provider: the next 401 ends in a new sign-in.
    const stored = await store.getTokens(protectedServer.url);
    const revoked = await fetch(`${issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: stored?.refresh_token ?? '', token_type_hint: 'refresh_token', client_id: CLIENT_ID }).toString(),
    });
    expect(revoked.status).toBe(200);
    server.refuseNext();
    expect(await whoami()).toBe(`${ACCOUNT} mcp`);
    expect(grants).toEqual(['authorization_code', 'refresh_token', 'refresh_token', 'authorization_code']);
    expect(logins()).toBe(2);
  });
});
