/**
 * The upstream sign-ins in progress, keyed by the `state` sent upstream: which interaction of
 * the proxy each belongs to, and its PKCE verifier and nonce. Each is taken once (the callback
 * deletes it) and expires with its interaction. In memory by default; with an `adapter` (the
 * storage of oidc-provider's models, e.g. Redis) the instances of a cluster share them.
 */
import type { Adapter, AdapterFactory } from 'oidc-provider';
import type { UpstreamLogin } from './upstream.js';

/** A sign-in in progress: the proxy's interaction and the upstream request's secrets. */
export interface PendingLogin extends UpstreamLogin {
  readonly interactionUid: string;
}

/** Where pending sign-ins wait for their callback. */
export interface LoginStore {
  save(state: string, login: PendingLogin, ttlSeconds: number): Promise<void>;
  /** The sign-in for `state`, removed from the store; `undefined` when unknown or expired. */
  take(state: string): Promise<PendingLogin | undefined>;
}

/** Options of {@link MemoryLoginStore}. */
export interface MemoryLoginStoreOptions {
  /** Wall-clock time in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
  /** The most sign-ins kept; past it the oldest is dropped. Default 10 000. */
  readonly maxEntries?: number;
}

/** Pending sign-ins in this process: expiring, bounded, oldest dropped first. */
export class MemoryLoginStore implements LoginStore {
  readonly #entries = new Map<string, { login: PendingLogin; expiresAt: number }>();
  readonly #now: () => number;
  readonly #maxEntries: number;

  constructor(options: MemoryLoginStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  /** Sign-ins held (expired ones included until they are swept). */
  get size(): number {
    return this.#entries.size;
  }

  save(state: string, login: PendingLogin, ttlSeconds: number): Promise<void> {
    const now = this.#now();
    for (const [key, entry] of this.#entries) {
      // From the oldest; the first live one ends the sweep (the bound below caps what is left).
      if (entry.expiresAt > now) break;
      this.#entries.delete(key);
    }
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(state, { login, expiresAt: now + ttlSeconds * 1000 });
    return Promise.resolve();
  }

  take(state: string): Promise<PendingLogin | undefined> {
    const entry = this.#entries.get(state);
    this.#entries.delete(state);
    return Promise.resolve(entry !== undefined && entry.expiresAt > this.#now() ? entry.login : undefined);
  }
}

/** The model name the pending sign-ins are stored under in an oidc-provider adapter. */
export const LOGIN_MODEL = 'UpstreamLogin';

/** Pending sign-ins in an oidc-provider adapter (expiry is the adapter's, by `expiresIn`). */
export class AdapterLoginStore implements LoginStore {
  readonly #adapter: Adapter;

  constructor(adapter: AdapterFactory | (new (name: string) => Adapter)) {
    this.#adapter = isConstructor(adapter) ? new adapter(LOGIN_MODEL) : adapter(LOGIN_MODEL);
  }

  async save(state: string, login: PendingLogin, ttlSeconds: number): Promise<void> {
    await this.#adapter.upsert(state, { ...login }, ttlSeconds);
  }

  async take(state: string): Promise<PendingLogin | undefined> {
    const found = (await this.#adapter.find(state)) as Record<string, unknown> | undefined;
    if (found === undefined) return undefined;
    await this.#adapter.destroy(state);
    const { interactionUid, codeVerifier, nonce } = found;
    if (typeof interactionUid !== 'string' || typeof codeVerifier !== 'string') return undefined;
    return { interactionUid, codeVerifier, nonce: typeof nonce === 'string' ? nonce : undefined };
  }
}

function isConstructor(value: unknown): value is new (name: string) => Adapter {
  return typeof value === 'function' && typeof (value as { prototype?: { upsert?: unknown } }).prototype?.upsert === 'function';
}
