import { describe, expect, it } from 'vitest';
import { OAuthClientProvider, type OAuthClientProviderOptions } from './provider.js';
import { InMemoryOAuthStore } from './store.js';

const SERVER = 'https://mcp.example/mcp';
const PRM_URL = 'https://mcp.example/.well-known/oauth-protected-resource/mcp';
const ISSUER = 'https://as.example';
const REDIRECT = 'http://127.0.0.1:8765/callback';

interface World {
  readonly fetch: typeof fetch;
  /** Every request, as `METHOD path`. */
  readonly log: string[];
  /** The form bodies of the token requests. */
  readonly tokenRequests: URLSearchParams[];
  /** The query of the authorization requests. */
  readonly authorizations: URLSearchParams[];
  metadataIssuer: string;
  /** Whether refresh grants return a new refresh token (default true). */
  rotate: boolean;
}

/** An in-memory authorization server and the PRM of one MCP server, as a `fetch`. */
function world(): World {
  const log: string[] = [];
  const tokenRequests: URLSearchParams[] = [];
  const authorizations: URLSearchParams[] = [];
  let issued = 0;
  const state: World = {
    log,
    tokenRequests,
    authorizations,
    metadataIssuer: ISSUER,
    rotate: true,
    fetch: async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      log.push(`${init?.method ?? 'GET'} ${url.origin}${url.pathname}`);
      switch (`${url.origin}${url.pathname}`) {
        case PRM_URL:
          return Response.json({ resource: SERVER, authorization_servers: [ISSUER], scopes_supported: ['read', 'write'] });
        case `${ISSUER}/.well-known/oauth-authorization-server`:
          return Response.json({
            issuer: state.metadataIssuer,
            authorization_endpoint: `${ISSUER}/authorize`,
            token_endpoint: `${ISSUER}/token`,
            registration_endpoint: `${ISSUER}/register`,
            scopes_supported: ['read', 'write', 'offline_access'],
            code_challenge_methods_supported: ['S256'],
            authorization_response_iss_parameter_supported: true,
          });
        case `${ISSUER}/register`:
          return Response.json({ client_id: 'registered-client', token_endpoint_auth_method: 'none' }, { status: 201 });
        case `${ISSUER}/token`: {
          const body = new URLSearchParams(init?.body as string);
          tokenRequests.push(body);
          issued++;
          const rotate = state.rotate || body.get('grant_type') !== 'refresh_token';
          return Response.json({ access_token: `at-${issued}`, token_type: 'Bearer', expires_in: 3600, ...(rotate && { refresh_token: `rt-${issued}` }), scope: body.get('scope') ?? undefined });
        }
        default:
          return new Response('not found', { status: 404 });
      }
    },
  };
  return state;
}

/** The user agent: the authorization server redirects at once with a code. */
function browser(w: World): (url: URL) => Promise<URL> {
  return async (url) => {
    w.authorizations.push(url.searchParams);
    const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
    redirect.searchParams.set('code', `code-${w.authorizations.length}`);
    redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
    redirect.searchParams.set('iss', ISSUER);
    return redirect;
  };
}

function provider(w: World, options: Partial<OAuthClientProviderOptions> = {}): OAuthClientProvider {
  return new OAuthClientProvider({ clientMetadata: { client_name: 'test', redirect_uris: [REDIRECT] }, authorize: browser(w), fetch: w.fetch, ...options });
}

const request = { method: 'POST', url: SERVER };
function refusal(status: 401 | 403, challenge: string): Response {
  return new Response(null, { status, headers: { 'www-authenticate': challenge } });
}

describe('OAuthClientProvider', () => {
  it('authorizes on a 401: PRM, metadata, registration, code with PKCE and resource, then a bearer token', async () => {
    const w = world();
    const oauth = provider(w);
    expect(await oauth.headers(request)).toEqual({});
    const retry = await oauth.onResponse(request, refusal(401, `Bearer resource_metadata="${PRM_URL}", scope="read"`), new Headers());
    expect(retry).toBe(true);
    expect(await oauth.headers(request)).toEqual({ authorization: 'Bearer at-1' });
    expect(w.log).toEqual([`GET ${PRM_URL}`, `GET ${ISSUER}/.well-known/oauth-authorization-server`, `POST ${ISSUER}/register`, `POST ${ISSUER}/token`]);
    const query = w.authorizations[0];
    expect(query?.get('client_id')).toBe('registered-client');
    expect(query?.get('code_challenge_method')).toBe('S256');
    expect(query?.get('resource')).toBe(SERVER);
    // The challenge's scope, plus offline_access because the authorization server lists it.
    expect(query?.get('scope')).toBe('read offline_access');
    expect(w.tokenRequests[0]?.get('resource')).toBe(SERVER);
    expect(w.tokenRequests[0]?.get('code_verifier')).toMatch(/^[\w-]{43,}$/);
    expect(await oauth.onResponse(request, new Response('{}'), new Headers())).toBe(false);
  });

  it('runs one authorization for concurrent refusals', async () => {
    const w = world();
    const oauth = provider(w);
    const challenge = `Bearer resource_metadata="${PRM_URL}"`;
    const answers = await Promise.all([1, 2, 3].map(() => oauth.onResponse(request, refusal(401, challenge), new Headers())));
    expect(answers).toEqual([true, true, true]);
    expect(w.authorizations).toHaveLength(1);
    // A refusal of a token that was since replaced is just retried.
    expect(await oauth.onResponse(request, refusal(401, challenge), new Headers({ authorization: 'Bearer stale' }))).toBe(true);
    expect(w.authorizations).toHaveLength(1);
  });

  it('steps up on 403 insufficient_scope with the union of scopes, a bounded number of times', async () => {
    const w = world();
    const oauth = provider(w);
    await oauth.onResponse(request, refusal(401, `Bearer resource_metadata="${PRM_URL}", scope="read"`), new Headers());
    const sent = (): Headers => new Headers({ authorization: `Bearer at-${w.tokenRequests.length}` });
    const insufficient = (): Response => refusal(403, `Bearer error="insufficient_scope", scope="write", resource_metadata="${PRM_URL}"`);
    expect(await oauth.onResponse(request, insufficient(), sent())).toBe(true);
    expect(w.authorizations[1]?.get('scope')).toBe('read offline_access write');
    expect(await oauth.onResponse(request, insufficient(), sent())).toBe(true);
    expect(await oauth.onResponse(request, insufficient(), sent())).toBe(false);
    expect(w.authorizations).toHaveLength(3);
  });

  it('refreshes instead of authorizing when a refresh token is held', async () => {
    const w = world();
    const oauth = provider(w);
    await oauth.onResponse(request, refusal(401, `Bearer resource_metadata="${PRM_URL}"`), new Headers());
    expect(await oauth.onResponse(request, refusal(401, 'Bearer error="invalid_token"'), new Headers({ authorization: 'Bearer at-1' }))).toBe(true);
    expect(w.tokenRequests.map((body) => body.get('grant_type'))).toEqual(['authorization_code', 'refresh_token']);
    expect(w.tokenRequests[1]?.get('refresh_token')).toBe('rt-1');
    expect(w.tokenRequests[1]?.get('resource')).toBe(SERVER);
    expect(w.authorizations).toHaveLength(1);
    expect(await oauth.headers(request)).toEqual({ authorization: 'Bearer at-2' });
  });

  it('refuses an authorization server whose metadata names another issuer', async () => {
    const w = world();
    w.metadataIssuer = 'https://evil.example';
    const oauth = provider(w);
    await expect(oauth.onResponse(request, refusal(401, `Bearer resource_metadata="${PRM_URL}"`), new Headers())).rejects.toThrow(/names issuer "https:\/\/evil\.example"/);
    expect(w.authorizations).toHaveLength(0);
  });

  it('refuses a redirect whose iss is not the issuer (RFC 9207)', async () => {
    const w = world();
    const oauth = provider(w, {
      authorize: async (url) => {
        const redirect = new URL(REDIRECT);
        redirect.searchParams.set('code', 'c');
        redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
        redirect.searchParams.set('iss', `${ISSUER}/`);
        return redirect;
      },
    });
    await expect(oauth.onResponse(request, refusal(401, `Bearer resource_metadata="${PRM_URL}"`), new Headers())).rejects.toThrow(/iss/);
    expect(w.tokenRequests).toHaveLength(0);
  });

  it('uses the client credentials grant with pre-registered credentials and no browser', async () => {
    const w = world();
    const oauth = new OAuthClientProvider({ fetch: w.fetch, client: { client_id: 'svc', client_secret: 's3cret' }, grant: { type: 'client_credentials' } });
    await oauth.onResponse(request, refusal(401, `Bearer resource_metadata="${PRM_URL}"`), new Headers());
    expect(w.log).not.toContain(`POST ${ISSUER}/register`);
    const body = w.tokenRequests[0];
    expect(body?.get('grant_type')).toBe('client_credentials');
    expect(body?.get('scope')).toBe('read write');
    expect(body?.get('resource')).toBe(SERVER);
  });

  it('keeps the refresh token when a refresh returns none (RFC 6749 §6), in the store too', async () => {
    const w = world();
    w.rotate = false;
    const store = new InMemoryOAuthStore();
    const oauth = provider(w, { store });
    await oauth.onResponse(request, refusal(401, `Bearer resource_metadata="${PRM_URL}"`), new Headers());
    for (const token of ['at-1', 'at-2']) {
      expect(await oauth.onResponse(request, refusal(401, 'Bearer error="invalid_token"'), new Headers({ authorization: `Bearer ${token}` }))).toBe(true);
      await oauth.onResponse(request, new Response('{}'), new Headers());
    }
    expect(w.tokenRequests.map((body) => body.get('refresh_token'))).toEqual([null, 'rt-1', 'rt-1']);
    expect(await store.getTokens(SERVER)).toMatchObject({ access_token: 'at-3', refresh_token: 'rt-1' });
    expect(w.authorizations).toHaveLength(1);
  });

  it('asks per-issuer credentials only for the verified issuer and refuses credentials bound to another', async () => {
    const w = world();
    const asked: string[] = [];
    const perIssuer = new OAuthClientProvider({
      fetch: w.fetch,
      grant: { type: 'client_credentials' },
      client: (issuer) => {
        asked.push(issuer);
        return { client_id: 'svc', client_secret: 's3cret' };
      },
    });
    await perIssuer.onResponse(request, refusal(401, `Bearer resource_metadata="${PRM_URL}"`), new Headers());
    expect(asked).toEqual([ISSUER]);

    const bound = new OAuthClientProvider({ fetch: w.fetch, grant: { type: 'client_credentials' }, client: { client_id: 'svc', client_secret: 's3cret', issuer: 'https://as.corp.example' } });
    await expect(bound.onResponse(request, refusal(401, `Bearer resource_metadata="${PRM_URL}"`), new Headers())).rejects.toMatchObject({
      code: 'AUTH_DISCOVERY_REFUSED',
      problem: 'client-issuer-mismatch',
      expected: 'https://as.corp.example',
      claimed: ISSUER,
    });
    expect(w.tokenRequests).toHaveLength(1);
  });
});
