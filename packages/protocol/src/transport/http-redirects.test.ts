import { describe, expect, it } from 'vitest';
import { RedirectRefusedError } from '../errors/errors.js';
import { MAX_REDIRECTS, guardRedirects, headersKeptOnRedirect, redirectHop } from './http-redirects.js';

/** A fake `fetch` answering from a table of URL → response, recording each call. */
function fakeFetch(routes: Record<string, () => Response>): { fetch: typeof fetch; calls: { url: string; init: RequestInit | undefined }[] } {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    calls.push({ url, init });
    const route = routes[url];
    return route === undefined ? new Response('not found', { status: 404 }) : route();
  };
  return { fetch, calls };
}

const redirect = (location: string, status = 307) => () => new Response(null, { status, headers: { location } });

function refusalOf(run: () => unknown): RedirectRefusedError {
  try {
    run();
  } catch (error) {
    if (error instanceof RedirectRefusedError) return error;
    throw error;
  }
  throw new Error('expected a RedirectRefusedError');
}

describe('redirectHop', () => {
  const from = new URL('https://mcp.example.com/mcp');

  it('refuses another origin and names the Location', () => {
    const error = refusalOf(() => redirectHop(from, 307, 'https://evil.example/steal', 'POST', 'same-origin', 0));
    expect(error).toMatchObject({ code: 'REDIRECT_REFUSED', refusal: 'cross-origin', location: 'https://evil.example/steal', status: 307, url: from.href, category: 'interrupted' });
    expect(error.message).toContain('https://evil.example/steal');
  });

  it('treats another port as another origin', () => {
    expect(refusalOf(() => redirectHop(from, 308, 'https://mcp.example.com:8443/mcp', 'POST', 'same-origin', 0)).refusal).toBe('cross-origin');
  });

  it('refuses a downgrade from https to http, and schemes that are not HTTP', () => {
    expect(refusalOf(() => redirectHop(from, 301, 'http://mcp.example.com/mcp', 'GET', 'same-origin', 0)).refusal).toBe('downgrade');
    expect(refusalOf(() => redirectHop(new URL('http://127.0.0.1/'), 302, 'file:///etc/passwd', 'GET', 'same-origin', 0)).refusal).toBe('downgrade');
  });

  it('refuses a Location that is not a URL', () => {
    expect(refusalOf(() => redirectHop(from, 307, 'http://[bad', 'GET', 'same-origin', 0)).refusal).toBe('invalid-location');
  });

  it('refuses a same-origin redirect in mode refuse, naming it', () => {
    const error = refusalOf(() => redirectHop(from, 307, '/mcp/', 'POST', 'refuse', 0));
    expect(error.refusal).toBe('not-followed');
    expect(error.location).toBe('https://mcp.example.com/mcp/');
  });

  it('follows a same-origin redirect keeping the method and body on 307/308, as GET on 303 and on 301/302 after a POST', () => {
    expect(redirectHop(from, 307, '/mcp/', 'POST', 'same-origin', 0)).toEqual({ url: new URL('https://mcp.example.com/mcp/'), method: 'POST', keepsBody: true });
    expect(redirectHop(from, 308, '/mcp/', 'DELETE', 'same-origin', 0)).toMatchObject({ method: 'DELETE', keepsBody: true });
    expect(redirectHop(from, 303, '/done', 'POST', 'same-origin', 0)).toMatchObject({ method: 'GET', keepsBody: false });
    expect(redirectHop(from, 303, '/done', 'HEAD', 'same-origin', 0)).toMatchObject({ method: 'HEAD', keepsBody: false });
    expect(redirectHop(from, 302, '/x', 'POST', 'same-origin', 0)).toMatchObject({ method: 'GET', keepsBody: false });
    expect(redirectHop(from, 301, '/x', 'PUT', 'same-origin', 0)).toMatchObject({ method: 'PUT', keepsBody: false });
  });

  it(`refuses past ${MAX_REDIRECTS} hops`, () => {
    expect(refusalOf(() => redirectHop(from, 307, '/again', 'GET', 'same-origin', MAX_REDIRECTS)).refusal).toBe('too-many');
  });
});

describe('headersKeptOnRedirect', () => {
  it('keeps only the content-negotiation headers and MCP-Protocol-Version', () => {
    const kept = headersKeptOnRedirect({
      Authorization: 'Bearer t',
      DPoP: 'proof',
      Cookie: 'a=b',
      'Proxy-Authorization': 'Basic x',
      'Mcp-Session-Id': 's',
      'X-Api-Key': 'k',
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      'MCP-Protocol-Version': '2025-11-25',
    });
    expect(kept).toEqual({ accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' });
  });
});

describe('guardRedirects', () => {
  it('asks the fetch not to follow, and hands on a response that is no redirect untouched', async () => {
    const ok = new Response('fine');
    const { fetch, calls } = fakeFetch({ 'http://127.0.0.1/mcp': () => ok });
    expect(await guardRedirects(fetch, 'refuse')('http://127.0.0.1/mcp', { method: 'POST' })).toBe(ok);
    expect(calls[0]?.init).toMatchObject({ method: 'POST', redirect: 'manual' });
  });

  it('rejects a redirect in mode refuse without a second request', async () => {
    const { fetch, calls } = fakeFetch({ 'http://127.0.0.1/mcp': redirect('/mcp/') });
    await expect(guardRedirects(fetch, 'refuse')('http://127.0.0.1/mcp', { method: 'POST', body: '{}' })).rejects.toMatchObject({ refusal: 'not-followed', location: 'http://127.0.0.1/mcp/' });
    expect(calls).toHaveLength(1);
  });

  it('follows same-origin hops with the body and without credentials', async () => {
    const { fetch, calls } = fakeFetch({ 'http://127.0.0.1/a': redirect('/b', 307), 'http://127.0.0.1/b': () => new Response('there') });
    const response = await guardRedirects(fetch, 'same-origin')('http://127.0.0.1/a', { method: 'POST', body: 'payload', headers: { authorization: 'Bearer t', 'mcp-session-id': 's', 'content-type': 'text/plain' } });
    expect(await response.text()).toBe('there');
    expect(calls[1]).toMatchObject({ url: 'http://127.0.0.1/b', init: { method: 'POST', body: 'payload', redirect: 'manual', headers: { 'content-type': 'text/plain' } } });
  });

  it('passes a manual redirect through in mode same-origin, and refuses every one under redirect: error', async () => {
    const { fetch } = fakeFetch({ 'http://127.0.0.1/a': redirect('/b') });
    const guarded = guardRedirects(fetch, 'same-origin');
    expect((await guarded('http://127.0.0.1/a', { redirect: 'manual' })).status).toBe(307);
    await expect(guarded('http://127.0.0.1/a', { redirect: 'error' })).rejects.toMatchObject({ refusal: 'not-followed' });
  });

  it('refuses a browser opaque redirect and a fetch that followed on its own', async () => {
    const opaque = { type: 'opaqueredirect', status: 0, redirected: false, headers: new Headers(), body: null } as unknown as Response;
    await expect(guardRedirects(async () => opaque, 'same-origin')('https://a.example/mcp')).rejects.toMatchObject({ refusal: 'opaque', location: undefined });
    const followed = new Response('elsewhere');
    Object.defineProperties(followed, { redirected: { value: true }, url: { value: 'https://evil.example/x' } });
    await expect(guardRedirects(async () => followed, 'refuse')('https://a.example/mcp')).rejects.toMatchObject({ refusal: 'followed-by-fetch', location: 'https://evil.example/x' });
  });

  it('stops after the hop limit', async () => {
    const { fetch, calls } = fakeFetch({ 'http://127.0.0.1/loop': redirect('/loop', 302) });
    await expect(guardRedirects(fetch, 'same-origin')('http://127.0.0.1/loop')).rejects.toMatchObject({ refusal: 'too-many' });
    expect(calls).toHaveLength(MAX_REDIRECTS + 1);
  });
});
