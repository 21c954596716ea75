/**
 * The built-in HTTP session manager (sessions that are never reaped are the
 * commonest production OOM of other SDKs).
 *
 * - ids are minted by a generator (default `crypto.randomUUID`, 122 random bits) and must
 *   be visible ASCII (0x21–0x7E, MCP 2025-11-25 basic/transports §Session Management);
 * - a session idle for longer than `idleTimeoutMs` (no request, no open connection) is
 *   evicted by a sweep that runs on a housekeeping timer (it never keeps a process alive)
 *   and before each admission;
 * - at most `maxSessions` sessions exist (reservations for handshakes in flight included);
 *   beyond that new sessions are refused; one principal holds at most
 *   `maxSessionsPerPrincipal` of them (`principal-limits.ts`), so one client cannot take them all;
 * - evicting, deleting or closing runs the session's own `close` (its transport close, i.e.
 *   the session's ShuttingDown path). The manager never decides protocol state.
 *
 * All time and timers come from the injected protocol `Clock`, so tests drive expiry and the
 * sweep with a `SimulatedClock` without sleeping.
 */
import { systemClock, type Clock, type TimerHandle } from '@statemcp/protocol';
import { flatString } from './flat-string.js';
import { DEFAULT_MAX_SESSIONS_PER_PRINCIPAL, PrincipalCounter, principalLimit } from './principal-limits.js';

/** What the manager needs from a managed session. */
export interface ManagedSession {
  /** The principal the session is bound to (`session-principal.ts`); `undefined` for anonymous sessions. */
  readonly principal?: string | undefined;
  /** True while the session has an open HTTP exchange (an SSE stream or a pending reply). */
  isBusy(): boolean;
  /** Ends the session. Called at most once by the manager, for eviction or shutdown. */
  close(reason: SessionEndReason): void;
}

/** Why the manager ended a session. */
export type SessionEndReason = 'idle-timeout' | 'deleted' | 'server-closed';

/** Options of a {@link SessionManager}. */
export interface SessionManagerOptions {
  /** Idle time after which a session is evicted, ms. Default 30 minutes. `Infinity` disables. */
  idleTimeoutMs?: number;
  /** Maximum number of live sessions (plus handshakes in flight). Default 10 000. */
  maxSessions?: number;
  /**
   * Maximum number of live sessions (plus handshakes in flight) of one principal; anonymous
   * sessions count against `maxSessions` only. Default 100; `Infinity` disables.
   */
  maxSessionsPerPrincipal?: number;
  /** Session id generator. Default `crypto.randomUUID`. Ids must be visible ASCII. */
  generateId?: () => string;
  /** Time and timers. Default `systemClock`. */
  clock?: Clock;
  /** How often the background sweep runs, ms. Default `min(idleTimeoutMs / 2, 60 000)`; 0 disables. */
  sweepIntervalMs?: number;
}

/**
 * What {@link SessionManager.admit} decided: a reservation was made, or the cap that refused it
 * (`maxSessions`: the server is full; `maxSessionsPerPrincipal`: this principal is).
 */
export type SessionAdmission = 'reserved' | 'maxSessions' | 'maxSessionsPerPrincipal';

interface Entry<S> {
  session: S;
  lastActive: number;
}

/** Visible ASCII only, per the spec's session id rule. */
export function isValidSessionId(id: string): boolean {
  return id.length > 0 && /^[\x21-\x7e]+$/.test(id);
}

/** Tracks live sessions by id, evicts idle ones and caps their number. */
export class SessionManager<S extends ManagedSession> {
  readonly idleTimeoutMs: number;
  readonly maxSessions: number;
  readonly maxSessionsPerPrincipal: number;
  /** Live sessions and reservations of each principal. */
  readonly #perPrincipal: PrincipalCounter;
  readonly #generateId: () => string;
  readonly #clock: Clock;
  readonly #sweepIntervalMs: number;
  readonly #sessions = new Map<string, Entry<S>>();
  #reserved = 0;
  #timer: TimerHandle | undefined;
  #closed = false;

  constructor(options: SessionManagerOptions = {}) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
    if (!(this.idleTimeoutMs > 0)) throw new RangeError('idleTimeoutMs must be positive');
    this.maxSessions = options.maxSessions ?? 10_000;
    if (!Number.isSafeInteger(this.maxSessions) || this.maxSessions < 1) throw new RangeError('maxSessions must be a positive integer');
    this.maxSessionsPerPrincipal = principalLimit('maxSessionsPerPrincipal', options.maxSessionsPerPrincipal ?? DEFAULT_MAX_SESSIONS_PER_PRINCIPAL);
    this.#perPrincipal = new PrincipalCounter(this.maxSessionsPerPrincipal);
    this.#generateId = options.generateId ?? (() => globalThis.crypto.randomUUID());
    this.#clock = options.clock ?? systemClock;
    this.#sweepIntervalMs = options.sweepIntervalMs ?? (Number.isFinite(this.idleTimeoutMs) ? Math.min(Math.max(this.idleTimeoutMs / 2, 10), 60_000) : 0);
    this.#scheduleSweep();
  }

  #scheduleSweep(): void {
    if (this.#sweepIntervalMs <= 0 || this.#closed) return;
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.sweep();
      this.#scheduleSweep();
    }, this.#sweepIntervalMs);
  }

  #now(): number {
    return this.#clock.now();
  }

  /** Live sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Ids of live sessions (a snapshot). */
  ids(): string[] {
    return [...this.#sessions.keys()];
  }

  /**
   * Reserves room for a session of `principal` whose handshake is in flight. Sweeps first when
   * the server or the principal is full. Returns the cap that refused it, or `'reserved'`: then
   * call {@link add} (with a session of the same principal) or {@link release}.
   */
  admit(principal?: string): SessionAdmission {
    if (this.#closed) return 'maxSessions';
    if (this.#sessions.size + this.#reserved >= this.maxSessions) this.sweep();
    if (this.#sessions.size + this.#reserved >= this.maxSessions) return 'maxSessions';
    if (!this.#perPrincipal.tryAcquire(principal)) {
      this.sweep();
      if (!this.#perPrincipal.tryAcquire(principal)) return 'maxSessionsPerPrincipal';
    }
    this.#reserved++;
    return 'reserved';
  }

  /** {@link admit} as a yes or no. */
  reserve(principal?: string): boolean {
    return this.admit(principal) === 'reserved';
  }

  /** Gives back a reservation (of `principal`) that did not become a session. */
  release(principal?: string): void {
    if (this.#reserved > 0) this.#reserved--;
    this.#perPrincipal.release(principal);
  }

  /** Mints a fresh id (checked to be visible ASCII and unused). */
  mintId(): string {
    for (let attempt = 0; attempt < 3; attempt++) {
      const id = flatString(this.#generateId());
      if (!isValidSessionId(id)) throw new RangeError('Session ids must be non-empty visible ASCII (0x21-0x7E)');
      if (!this.#sessions.has(id)) return id;
    }
    throw new Error('Session id generator keeps returning ids already in use');
  }

  /** Registers a session under `id`, consuming a reservation (made for the session's principal). */
  add(id: string, session: S): void {
    if (this.#reserved > 0) this.#reserved--;
    this.#sessions.set(id, { session, lastActive: this.#now() });
  }

  /** The live session with this id, marking it active; `undefined` if unknown or ended. */
  get(id: string): S | undefined {
    const entry = this.#sessions.get(id);
    if (entry === undefined) return undefined;
    entry.lastActive = this.#now();
    return entry.session;
  }

  /** The live session with this id, without marking it active. */
  peek(id: string): S | undefined {
    return this.#sessions.get(id)?.session;
  }

  /** Marks a session active without looking it up for use (e.g. a stream just closed). */
  touch(id: string): void {
    const entry = this.#sessions.get(id);
    if (entry !== undefined) entry.lastActive = this.#now();
  }

  /** Forgets a session that ended by itself (its transport closed). Does not close it. */
  forget(id: string): void {
    const entry = this.#sessions.get(id);
    if (entry === undefined) return;
    this.#sessions.delete(id);
    this.#perPrincipal.release(entry.session.principal);
  }

  /** Ends and forgets one session. Returns false when the id is unknown. */
  delete(id: string, reason: SessionEndReason = 'deleted'): boolean {
    const entry = this.#sessions.get(id);
    if (entry === undefined) return false;
    this.#sessions.delete(id);
    this.#perPrincipal.release(entry.session.principal);
    entry.session.close(reason);
    return true;
  }

  /** Evicts every idle session whose last activity is older than the idle timeout. */
  sweep(): number {
    const cutoff = this.#now() - this.idleTimeoutMs;
    let evicted = 0;
    for (const [id, entry] of this.#sessions) {
      if (entry.lastActive > cutoff) continue;
      if (entry.session.isBusy()) {
        entry.lastActive = this.#now();
        continue;
      }
      this.#sessions.delete(id);
      this.#perPrincipal.release(entry.session.principal);
      evicted++;
      entry.session.close('idle-timeout');
    }
    return evicted;
  }

  /** Stops the sweep timer and ends every session. Idempotent. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    const entries = [...this.#sessions.values()];
    this.#sessions.clear();
    for (const entry of entries) {
      this.#perPrincipal.release(entry.session.principal);
      entry.session.close('server-closed');
    }
  }
}
