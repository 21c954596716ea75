/**
 * The answers of a protected resource that refuses a request: the `WWW-Authenticate`
 * challenges (RFC 6750 §3, RFC 9449 §7.1, RFC 9728 §5.1 `resource_metadata`) and the status
 * each OAuth error code takes.
 */
import type { ResourceErrorCode } from './auth-info.js';

/** What goes into one refusal. */
export interface Challenge {
  readonly resourceMetadata: string;
  /** Scopes to ask for (space-separated in the header); omitted when empty. */
  readonly scopes: readonly string[];
  /** Challenge with `Bearer`, with `DPoP`, or both (no credentials yet, both accepted). */
  readonly schemes: readonly ('Bearer' | 'DPoP')[];
  readonly dpopAlgorithms?: readonly string[];
  readonly error?: ResourceErrorCode;
  readonly description?: string;
  readonly dpopNonce?: string | undefined;
}

const STATUS: Readonly<Record<ResourceErrorCode, number>> = Object.freeze({
  invalid_request: 400,
  invalid_token: 401,
  invalid_dpop_proof: 401,
  use_dpop_nonce: 401,
  insufficient_scope: 403,
});

/**
 * Quotes a value for an auth-param (RFC 9110 §11.2). RFC 6750 §3 allows only printable ASCII
 * without `"` and `\` in these values, so others are dropped or become `'`.
 */
function quoted(value: string): string {
  return `"${value.replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, "'")}"`;
}

/** The `WWW-Authenticate` value for a refusal. */
export function challengeHeader(challenge: Challenge): string {
  return challenge.schemes
    .map((scheme) => {
      const params: string[] = [];
      if (challenge.error !== undefined) params.push(`error=${quoted(challenge.error)}`);
      if (challenge.description !== undefined) params.push(`error_description=${quoted(challenge.description)}`);
      if (challenge.scopes.length > 0) params.push(`scope=${quoted(challenge.scopes.join(' '))}`);
      params.push(`resource_metadata=${quoted(challenge.resourceMetadata)}`);
      if (scheme === 'DPoP' && challenge.dpopAlgorithms !== undefined) params.push(`algs=${quoted(challenge.dpopAlgorithms.join(' '))}`);
      return `${scheme} ${params.join(', ')}`;
    })
    .join(', ');
}

/** The HTTP answer to a refusal: 401 (no or bad credentials), 403 (scope) or 400 (malformed). */
export function challengeResponse(challenge: Challenge): Response {
  const status = challenge.error === undefined ? 401 : STATUS[challenge.error];
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'www-authenticate': challengeHeader(challenge),
  };
  if (challenge.dpopNonce !== undefined) headers['dpop-nonce'] = challenge.dpopNonce;
  const body = challenge.error === undefined ? { error: 'unauthorized', error_description: 'Authorization required' } : { error: challenge.error, error_description: challenge.description };
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * The answer when a request cannot be checked right now — the authorization server is
 * unreachable, the DPoP replay set is full, a shared store is down: 503 with `Retry-After`
 * (RFC 9110 §15.6.4, §10.2.3) and a generic description; the details go to `onError`.
 */
export function unavailableResponse(description: string, retryAfterSeconds: number): Response {
  const body = { error: 'temporarily_unavailable', error_description: description };
  return new Response(JSON.stringify(body), {
    status: 503,
    headers: { 'content-type': 'application/json', 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
}
