/**
 * The HTTP settings every OAuth request of the provider shares: the `fetch` to use and
 * whether plain `http:` is allowed (loopback hosts only, unless the application says so).
 *
 * Every OAuth request follows the SDK's redirect policy (`guardRedirects` of
 * `@statemcp/protocol`): the token, registration and other requests carrying secrets follow no
 * redirect (mode `'refuse'`); the metadata GETs, which carry none, follow same-origin ones
 * only. A redirect to another origin, or from `https:` to `http:`, rejects with
 * `RedirectRefusedError` and nothing is sent to its `Location`. Response bodies are read up to
 * {@link MAX_OAUTH_RESPONSE_BYTES}, past which the request fails with `MessageTooLargeError`.
 */
import { guardRedirects, readBoundedText } from '@statemcp/protocol/internal';
import * as oauth from 'oauth4webapi';

/** How the OAuth requests reach the network. */
export interface OAuthHttp {
  readonly fetch: typeof fetch;
  /** Plain `http:` URLs are refused except on loopback hosts, unless this is true. */
  readonly allowHttp: boolean;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for `http:` URLs on loopback hosts and for every `https:` URL. */
export function isSecureEnough(url: URL, http: OAuthHttp): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (http.allowHttp || LOOPBACK.has(url.hostname));
}

/** The most bytes of an OAuth response body read (metadata, registration, token responses are far smaller). */
export const MAX_OAUTH_RESPONSE_BYTES = 1024 * 1024;

const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/**
 * The `fetch` of the OAuth requests that carry secrets (token, registration): no redirect is
 * followed, and the body is read (bounded) before the response is handed on.
 */
export function oauthFetch(http: OAuthHttp): typeof fetch {
  const guarded = guardRedirects(http.fetch, 'refuse');
  return async (input, init) => {
    const response = await guarded(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const text = await readBoundedText(response, { maxBytes: MAX_OAUTH_RESPONSE_BYTES, what: `The response from ${url}` });
    const body = NULL_BODY_STATUSES.has(response.status) ? null : text;
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** oauth4webapi's request options: {@link oauthFetch}, and plain `http:` where {@link isSecureEnough} allows it. */
export function requestOptions(http: OAuthHttp, target: URL | string | undefined): { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]?: boolean } {
  const url = target === undefined ? undefined : new URL(target);
  const insecure = url !== undefined && url.protocol === 'http:' && isSecureEnough(url, http);
  return { [oauth.customFetch]: oauthFetch(http), ...(insecure && { [oauth.allowInsecureRequests]: true }) };
}

/** GETs a JSON document; `undefined` on 4xx (absent), an error on anything else that is not JSON. */
export async function getJson(url: URL, http: OAuthHttp, headers: Record<string, string> = {}): Promise<Record<string, unknown> | undefined> {
  if (!isSecureEnough(url, http)) throw new TypeError(`Refusing to fetch ${url.href} over plain HTTP`);
  const response = await guardRedirects(http.fetch, 'same-origin')(url.href, { headers: { accept: 'application/json', ...headers } });
  if (response.status >= 400 && response.status < 500) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`GET ${url.href} answered HTTP ${response.status}`);
  }
  const body: unknown = JSON.parse(await readBoundedText(response, { maxBytes: MAX_OAUTH_RESPONSE_BYTES, what: `The document at ${url.href}` }));
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error(`GET ${url.href} did not answer a JSON object`);
  return body as Record<string, unknown>;
}
