/**
 * The `fetch` of the HTTP client transports. Its Node default comes through `#node-http-fetch`:
 * `node-http-fetch.ts` everywhere but under a bundler's `browser` condition, which gets
 * `node-http-absent.ts` instead, so a browser bundle carries no `node:http` client.
 */
import { guardRedirects } from '@statemcp/protocol/internal';
import { nodeDefaultFetch } from '#node-http-fetch';

/**
 * The transports' default: `nodeHttpFetch` (its single requests, under the transport's own
 * redirect policy) on Node unless extra `fetch` options were given (they may be
 * undici-specific, such as a `dispatcher`), the global `fetch` elsewhere.
 */
function defaultFetch(requestInit: unknown): typeof fetch {
  const onNode = requestInit === undefined ? nodeDefaultFetch() : undefined;
  return onNode ?? globalThis.fetch.bind(globalThis);
}

/**
 * The `fetch` of the HTTP client transports: the application's `fetch` (or {@link defaultFetch})
 * under the SDK's redirect policy in mode `'refuse'` (`guardRedirects` of `@statemcp/protocol`).
 * Every request goes out with `redirect: 'manual'`, and a redirect of an MCP request rejects with
 * `RedirectRefusedError` naming its `Location`: nothing — no credentials, session id, custom
 * header or JSON-RPC body — is sent there, whatever `fetch` the application passed.
 */
export function transportFetch(fetch: typeof globalThis.fetch | undefined, requestInit: unknown): typeof globalThis.fetch {
  return guardRedirects(fetch ?? defaultFetch(requestInit), 'refuse');
}
