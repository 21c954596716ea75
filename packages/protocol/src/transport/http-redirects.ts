/**
 * The one redirect policy of statemcp's HTTP clients (the Streamable HTTP and HTTP+SSE client
 * transports, `nodeHttpFetch`, and the OAuth requests of `@statemcp/client/auth`).
 *
 * A redirect must never carry what the request carried to a place the user did not choose.
 * `fetch` keeps every header on a redirect except `Authorization` (and only across origins,
 * Fetch Standard §4.4 "HTTP-redirect fetch"); an MCP request also carries a `DPoP` proof, an
 * `Mcp-Session-Id`, API-key headers and a JSON-RPC body that 307/308 send again (RFC 9110
 * §15.4.8). So the requests are made with `redirect: 'manual'` and every 3xx with a `Location`
 * goes through {@link redirectHop}:
 *
 * 1. a `Location` that is not a URL: refused (`invalid-location`);
 * 2. from `https:` to anything but `https:`: refused (`downgrade`);
 * 3. to another origin (RFC 6454: scheme, host, port): refused (`cross-origin`);
 * 4. in mode `'refuse'` (MCP and OAuth requests), any other redirect: refused (`not-followed`);
 *    the error names the `Location` so the user can point the client there;
 * 5. in mode `'same-origin'` (`nodeHttpFetch` as a general `fetch`, OAuth metadata GETs): at most
 *    {@link MAX_REDIRECTS} hops (`too-many` past them), and every followed hop keeps only
 *    {@link HEADERS_KEPT_ON_REDIRECT}: no credentials, no session id, no custom header. 307 and
 *    308 keep the method and body; 301 and 302 turn a POST into a GET, 303 anything but HEAD
 *    (RFC 9110 §15.4).
 *
 * A browser answers `redirect: 'manual'` with an opaque response that hides the `Location`: it
 * is refused (`opaque`). A `fetch` that follows although asked not to (`response.redirected`)
 * is refused too (`followed-by-fetch`), so the caller at least learns of it.
 */
import { RedirectRefusedError, type RedirectRefusal } from '../errors/errors.js';
import { PROTOCOL_VERSION_HEADER } from './http-headers.js';

/** How a {@link guardRedirects} fetch treats a same-origin redirect. Cross-origin and downgrading ones are always refused. */
export type RedirectMode = 'refuse' | 'same-origin';

/** Hops a `'same-origin'` follower takes before refusing (`too-many`). */
export const MAX_REDIRECTS = 5;

/**
 * The request headers a followed redirect keeps (lower case). Everything else is dropped:
 * `Authorization`, `DPoP`, `Cookie`, `Proxy-Authorization`, `Mcp-Session-Id`, and any header
 * the application added.
 */
export const HEADERS_KEPT_ON_REDIRECT: ReadonlySet<string> = new Set([
  'accept',
  'accept-language',
  'content-language',
  'content-type',
  PROTOCOL_VERSION_HEADER,
  'user-agent',
]);

/** Where a followed redirect goes, and how. */
export interface RedirectHop {
  readonly url: URL;
  readonly method: string;
  /** True for 307 and 308: the body is sent again. */
  readonly keepsBody: boolean;
}

/** The redirect statuses of RFC 9110 §15.4 that carry a `Location` to follow. */
export function isRedirectStatus(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/**
 * The next hop of a redirect of `method` from `from` (status `status`, `Location` `location`),
 * or a {@link RedirectRefusedError} thrown under the rules in this module's header. `hops` is
 * the number of redirects already followed for this request.
 *
 * @example
 * ```ts
 * redirectHop(new URL('http://127.0.0.1:3000/mcp'), 307, '/mcp/', 'POST', 'same-origin', 0);
 * // { url: URL('http://127.0.0.1:3000/mcp/'), method: 'POST', keepsBody: true }
 * redirectHop(new URL('https://a.example/mcp'), 307, 'https://b.example/', 'POST', 'same-origin', 0);
 * // throws RedirectRefusedError (refusal 'cross-origin', location 'https://b.example/')
 * ```
 */
export function redirectHop(from: URL, status: number, location: string, method: string, mode: RedirectMode, hops: number): RedirectHop {
  const refuse = (refusal: RedirectRefusal, target: string | undefined, why: string): never => {
    throw new RedirectRefusedError(from.href, target, status, refusal, `${method} ${from.href} was redirected (HTTP ${status}) to ${target ?? JSON.stringify(location)}; ${why}`);
  };
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    return refuse('invalid-location', undefined, 'the Location is not a URL');
  }
  if ((from.protocol === 'https:' && to.protocol !== 'https:') || (to.protocol !== 'https:' && to.protocol !== 'http:')) {
    return refuse('downgrade', to.href, `refusing to leave ${from.protocol} for ${to.protocol}`);
  }
  if (to.origin !== from.origin) {
    return refuse('cross-origin', to.href, `refusing to follow a redirect to another origin (${to.origin}); if you trust it, use that URL directly`);
  }
  if (mode === 'refuse') return refuse('not-followed', to.href, 'this request follows no redirect (MCP and OAuth requests never do); if that is the right server, use that URL directly');
  if (hops >= MAX_REDIRECTS) return refuse('too-many', to.href, `more than ${MAX_REDIRECTS} redirects in a row`);
  const keepsBody = status === 307 || status === 308;
  const becomesGet = (status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST');
  return { url: to, method: becomesGet ? 'GET' : method, keepsBody: keepsBody && !becomesGet };
}

/** The headers of `init` a followed redirect keeps ({@link HEADERS_KEPT_ON_REDIRECT}), as a plain record. */
export function headersKeptOnRedirect(headers: RequestInit['headers']): Record<string, string> {
  const kept: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    if (HEADERS_KEPT_ON_REDIRECT.has(name)) kept[name] = value;
  });
  return kept;
}

/**
 * `fetch` under the redirect policy: each request is made with `redirect: 'manual'`, and a
 * redirect is refused with a {@link RedirectRefusedError} (nothing is sent to its `Location`)
 * or, in mode `'same-origin'`, followed without credentials as {@link redirectHop} says. In
 * mode `'same-origin'` a caller that asks for `redirect: 'manual'` itself gets the redirect as
 * it came; `redirect: 'error'` refuses every redirect.
 *
 * Requests given as a `Request` object are never followed (their body cannot be sent twice).
 *
 * @example
 * ```ts
 * const safeFetch = guardRedirects(globalThis.fetch, 'refuse');
 * await safeFetch('https://mcp.example.com/mcp', { method: 'POST', headers, body }); // a 307 rejects with RedirectRefusedError
 * ```
 */
export function guardRedirects(fetch: typeof globalThis.fetch, mode: RedirectMode): typeof globalThis.fetch {
  // Not async: a response that is no redirect costs one `.then`, nothing more.
  return (input, init) => {
    const manual = init?.redirect === 'manual';
    if (manual && mode === 'same-origin') return fetch(input, init);
    return fetch(input, manual ? init : { ...init, redirect: 'manual' }).then((response) => (needsPolicy(response) ? applyPolicy(fetch, mode, input, init, response) : response));
  };
}

/** Refuses or follows `response`, a redirect of the request `input`/`init`, until a response that is no redirect. */
async function applyPolicy(fetch: typeof globalThis.fetch, mode: RedirectMode, input: Parameters<typeof globalThis.fetch>[0], init: RequestInit | undefined, first: Response): Promise<Response> {
  const follows = mode === 'same-origin' && init?.redirect !== 'error' && (typeof input === 'string' || input instanceof URL);
  const method = (init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')).toUpperCase();
  let from = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  let hop: RequestInit = { ...init, method, redirect: 'manual' };
  let response = first;
  for (let hops = 0; ; hops++) {
    const next = await nextRequest(response, from, hop, follows ? mode : 'refuse', hops);
    if (next === undefined) return response;
    from = next.url;
    hop = next.init;
    response = await fetch(from.href, hop);
    if (!needsPolicy(response)) return response;
  }
}

function needsPolicy(response: Response): boolean {
  return response.type === 'opaqueredirect' || response.redirected || (isRedirectStatus(response.status) && response.headers.has('location'));
}

/** The request that follows `response` (a redirect), or `undefined` when `response` is the answer; throws when refused. */
async function nextRequest(response: Response, from: URL, init: RequestInit, mode: RedirectMode, hops: number): Promise<{ url: URL; init: RequestInit } | undefined> {
  const method = (init.method ?? 'GET').toUpperCase();
  if (response.type === 'opaqueredirect') {
    throw new RedirectRefusedError(from.href, undefined, 0, 'opaque', `${method} ${from.href} was redirected to a place the browser does not reveal; MCP and OAuth requests follow no redirect`);
  }
  if (response.redirected) {
    await discard(response);
    const target = response.url === '' ? undefined : response.url;
    throw new RedirectRefusedError(from.href, target, response.status, 'followed-by-fetch', `${method} ${from.href} was redirected to ${target ?? 'another URL'} by a fetch that was asked not to follow redirects`);
  }
  const location = response.headers.get('location');
  if (location === null) return undefined;
  await discard(response);
  const next = redirectHop(from, response.status, location, method, mode, hops);
  const body = next.keepsBody ? (init.body ?? null) : null;
  return { url: next.url, init: { ...init, method: next.method, headers: headersKeptOnRedirect(init.headers), body } };
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
