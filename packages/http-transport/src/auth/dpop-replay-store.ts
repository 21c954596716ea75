/**
 * The replay set of DPoP proofs (RFC 9449 §11.1): every accepted proof's `jti` is remembered
 * until the proof could no longer pass the `iat` window, and a proof whose `jti` is remembered
 * is refused. The set never forgets an unexpired entry to make room: a full set refuses new
 * proofs instead (the resource answers 503 with `Retry-After`), so flooding it with proofs of
 * one's own cannot make a captured proof usable again.
 *
 * One instance keeps the set in memory ({@link InMemoryDpopReplayStore}, the default); the
 * instances of a cluster share one (`RedisDpopReplayStore` of `@statemcp/redis-store`), so a
 * proof used at one instance is refused at every other.
 */
import { LocalErrorCode, McpError } from '@statemcp/protocol';

/** What recording one proof id came to. */
export type DpopReplayOutcome =
  /** First use: the id is remembered for the requested time. */
  | { readonly kind: 'recorded' }
  /** The id is already remembered: the proof is a replay. */
  | { readonly kind: 'replayed' }
  /** No room without forgetting an unexpired id: refuse the proof; room frees up after `retryAfterMs`. */
  | { readonly kind: 'full'; readonly retryAfterMs: number };

/**
 * Where a protected resource remembers the DPoP proofs it accepted. `record` checks and
 * records in one atomic step (two concurrent requests with one proof: exactly one is
 * `recorded`). Keys are fixed-length digests of the proof key's thumbprint and the `jti`.
 * A backend that cannot be reached throws (e.g. `SharedStoreUnavailableError`): the request
 * is answered 503, never accepted unchecked.
 */
export interface DpopReplayStore {
  /** Remembers `key` for `ttlMs` unless it is remembered already. */
  record(key: string, ttlMs: number): Promise<DpopReplayOutcome> | DpopReplayOutcome;
}

/** Options of {@link InMemoryDpopReplayStore}. */
export interface InMemoryDpopReplayStoreOptions {
  /** Most proof ids remembered at once; beyond it new proofs are refused (503). Default 100 000 (about 12 MB). */
  maxEntries?: number;
  /** Wall-clock time in ms since the epoch (tests). Default `Date.now`. */
  now?: () => number;
}

const RECORDED: DpopReplayOutcome = Object.freeze({ kind: 'recorded' });
const REPLAYED: DpopReplayOutcome = Object.freeze({ kind: 'replayed' });

/** The replay set of one instance, in memory, bounded, forgetting ids only once they expire. */
export class InMemoryDpopReplayStore implements DpopReplayStore {
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** key → time (ms) until which it is remembered. */
  readonly #until = new Map<string, number>();
  /** While full: the soonest time an id expires. */
  #roomAt = 0;

  constructor(options: InMemoryDpopReplayStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
  }

  /** How many ids are remembered (expired ones included until the next `record`). */
  get size(): number {
    return this.#until.size;
  }

  record(key: string, ttlMs: number): DpopReplayOutcome {
    const now = this.#now();
    this.#dropExpired(now, false);
    const until = this.#until.get(key);
    if (until !== undefined && until > now) return REPLAYED;
    if (until === undefined && this.#until.size >= this.#maxEntries) {
      // Full: nothing expires before #roomAt (no id is added meanwhile), so a flood costs one scan.
      if (now < this.#roomAt) return { kind: 'full', retryAfterMs: this.#roomAt - now };
      // Entries recorded with different times to live may expire out of insertion order.
      this.#dropExpired(now, true);
      if (this.#until.size >= this.#maxEntries) {
        this.#roomAt = this.#soonestExpiry();
        return { kind: 'full', retryAfterMs: Math.max(1, this.#roomAt - now) };
      }
    }
    this.#until.delete(key);
    this.#until.set(key, now + ttlMs);
    return RECORDED;
  }

  /** Forgets expired ids: the expired prefix in insertion order, or every one when `all`. */
  #dropExpired(now: number, all: boolean): void {
    for (const [key, until] of this.#until) {
      if (until > now) {
        if (all) continue;
        return;
      }
      this.#until.delete(key);
    }
  }

  #soonestExpiry(): number {
    let soonest = Infinity;
    for (const until of this.#until.values()) soonest = Math.min(soonest, until);
    return soonest;
  }
}

/**
 * The DPoP replay set is full: the proof was refused rather than an unexpired proof id
 * forgotten. HTTP answer 503 with `Retry-After`. A local error of the statemcp family with the
 * `TRANSPORT_ERROR` code (category `interrupted`: retry later), reported to `onError`.
 */
export class DpopReplayCacheFullError extends McpError {
  override readonly name: string = 'DpopReplayCacheFullError';
  /** When the set has room again, ms from now. */
  readonly retryAfterMs: number;

  constructor(retryAfterMs: number) {
    super(LocalErrorCode.TransportError, `The DPoP replay set is full; room frees up in ${Math.ceil(retryAfterMs / 1000)} s`);
    this.retryAfterMs = retryAfterMs;
  }
}
