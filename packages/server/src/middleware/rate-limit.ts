/**
 * A ready-made middleware: a token bucket per principal. Each principal's bucket holds up to
 * `capacity` requests and refills at `refillPerSecond`; a request that finds it empty is
 * answered with a JSON-RPC server error (the -32000…-32099 range JSON-RPC 2.0 §5.1 leaves to
 * implementations) whose `data.retryAfterMs` says when one token will be back. Only inbound
 * requests are counted: notifications and what this side sends pass untouched.
 */
import { InvalidArgumentError, JsonRpcError, systemClock, type Clock, type Middleware, type MiddlewareContext } from '@statemcp/protocol';
import { principalOf } from './principal.js';

/** The error code of a request refused by {@link rateLimit} (JSON-RPC's server-error range). */
export const RATE_LIMITED_ERROR_CODE = -32029;

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Requests a principal may make at once (the bucket's size). */
  readonly capacity: number;
  /** Tokens added back per second. */
  readonly refillPerSecond: number;
  /**
   * The principal of a request (default {@link principalOf}: the token's subject or client, else
   * the HTTP peer's address, else the connection). Return `undefined` to exempt a request.
   */
  readonly key?: (context: MiddlewareContext) => string | undefined;
  /** Time source (default the system clock); tests pass a `SimulatedClock`. */
  readonly clock?: Pick<Clock, 'now'>;
  /** How many principals' buckets are kept; the least recently seen is forgotten first (default 10 000). */
  readonly maxPrincipals?: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * A token-bucket rate limiter per principal.
 *
 * @example
 * ```ts
 * // Ten tool calls at once per principal, one more every 2 seconds.
 * server.use('tools/call', rateLimit({ capacity: 10, refillPerSecond: 0.5 }));
 * ```
 */
export function rateLimit(options: RateLimitOptions): Middleware {
  const { capacity, refillPerSecond } = options;
  if (!(Number.isFinite(capacity) && capacity >= 1)) throw new InvalidArgumentError(`rateLimit: capacity must be a number ≥ 1 (got ${String(capacity)})`);
  if (!(Number.isFinite(refillPerSecond) && refillPerSecond > 0)) throw new InvalidArgumentError(`rateLimit: refillPerSecond must be a positive number (got ${String(refillPerSecond)})`);
  const clock = options.clock ?? systemClock;
  const keyOf = options.key ?? principalOf;
  const maxPrincipals = options.maxPrincipals ?? 10_000;
  const buckets = new Map<string, Bucket>();
  const perMs = refillPerSecond / 1000;

  return (context, next) => {
    if (context.kind !== 'request' || context.direction !== 'inbound') return next();
    const key = keyOf(context);
    if (key === undefined) return next();
    const now = clock.now();
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: capacity, updatedAt: now };
      if (buckets.size >= maxPrincipals) {
        const oldest = buckets.keys().next();
        if (oldest.done !== true) buckets.delete(oldest.value);
      }
    } else {
      buckets.delete(key); // re-inserted below: the map's order is least recently seen first
      bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.updatedAt) * perMs);
      bucket.updatedAt = now;
    }
    buckets.set(key, bucket);
    if (bucket.tokens < 1) {
      const retryAfterMs = Math.ceil((1 - bucket.tokens) / perMs);
      throw new JsonRpcError(RATE_LIMITED_ERROR_CODE, `Rate limit exceeded for ${context.method}: retry in ${retryAfterMs} ms`, { retryAfterMs });
    }
    bucket.tokens -= 1;
    return next();
  };
}
