import { MessageTooLargeError, RedirectRefusedError } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { MAX_OAUTH_RESPONSE_BYTES, getJson, oauthFetch, type OAuthHttp } from './http.js';

/** An OAuthHttp whose fetch answers from a table of URL → response, recording each call. */
function http(routes: Record<string, () => Response>): OAuthHttp & { calls: { url: string; init: RequestInit | undefined }[] } {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    calls.push({ url, init });
    return routes[url]?.() ?? new Response('not found', { status: 404 });
  };
  return { fetch, allowHttp: false, calls };
}

const redirect = (location: string) => () => new Response(null, { status: 307, headers: { location } });

describe('oauthFetch', () => {
  it('follows no redirect of a token request, not even a same-origin one, and sends nothing on', async () => {
    const net = http({ 'https://as.example/token': redirect('/token2') });
    const request = oauthFetch(net)('https://as.example/token', { method: 'POST', headers: { authorization: 'Basic c2VjcmV0' }, body: 'grant_type=client_credentials' });
    await expect(request).rejects.toBeInstanceOf(RedirectRefusedError);
    await expect(request).rejects.toMatchObject({ refusal: 'not-followed', location: 'https://as.example/token2' });
    expect(net.calls.map((c) => c.url)).toEqual(['https://as.example/token']);
    expect(net.calls[0]?.init?.redirect).toBe('manual');
  });

  it('hands on the response with its status and headers, and refuses a body past the bound', async () => {
    const net = http({
      'https://as.example/token': () => new Response('{"access_token":"t"}', { status: 200, headers: { 'content-type': 'application/json', 'dpop-nonce': 'n' } }),
      'https://as.example/huge': () => new Response('x'.repeat(MAX_OAUTH_RESPONSE_BYTES + 1)),
      'https://as.example/none': () => new Response(null, { status: 204 }),
    });
    const response = await oauthFetch(net)('https://as.example/token', { method: 'POST' });
    expect([response.status, response.headers.get('dpop-nonce'), await response.json()]).toEqual([200, 'n', { access_token: 't' }]);
    expect((await oauthFetch(net)('https://as.example/none')).status).toBe(204);
    await expect(oauthFetch(net)('https://as.example/huge')).rejects.toBeInstanceOf(MessageTooLargeError);
  });
});

describe('getJson', () => {
  it('follows a same-origin redirect of a metadata document, and refuses another origin', async () => {
    const net = http({
      'https://as.example/.well-known/oauth-authorization-server': redirect('/.well-known/oauth-authorization-server/'),
      'https://as.example/.well-known/oauth-authorization-server/': () => new Response('{"issuer":"https://as.example"}'),
      'https://as.example/.well-known/openid-configuration': redirect('https://evil.example/metadata'),
    });
    expect(await getJson(new URL('https://as.example/.well-known/oauth-authorization-server'), net)).toEqual({ issuer: 'https://as.example' });
    await expect(getJson(new URL('https://as.example/.well-known/openid-configuration'), net)).rejects.toMatchObject({ refusal: 'cross-origin', location: 'https://evil.example/metadata' });
    expect(net.calls.some((c) => c.url.startsWith('https://evil.example'))).toBe(false);
  });

  it(`refuses a document past ${MAX_OAUTH_RESPONSE_BYTES} bytes`, async () => {
    const net = http({ 'https://as.example/doc': () => new Response(`{"pad":"${'x'.repeat(MAX_OAUTH_RESPONSE_BYTES)}"}`) });
    await expect(getJson(new URL('https://as.example/doc'), net)).rejects.toThrow('exceeded the 1 MiB limit');
  });
});
