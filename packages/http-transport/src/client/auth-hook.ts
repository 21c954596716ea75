/**
 * The authorization hook of the HTTP client transports: an {@link HttpAuthProvider} adds its
 * headers to every request (POST, the GET stream, DELETE) and sees every response; on a
 * refusal (401, 403) or a DPoP nonce challenge it may authorize and ask for the request to be
 * sent again. The OAuth policy lives in the provider (`@statemcp/client/auth`), not here.
 */
import { isRequest, requestMethod, requestUrl, type FetchMiddleware } from './fetch-middleware.js';

/** The request an {@link HttpAuthProvider} is asked about. */
export interface HttpAuthRequest {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** The full request URL. */
  readonly url: string;
}

/**
 * Authorization for HTTP requests. `headers` is called before every attempt (so a refreshed
 * token or a fresh DPoP proof goes out each time); `onResponse` sees every response and
 * answers `true` to have the same request sent again — after it obtained a token for a 401,
 * stepped up the scope for a 403, or took a new nonce. Answer `false` to let the response
 * through unchanged (the transport then reports a 401/403 as `AuthRequiredError`).
 * `onResponse` must not read the response body; `sent` are the headers the request carried
 * (to tell a token already replaced by a concurrent request from a refused one).
 */
export interface HttpAuthProvider {
  /** The headers to add to this attempt of `request` (an `Authorization`, a `DPoP` proof). */
  headers(request: HttpAuthRequest): Promise<Readonly<Record<string, string>>> | Readonly<Record<string, string>>;
  /** Sees each response; `true` asks for the request to be sent again (after a refresh, a login, a new DPoP nonce). */
  onResponse(request: HttpAuthRequest, response: Response, sent: Headers): Promise<boolean> | boolean;
}

/** Upper bound of attempts per request, whatever the provider answers (a provider bug cannot loop). */
export const MAX_AUTH_ATTEMPTS = 8;

/** Options of {@link authMiddleware}. */
export interface AuthMiddlewareOptions {
  /**
   * Told when authorization begins (`true`: the provider is handling a refusal — a login, a
   * refresh, a step-up) and when the last one in flight ends (`false`). The transports pass
   * it on as `TransportSink.onAuthorizing`, so request timeouts do not run during a login.
   */
  readonly onAuthorizing?: (active: boolean) => void;
}

/**
 * A `fetch` middleware applying `provider` to every call: its headers are set on each attempt
 * (replacing same-named ones), and the call is repeated while `onResponse` answers `true`, at
 * most {@link MAX_AUTH_ATTEMPTS} times. The request body must be re-sendable (a string, as
 * the transports send). Used by the transports' `authProvider` option; usable with any `fetch`.
 *
 * @example
 * ```ts
 * const fetch = withFetchMiddleware(nodeHttpFetch, authMiddleware(provider));
 * ```
 */
export function authMiddleware(provider: HttpAuthProvider, options: AuthMiddlewareOptions = {}): FetchMiddleware {
  let authorizing = 0;
  const onResponse = async (request: HttpAuthRequest, response: Response, sent: Headers): Promise<boolean> => {
    // A success only updates the provider (a nonce); a refusal may mean a login of any length.
    if (response.ok || options.onAuthorizing === undefined) return provider.onResponse(request, response, sent);
    if (authorizing++ === 0) options.onAuthorizing(true);
    try {
      return await provider.onResponse(request, response, sent);
    } finally {
      if (--authorizing === 0) options.onAuthorizing(false);
    }
  };
  return (next) => async (input, init) => {
    const request: HttpAuthRequest = { method: requestMethod(input, init), url: requestUrl(input) };
    for (let attempt = 1; ; attempt++) {
      const headers = new Headers(init?.headers ?? (isRequest(input) ? input.headers : undefined));
      for (const [name, value] of Object.entries(await provider.headers(request))) headers.set(name, value);
      const response = await next(input, { ...init, headers });
      if (attempt >= MAX_AUTH_ATTEMPTS || !(await onResponse(request, response, headers))) return response;
      await response.body?.cancel().catch(() => undefined);
    }
  };
}
