/**
 * Per-principal limits of the HTTP server: one principal may hold at most
 * `maxSessionsPerPrincipal` sessions (handshakes in flight included) and
 * `maxEventStreamsPerPrincipal` open GET event streams (standalone streams and `Last-Event-ID`
 * resumptions), so one client cannot fill the server's `maxSessions` for everyone.
 *
 * ```
 *  request over its principal's limit   429 Too Many Requests + Retry-After (RFC 6585 §4),
 *                                        the message names the limit; other principals are served
 *  the whole server full (maxSessions)  503 Service Unavailable + Retry-After (RFC 9110 §15.6.4)
 *  anonymous requests                   the global caps only: a remote address is no identity
 *                                        (proxies, NAT and every loopback client share one)
 * ```
 *
 * Counts are per instance, like `maxSessions`: in a cluster each instance counts the sessions
 * it runs and the streams it holds open.
 */
import { HttpErrorCode, errorResponse, type HttpAnswer } from './http-response.js';
import type { SessionAdmission } from './session-manager.js';
import { SseConnection } from './sse-connection.js';

/** Default of `maxSessionsPerPrincipal` (the global `maxSessions` defaults to 10 000). */
export const DEFAULT_MAX_SESSIONS_PER_PRINCIPAL = 100;

/** Seconds a refused client is asked to wait (the global session cap asks the same). */
const RETRY_AFTER_SECONDS = '5';

/** A limit per principal: a positive integer, or `Infinity` for none. */
export function principalLimit(name: string, value: number): number {
  if (value !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(value) || value < 1)) throw new RangeError(`${name} must be a positive integer or Infinity`);
  return value;
}

/** Counts what each principal holds against one limit. Anonymous (`undefined`) holders are not counted. */
export class PrincipalCounter {
  readonly limit: number;
  readonly #held = new Map<string, number>();

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Counts one more for `principal`; false (nothing counted) when it already holds `limit`. */
  tryAcquire(principal: string | undefined): boolean {
    if (principal === undefined) return true;
    const held = this.#held.get(principal) ?? 0;
    if (held >= this.limit) return false;
    this.#held.set(principal, held + 1);
    return true;
  }

  /** Counts one less for `principal`. */
  release(principal: string | undefined): void {
    if (principal === undefined) return;
    const held = this.#held.get(principal) ?? 0;
    if (held <= 1) this.#held.delete(principal);
    else this.#held.set(principal, held - 1);
  }

  /** What `principal` holds now. */
  heldBy(principal: string): number {
    return this.#held.get(principal) ?? 0;
  }
}

/** The 429 of a principal over one of its limits. */
export function tooManyForPrincipal(limitName: 'maxSessionsPerPrincipal' | 'maxEventStreamsPerPrincipal', limit: number): Response {
  const what = limitName === 'maxSessionsPerPrincipal' ? 'sessions (end one with DELETE, or let an idle one expire)' : 'open event streams (close one first)';
  return errorResponse(429, HttpErrorCode.Refused, `Too Many Requests: this principal already holds ${limit} ${what}; limit ${limitName}`, {
    headers: { 'retry-after': RETRY_AFTER_SECONDS },
  });
}

/**
 * Opens a GET event stream for `principal` within its limit: 429 when the principal already
 * holds `limit` open streams; otherwise the stream `open` answers, counted until it ends.
 */
export async function openCountedStream(streams: PrincipalCounter, principal: string | undefined, open: () => HttpAnswer | Promise<HttpAnswer>): Promise<HttpAnswer> {
  if (!streams.tryAcquire(principal)) return tooManyForPrincipal('maxEventStreamsPerPrincipal', streams.limit);
  let answer: HttpAnswer;
  try {
    answer = await open();
  } catch (error) {
    streams.release(principal);
    throw error;
  }
  if (answer instanceof SseConnection && answer.open) answer.onEnd = () => streams.release(principal);
  else streams.release(principal);
  return answer;
}

/** The refusal of a session the manager did not admit (`undefined` once it is reserved). */
export function admissionRefusal(admission: SessionAdmission, maxSessionsPerPrincipal: number): Response | undefined {
  switch (admission) {
    case 'reserved':
      return undefined;
    case 'maxSessions':
      return errorResponse(503, HttpErrorCode.Refused, 'Service Unavailable: too many sessions', { headers: { 'retry-after': RETRY_AFTER_SECONDS } });
    case 'maxSessionsPerPrincipal':
      return tooManyForPrincipal(admission, maxSessionsPerPrincipal);
  }
}
