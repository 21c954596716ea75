/**
 * The options and observable stream states of the Streamable HTTP client transport.
 */
import type { Clock, RequestId } from '@statemcp/protocol';
import type { HttpAuthProvider } from './auth-hook.js';
import type { ReconnectOptions } from './reconnect.js';
import type { HeadersOption } from './request-headers.js';

/** Options of {@link StreamableHttpClientTransport}. */
export interface StreamableHttpClientTransportOptions {
  /**
   * The `fetch` to use. Defaults to `nodeHttpFetch` (`node:http` with keep-alive) on Node when no
   * `requestInit` is given, else the global `fetch`.
   */
  fetch?: typeof fetch;
  /**
   * Extra headers for every request, or a function called before each request (for a
   * bearer token that may be refreshed). The transport's own headers win on conflict.
   */
  headers?: HeadersOption;
  /**
   * Authorization applied to every request (POST, GET stream, DELETE): its headers on each
   * attempt, and a retry when it answers a 401/403 or a DPoP nonce challenge. See
   * `OAuthClientProvider` in `@statemcp/client/auth` for OAuth 2.1.
   */
  authProvider?: HttpAuthProvider;
  /** Extra `fetch` options (credentials, dispatcher, …) for every request. */
  requestInit?: Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal'>;
  /**
   * Rejoin an existing session: the id is sent from the first request on and the standalone
   * GET stream opens at `start()`.
   */
  sessionId?: string;
  /** Reconnection of SSE streams. See {@link ReconnectOptions} for the defaults. */
  reconnect?: ReconnectOptions;
  /** Open the standalone GET stream after initialization. Default true. */
  standaloneStream?: boolean;
  /**
   * Fall back to legacy HTTP+SSE when `initialize` is refused with 400/404/405. Default
   * true: the fallback GETs the same URL. Pass `{ url }` when the server's legacy SSE
   * endpoint lives elsewhere (e.g. `/sse`), or `false` to never fall back.
   */
  legacyFallback?: boolean | { url: URL | string };
  /**
   * The largest message accepted from the server: a JSON response body (in bytes) or one SSE
   * event (in characters of its text). Default 16 MiB. Past it the connection is cut and the
   * requests it answered fail with `MessageTooLargeError`; an SSE stream that sent it ends
   * (`dead`) rather than reconnect.
   */
  maxMessageSize?: number;
  /** Upper bound of the DELETE sent by `close()`, in ms. Default 3000. */
  closeTimeoutMs?: number;
  /** Timers (reconnect back-off, the DELETE bound): the protocol `Clock`; tests pass a `SimulatedClock`. */
  clock?: Clock;
  /** Randomness for backoff jitter, in `[0, 1)`. Defaults to `Math.random`. */
  random?: () => number;
  /**
   * Diagnostics: the server forgot the session (404) and the handshake the session ran again
   * got a new session id in its place (the session's ledger then sends what it held).
   */
  onSessionRecovered?: (info: SessionRecoveredInfo) => void;
  /** Diagnostics: an SSE stream changed state (connecting, open, reconnecting, dead, …). */
  onStreamStateChange?: (change: StreamStateChange) => void;
}

/** Passed to {@link StreamableHttpClientTransportOptions.onSessionRecovered}. */
export interface SessionRecoveredInfo {
  readonly previousSessionId: string;
  readonly sessionId: string | undefined;
}

/** The state of one SSE stream, as a discriminated union. */
export type StreamState =
  | { readonly kind: 'connecting'; readonly attempt: number }
  | { readonly kind: 'open'; readonly lastEventId: string | undefined }
  | { readonly kind: 'reconnecting'; readonly attempt: number; readonly delayMs: number; readonly lastEventId: string | undefined }
  /** The stream finished normally (a POST stream that delivered its response). */
  | { readonly kind: 'ended' }
  /** The server answered the standalone GET with 405: it offers no such stream. */
  | { readonly kind: 'unsupported' }
  /** Reconnection gave up or was refused; `error` says why. */
  | { readonly kind: 'dead'; readonly error: Error }
  /** The transport closed. */
  | { readonly kind: 'closed' };

/** Passed to {@link StreamableHttpClientTransportOptions.onStreamStateChange}. */
export interface StreamStateChange {
  /** `standalone` for the GET stream; `request` for a POST's response stream. */
  readonly stream: 'standalone' | 'request';
  /** For request streams: the ids of the requests the stream answers. */
  readonly requestIds: readonly RequestId[];
  readonly state: StreamState;
}

