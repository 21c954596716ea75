/**
 * Composable `fetch` middleware for the HTTP client transports, built on their `fetch`
 * option: a middleware takes the next `fetch` and returns a `fetch` that wraps it. Two ready
 * ones live here (extra headers, logging); retry with backoff is in `fetch-retry.ts`.
 *
 * ```
 *  withFetchMiddleware(base, a, b, c)
 *    transport ─▶ a ─▶ b ─▶ c ─▶ base (nodeHttpFetch, globalThis.fetch, …) ─▶ network
 * ```
 *
 * The first middleware listed is the outermost: it sees each call first and its response last.
 * Put `retryMiddleware()` before `loggingMiddleware()` to log every attempt, after it to log
 * one line per call.
 */
import { systemClock, type Clock } from '@statemcp/protocol';
import type { HeadersOption } from './request-headers.js';

/** Wraps the next `fetch` into another one. */
export type FetchMiddleware = (next: typeof fetch) => typeof fetch;

/**
 * Composes `middlewares` around `base`; the first one is the outermost. The result goes into
 * the transports' `fetch` option. `nodeHttpFetch` (the default on Node) is a good base: it
 * falls back to the global `fetch` outside Node.
 *
 * @example
 * ```ts
 * const transport = new StreamableHttpClientTransport(url, {
 *   fetch: withFetchMiddleware(nodeHttpFetch, retryMiddleware(), headersMiddleware({ 'x-tenant': 'acme' })),
 * });
 * ```
 */
export function withFetchMiddleware(base: typeof fetch, ...middlewares: readonly FetchMiddleware[]): typeof fetch {
  return middlewares.reduceRight<typeof fetch>((next, middleware) => middleware(next), base);
}

/** The method of a `fetch` call, upper-cased (`GET` when neither `init` nor a `Request` says). */
export function requestMethod(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): string {
  return (init?.method ?? (isRequest(input) ? input.method : 'GET')).toUpperCase();
}

/** The URL of a `fetch` call, as text. */
export function requestUrl(input: Parameters<typeof fetch>[0]): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? input.href : input.url;
}

export function isRequest(input: Parameters<typeof fetch>[0]): input is Request {
  return typeof Request !== 'undefined' && input instanceof Request;
}

/**
 * Adds headers to every request: a fixed record, or a function called before each request
 * (a token that may be refreshed). Headers the request already carries win — the transport's
 * own (`mcp-session-id`, `mcp-protocol-version`, `accept`, …) are never replaced.
 *
 * @example
 * ```ts
 * const fetch = withFetchMiddleware(nodeHttpFetch, headersMiddleware(async () => ({ authorization: `Bearer ${await token()}` })));
 * ```
 */
export function headersMiddleware(headers: HeadersOption): FetchMiddleware {
  return (next) => async (input, init) => {
    const extra = typeof headers === 'function' ? await headers() : headers;
    const merged = new Headers(init?.headers ?? (isRequest(input) ? input.headers : undefined));
    for (const [name, value] of Object.entries(extra)) {
      if (!merged.has(name)) merged.set(name, value);
    }
    return next(input, { ...init, headers: merged });
  };
}

/** One line of {@link loggingMiddleware}: a call that got its response headers, or failed. */
export interface FetchLogEntry {
  readonly method: string;
  readonly url: string;
  /** The response status; absent when the call failed before a response. */
  readonly status?: number;
  /** From the call to the response headers (or the failure), in ms on the middleware's clock. */
  readonly durationMs: number;
  /** Why the call failed before a response (a network error, an abort). */
  readonly error?: Error;
}

/** Options of {@link loggingMiddleware}. */
export interface LoggingMiddlewareOptions {
  /** Where durations are measured (default `systemClock`). */
  readonly clock?: Clock;
}

/**
 * Reports each call once its response headers arrive (or it fails): method, URL, status and
 * duration. Headers and bodies are never logged (they carry tokens and user data); a `log`
 * that throws is ignored.
 *
 * @example
 * ```ts
 * const fetch = withFetchMiddleware(nodeHttpFetch, loggingMiddleware((e) => console.log(e.method, e.url, e.status ?? e.error?.message, `${e.durationMs} ms`)));
 * ```
 */
export function loggingMiddleware(log: (entry: FetchLogEntry) => void, options: LoggingMiddlewareOptions = {}): FetchMiddleware {
  const clock = options.clock ?? systemClock;
  const report = (entry: FetchLogEntry): void => {
    try {
      log(entry);
    } catch {
      // a logger must never break a request
    }
  };
  return (next) => async (input, init) => {
    const method = requestMethod(input, init);
    const url = requestUrl(input);
    const started = clock.now();
    try {
      const response = await next(input, init);
      report({ method, url, status: response.status, durationMs: clock.now() - started });
      return response;
    } catch (error) {
      report({ method, url, durationMs: clock.now() - started, error: error instanceof Error ? error : new Error(String(error)) });
      throw error;
    }
  };
}
