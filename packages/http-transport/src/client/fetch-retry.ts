/**
 * A retrying `fetch` middleware: exponential backoff with jitter, bounded in attempts and in
 * the `Retry-After` it is willing to honour, every wait on the injected protocol `Clock`.
 *
 * It retries only what is safe to send twice. A request that may have reached the server and
 * been processed is not sent again unless the caller opts in (`retryNonIdempotent`):
 *
 * | outcome                                          | GET, HEAD, OPTIONS, PUT, DELETE | POST, PATCH (default)  |
 * |--------------------------------------------------|---------------------------------|------------------------|
 * | no connection made (refused, DNS, unreachable)   | retried                         | retried                |
 * | other network error (reset, closed mid-request)  | retried                         | not retried            |
 * | 429 or 503 with `Retry-After`                    | retried after it                | retried after it       |
 * | 429 or 503 without it; 408, 502, 504             | retried                         | not retried            |
 * | anything else, or the caller's signal aborted    | returned / thrown as is         | returned / thrown as is |
 *
 * A 429 or 503 that names a wait is the server saying it did not take the request. A body that
 * cannot be replayed (a stream) is never retried. When the retries are spent, the last
 * response is returned (or the last error thrown), so the transport reports it as usual.
 */
import { systemClock, type Clock, type TimerHandle } from '@statemcp/protocol';
import { isRequest, requestMethod, requestUrl, type FetchMiddleware } from './fetch-middleware.js';

/** Options of {@link retryMiddleware}. */
export interface RetryMiddlewareOptions {
  /** Retries after the first attempt. Default 2; 0 disables retrying. */
  readonly maxRetries?: number;
  /** Wait before the first retry, in ms. Default 500. */
  readonly initialDelayMs?: number;
  /** Upper bound of a backoff wait, in ms. Default 10 000. */
  readonly maxDelayMs?: number;
  /** Growth factor per retry. Default 2. */
  readonly factor?: number;
  /** Fraction of each backoff wait that is randomised: drawn from `[delay × (1 − jitter), delay]`. Default 0.5. */
  readonly jitter?: number;
  /** Longest `Retry-After` honoured, in ms; a longer one ends the retries with that response. Default 30 000. */
  readonly maxRetryAfterMs?: number;
  /**
   * Also retry POST and PATCH on failures after which the server may have processed the
   * request (a connection reset, a 502/504, a 429/503 without `Retry-After`). Default false:
   * MCP requests are not idempotent, so only opt in when the server dedupes them.
   */
  readonly retryNonIdempotent?: boolean;
  /** Timer source of the waits (default `systemClock`); tests pass a `SimulatedClock`. */
  readonly clock?: Clock;
  /** Randomness for the jitter, in `[0, 1)`. Default `Math.random`. */
  readonly random?: () => number;
  /** Wall-clock time in ms, for a `Retry-After` given as an HTTP date. Default `Date.now`. */
  readonly now?: () => number;
  /** Diagnostics: called before each wait with what failed and how long the wait is. */
  readonly onRetry?: (info: RetryInfo) => void;
}

/** Passed to {@link RetryMiddlewareOptions.onRetry}. */
export interface RetryInfo {
  readonly method: string;
  readonly url: string;
  /** Which retry this wait precedes (1 for the first). */
  readonly retry: number;
  readonly delayMs: number;
  /** The status that is retried, or the error. */
  readonly status?: number;
  readonly error?: Error;
}

const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);
/** Statuses that say "try again later" without saying whether the request was processed. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);
/** Statuses whose `Retry-After` says the server did not take the request. */
const REFUSED_STATUSES: ReadonlySet<number> = new Set([429, 503]);
/** Error codes of a connection that was never made: nothing reached the server. */
const NOT_CONNECTED_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Retries failed `fetch` calls that are safe to repeat (see the module table), with jittered
 * exponential backoff on the injected clock, honouring `Retry-After`. The caller's `signal`
 * aborts a wait at once.
 *
 * @example
 * ```ts
 * const transport = new StreamableHttpClientTransport(url, {
 *   fetch: withFetchMiddleware(nodeHttpFetch, retryMiddleware({ maxRetries: 3, onRetry: (r) => console.warn('retrying', r) })),
 * });
 * ```
 */
export function retryMiddleware(options: RetryMiddlewareOptions = {}): FetchMiddleware {
  const policy = resolve(options);
  return (next) => async (input, init) => {
    const method = requestMethod(input, init);
    const replayable = isReplayable(input, init);
    const idempotent = IDEMPOTENT_METHODS.has(method) || policy.retryNonIdempotent;
    const signal = init?.signal ?? undefined;
    for (let retry = 1; ; retry++) {
      const attemptInput = replayable && isRequest(input) ? input.clone() : input;
      let outcome: { response: Response } | { error: unknown };
      try {
        outcome = { response: await next(attemptInput, init) };
      } catch (error) {
        outcome = { error };
      }
      const delayMs = retry > policy.maxRetries || !replayable || signal?.aborted === true ? undefined : retryDelay(outcome, idempotent, retry, policy);
      if (delayMs === undefined) {
        if ('response' in outcome) return outcome.response;
        throw outcome.error;
      }
      if ('response' in outcome) void outcome.response.body?.cancel().catch(() => undefined);
      try {
        policy.onRetry?.({
          method,
          url: requestUrl(input),
          retry,
          delayMs,
          ...('response' in outcome ? { status: outcome.response.status } : { error: asError(outcome.error) }),
        });
      } catch {
        // a diagnostics callback must not break the request
      }
      await wait(policy.clock, delayMs, signal);
    }
  };
}

type ResolvedRetryOptions = Required<Omit<RetryMiddlewareOptions, 'onRetry'>> & { readonly onRetry: RetryMiddlewareOptions['onRetry'] | undefined };

function resolve(options: RetryMiddlewareOptions): ResolvedRetryOptions {
  const resolved: ResolvedRetryOptions = {
    maxRetries: options.maxRetries ?? 2,
    initialDelayMs: options.initialDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 10_000,
    factor: options.factor ?? 2,
    jitter: options.jitter ?? 0.5,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
    retryNonIdempotent: options.retryNonIdempotent ?? false,
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
    onRetry: options.onRetry,
  };
  if (!(Number.isInteger(resolved.maxRetries) && resolved.maxRetries >= 0)) throw new RangeError('retry maxRetries must be a non-negative integer');
  if (!(resolved.initialDelayMs >= 0)) throw new RangeError('retry initialDelayMs must be >= 0');
  if (!(resolved.maxDelayMs >= resolved.initialDelayMs)) throw new RangeError('retry maxDelayMs must be >= initialDelayMs');
  if (!(resolved.factor >= 1)) throw new RangeError('retry factor must be >= 1');
  if (!(resolved.jitter >= 0 && resolved.jitter <= 1)) throw new RangeError('retry jitter must be within [0, 1]');
  if (!(resolved.maxRetryAfterMs >= 0)) throw new RangeError('retry maxRetryAfterMs must be >= 0');
  return resolved;
}

/** How long to wait before retry number `retry`, or undefined when this outcome is not retried. */
function retryDelay(outcome: { response: Response } | { error: unknown }, idempotent: boolean, retry: number, policy: ResolvedRetryOptions): number | undefined {
  const backoff = (): number => {
    const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.factor ** (retry - 1));
    return Math.round(base * (1 - policy.jitter * policy.random()));
  };
  if ('error' in outcome) {
    if (isAbort(outcome.error)) return undefined;
    return idempotent || neverConnected(outcome.error) ? backoff() : undefined;
  }
  const status = outcome.response.status;
  if (!TRANSIENT_STATUSES.has(status)) return undefined;
  const retryAfter = REFUSED_STATUSES.has(status) ? parseRetryAfter(outcome.response.headers.get('retry-after'), policy.now) : undefined;
  if (retryAfter !== undefined) return retryAfter <= policy.maxRetryAfterMs ? retryAfter : undefined;
  return idempotent ? backoff() : undefined;
}

/**
 * A `Retry-After` value in ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined
 * when absent or unreadable. A date in the past means no wait.
 */
export function parseRetryAfter(value: string | null, now: () => number = Date.now): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}/.test(text)) return undefined; // every HTTP-date format starts with the day's name
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now());
}

/** True when the body can be sent again (not a stream). */
function isReplayable(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): boolean {
  const body = init?.body;
  if (body === undefined || body === null) return !isRequest(input) || !input.bodyUsed;
  return !(typeof ReadableStream !== 'undefined' && body instanceof ReadableStream);
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** True when the error (or one of its causes) says no connection was ever made. */
function neverConnected(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_CONNECTED_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Waits `ms` on `clock`; the caller's signal ends the wait at once with its reason. */
function wait(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolvePromise, reject) => {
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer: TimerHandle = clock.setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolvePromise();
      },
      ms,
      { keepAlive: true },
    );
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException(typeof reason === 'string' ? reason : 'This operation was aborted', 'AbortError');
}
