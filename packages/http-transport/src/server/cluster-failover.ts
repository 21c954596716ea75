/**
 * What a cluster does when an instance dies (scale-out, issue 15): liveness, and the bound on
 * requests relayed to an owner that stopped answering. Adoption itself (one instance takes a dead
 * owner's session over) is in `cluster-relay.ts`, where the relay finds nobody to relay to.
 *
 * ```
 *  every instance running sessions   beat(instanceId, ttl) every ttl/3 ──▶ LivenessStore
 *  B relaying to A, waiting          isAlive(A) every ttl ──▶ false: A is dead
 *                                      head not yet relayed → 502 naming A (the request may have run)
 *                                      answer streaming     → the stream ends; the client resumes it
 *                                                              (Last-Event-ID) on the adopter
 *  a request for A's session          publish reaches nobody, or A known dead ──▶ adopt (claim)
 * ```
 *
 * Liveness costs nothing per request: beats run on a timer, and `isAlive` is read only by
 * relays that wait longer than one time to live.
 */
import type { Clock, TimerHandle } from '@statemcp/protocol';
import type { LivenessStore } from './shared-state.js';
import { SharedStoreUnavailableError } from './shared-state.js';

/** Default time to live of an instance's liveness record, ms. */
export const DEFAULT_LIVENESS_TTL_MS = 6000;

/** Why a relay stopped waiting for its owner. */
export type OwnerLoss = { readonly kind: 'dead'; readonly owner: string } | { readonly kind: 'unreachable'; readonly error: SharedStoreUnavailableError };

/** Watches owners' liveness for relays, and beats this instance's own. */
export interface LivenessWatch {
  /** Starts this instance's beats (idempotent): it now runs sessions others may relay to. */
  beat(): void;
  /** True when `owner` was seen dead by this instance. */
  knownDead(owner: string): boolean;
  /** Calls `onLost` once if `owner` is found dead (or the store is unreachable) while a relay waits; returns the stop function. */
  watch(owner: string, onLost: (loss: OwnerLoss) => void): () => void;
  /** Stops beating and forgets this instance's record (graceful shutdown). */
  stop(): Promise<void>;
}

/** Builds the {@link LivenessWatch} of instance `instanceId`. */
export function livenessWatch(liveness: LivenessStore, instanceId: string, ttlMs: number, clock: Clock, onError: (error: unknown) => void): LivenessWatch {
  const dead = new Set<string>();
  let timer: TimerHandle | undefined;
  let beating = false;
  let beats = 0;
  let stopped = false;
  const tick = (): void => {
    timer = undefined;
    if (stopped) return;
    void Promise.resolve()
      .then(() => liveness.beat(instanceId, ttlMs))
      .then((wasAlive) => {
        if (!wasAlive && beats > 0) onError(new Error(`Instance ${instanceId} missed its liveness beats for ${ttlMs} ms: other instances may have adopted its sessions`));
        beats++;
      })
      .catch(onError)
      .finally(() => {
        if (!stopped) timer = clock.setTimeout(tick, Math.max(1, Math.floor(ttlMs / 3)));
      });
  };
  return {
    beat: () => {
      if (beating || stopped) return;
      beating = true;
      tick();
    },
    knownDead: (owner) => dead.has(owner),
    watch: (owner, onLost) => {
      let handle: TimerHandle | undefined;
      let done = false;
      const check = (): void => {
        handle = undefined;
        void Promise.resolve()
          .then(() => liveness.isAlive(owner))
          .then(
            (alive) => {
              if (done) return;
              if (alive) {
                handle = clock.setTimeout(check, ttlMs);
                return;
              }
              done = true;
              if (dead.size > 1000) dead.clear();
              dead.add(owner);
              onLost({ kind: 'dead', owner });
            },
            (error: unknown) => {
              if (done) return;
              if (!(error instanceof SharedStoreUnavailableError)) {
                onError(error);
                handle = clock.setTimeout(check, ttlMs);
                return;
              }
              done = true;
              onLost({ kind: 'unreachable', error });
            },
          );
      };
      handle = clock.setTimeout(check, ttlMs);
      return () => {
        done = true;
        if (handle !== undefined) clock.clearTimeout(handle);
      };
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      if (timer !== undefined) clock.clearTimeout(timer);
      if (beating) await Promise.resolve(liveness.forget(instanceId)).catch(onError);
    },
  };
}
