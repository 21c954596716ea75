/**
 * The answer cache of the introspection verifier: what the authorization server said about a
 * token (its verified principal, or the refusal) is reused for a short time instead of asking
 * again for every request (RFC 7662 §4 weighs this against revocation latency). Bounded in
 * size (the least recently used answer goes first), keyed by a SHA-256 digest of the token (a
 * token's text is not kept), and never holding a principal past the token's own `exp`.
 */
import { base64url } from 'jose';
import type { VerifiedToken } from './auth-info.js';

/** The cache options of {@link IntrospectionVerifierOptions}. */
export interface IntrospectionCacheOptions {
  /** How long an active token's answer is reused, ms (never past its `exp`). Default 30 000. */
  ttlMs?: number;
  /** How long a refusal (inactive, expired, wrong audience or issuer) is reused, ms. Default 10 000. */
  negativeTtlMs?: number;
  /** Most answers kept. Default 1000. */
  maxEntries?: number;
}

type Answer = { readonly ok: true; readonly token: VerifiedToken } | { readonly ok: false; readonly error: unknown };

const encoder = new TextEncoder();

/** A bounded, time-limited map from token digests to the authorization server's answers. */
export class IntrospectionCache {
  readonly #ttlMs: number;
  readonly #negativeTtlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** digest → answer and time (ms) until which it is reused; insertion order is recency. */
  readonly #entries = new Map<string, { answer: Answer; until: number }>();

  constructor(options: IntrospectionCacheOptions, now: () => number) {
    this.#ttlMs = options.ttlMs ?? 30_000;
    this.#negativeTtlMs = options.negativeTtlMs ?? 10_000;
    this.#maxEntries = options.maxEntries ?? 1000;
    this.#now = now;
  }

  /** The digest a token is cached under. */
  static async keyOf(token: string): Promise<string> {
    return base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(token))));
  }

  /** The cached answer for `key`, if one is still fresh. */
  get(key: string): Answer | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (entry.until <= this.#now()) return undefined;
    this.#entries.set(key, entry);
    return entry.answer;
  }

  /** Keeps an active token's principal, until `min(now + ttl, exp)`. */
  accepted(key: string, token: VerifiedToken): void {
    const now = this.#now();
    const expiresAt = token.expiresAt === undefined ? Infinity : token.expiresAt * 1000;
    this.#put(key, { ok: true, token }, Math.min(now + this.#ttlMs, expiresAt));
  }

  /** Keeps a refusal for the negative time to live. */
  refused(key: string, error: unknown): void {
    this.#put(key, { ok: false, error }, this.#now() + this.#negativeTtlMs);
  }

  #put(key: string, answer: Answer, until: number): void {
    if (until <= this.#now() || this.#maxEntries < 1) return;
    this.#entries.delete(key);
    this.#entries.set(key, { answer, until });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
}
