/**
 * List-changed auto-refresh: when the server says one of its lists changed
 * (`notifications/tools/list_changed`, …), wait until the notifications stop for a while
 * (the debounce, on the client's clock), fetch the whole list again, bounded by `maxPages`,
 * and hand it to a callback.
 *
 * ```
 *  list_changed ─▶ (re)arm debounce ─▶ … quiet for debounceMs … ─▶ fetch every page ─▶ onChanged(items)
 *                        ▲                                              │
 *                        └──── another list_changed meanwhile: this result is stale, dropped
 * ```
 *
 * Only the newest refresh is delivered: a notification that arrives while a fetch runs makes
 * that fetch's result stale, and the refresh it schedules delivers instead. The end of the
 * connection stops everything: the timer is cleared and a fetch still running is dropped.
 */
import type { Clock, TimerHandle } from '@statemcp/protocol';
import type { ListenedNotification, NotificationListeners } from './listeners.js';
import type { ListChangedHandlers } from './options.js';
import type { ListItem, ListKind } from './pagination.js';

/** The lists `ClientOptions.listChanged` can refresh, with the notification that triggers each. */
const WATCHED: ReadonlyArray<readonly [keyof ListChangedHandlers & ListKind, ListenedNotification]> = [
  ['tools', 'notifications/tools/list_changed'],
  ['prompts', 'notifications/prompts/list_changed'],
  ['resources', 'notifications/resources/list_changed'],
];

/**
 * Starts a refresher for every list in `handlers`, fed by that list's change notification;
 * `collect` fetches every page of a list (bounded by `maxPages`).
 */
export function watchLists(
  listeners: NotificationListeners,
  clock: Clock,
  handlers: ListChangedHandlers | undefined,
  collect: <K extends ListKind>(kind: K, maxPages: number | undefined) => Promise<ListItem<K>[]>,
): ListRefresher<unknown>[] {
  const refreshers: ListRefresher<unknown>[] = [];
  for (const [kind, method] of WATCHED) {
    const handler = handlers?.[kind] as ListChangedOptions<unknown> | undefined;
    if (handler === undefined) continue;
    const refresher = new ListRefresher<unknown>(clock, handler, (maxPages) => collect(kind, maxPages));
    listeners.add(method, () => refresher.changed());
    refreshers.push(refresher);
  }
  return refreshers;
}

/** Debounce of a list refresh when none is given, ms. */
export const DEFAULT_LIST_REFRESH_DEBOUNCE_MS = 300;

/** How one list is refreshed after the server reports a change (see `ClientOptions.listChanged`). */
export interface ListChangedOptions<T> {
  /** Receives the new full list, once per burst of notifications. */
  readonly onChanged: (items: T[]) => void;
  /**
   * Receives a refresh that failed (the server answered an error, the list was longer than
   * `maxPages`, `onChanged` threw). Without it such a failure is dropped; the next
   * notification tries again.
   */
  readonly onError?: (error: Error) => void;
  /** Quiet time after the last notification before the list is fetched, ms (default 300). */
  readonly debounceMs?: number;
  /** Page bound of the refetch (default 100); past it the refresh fails with `TooManyPagesError`. */
  readonly maxPages?: number;
}

/** Debounces the change notifications of one list and delivers each refetched list. */
export class ListRefresher<T> {
  readonly #clock: Clock;
  readonly #options: ListChangedOptions<T>;
  readonly #fetchAll: (maxPages: number | undefined) => Promise<T[]>;
  #timer: TimerHandle | undefined;
  /** Bumped by every notification and by `stop()`; a fetch delivers only if it is still current. */
  #generation = 0;

  constructor(clock: Clock, options: ListChangedOptions<T>, fetchAll: (maxPages: number | undefined) => Promise<T[]>) {
    const debounceMs = options.debounceMs ?? DEFAULT_LIST_REFRESH_DEBOUNCE_MS;
    if (!Number.isFinite(debounceMs) || debounceMs < 0) throw new RangeError(`listChanged debounceMs must be a finite number >= 0 (got ${String(debounceMs)})`);
    this.#clock = clock;
    this.#options = options;
    this.#fetchAll = fetchAll;
  }

  /** The server reported a change: (re)start the quiet period. */
  changed(): void {
    this.#generation++;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = this.#clock.setTimeout(() => void this.#refresh(), this.#options.debounceMs ?? DEFAULT_LIST_REFRESH_DEBOUNCE_MS);
  }

  /** The connection ended: clear the timer and drop any fetch still running. */
  stop(): void {
    this.#generation++;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #refresh(): Promise<void> {
    this.#timer = undefined;
    const generation = this.#generation;
    try {
      const items = await this.#fetchAll(this.#options.maxPages);
      if (generation === this.#generation) this.#options.onChanged(items);
    } catch (error) {
      if (generation !== this.#generation) return;
      try {
        this.#options.onError?.(error instanceof Error ? error : new Error(String(error), { cause: error }));
      } catch {
        // an error callback that throws has nobody left to tell
      }
    }
  }
}
