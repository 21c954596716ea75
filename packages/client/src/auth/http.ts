/**
 * The HTTP settings every OAuth request of the provider shares: the `fetch` to use and
 * whether plain `http:` is allowed (loopback hosts only, unless the application says so).
 */
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

/** oauth4webapi's request options: our `fetch`, and plain `http:` where {@link isSecureEnough} allows it. */
export function requestOptions(http: OAuthHttp, target: URL | string | undefined): { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]?: boolean } {
  const url = target === undefined ? undefined : new URL(target);
  const insecure = url !== undefined && url.protocol === 'http:' && isSecureEnough(url, http);
  return { [oauth.customFetch]: http.fetch, ...(insecure && { [oauth.allowInsecureRequests]: true }) };
}

/** GETs a JSON document; `undefined` on 4xx (absent), an error on anything else that is not JSON. */
export async function getJson(url: URL, http: OAuthHttp, headers: Record<string, string> = {}): Promise<Record<string, unknown> | undefined> {
  if (!isSecureEnough(url, http)) throw new TypeError(`Refusing to fetch ${url.href} over plain HTTP`);
  const response = await http.fetch(url.href, { headers: { accept: 'application/json', ...headers } });
  if (response.status >= 400 && response.status < 500) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`GET ${url.href} answered HTTP ${response.status}`);
  }
  const body: unknown = await response.json();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error(`GET ${url.href} did not answer a JSON object`);
  return body as Record<string, unknown>;
}
