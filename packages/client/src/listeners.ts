/**
 * Listener sets for the notifications a server sends a client: list changes, resource
 * updates, log messages and URL-elicitation completion. One session handler per method
 * fans out to every listener; a listener that throws does not stop the others (the first
 * error is reported through the session's diagnostics).
 */
import type { JsonObject, Session } from '@statemcp/protocol';

/** The server notifications a client can listen to, by method. */
export const LISTENED_NOTIFICATIONS = [
  'notifications/tools/list_changed',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/updated',
  'notifications/message',
  'notifications/elicitation/complete',
] as const;
export type ListenedNotification = (typeof LISTENED_NOTIFICATIONS)[number];

type Listener = (params: JsonObject) => void;

export class NotificationListeners {
  readonly #listeners = new Map<ListenedNotification, Set<Listener>>();
  /** Sees every listened notification first (the listen streams' router). */
  tap: ((method: ListenedNotification, params: JsonObject) => void) | undefined;
  /** Decides, after the tap, whether the listeners hear a notification (default: they all do). */
  admit: ((method: ListenedNotification, params: JsonObject) => boolean) | undefined;
  /**
   * The client's own listener (what a change makes stale: tool output schemas, cached
   * responses), heard before every added one. One function instead of a listener per method
   * keeps a new client from building five listener sets and their closures.
   */
  own: ((method: ListenedNotification, params: JsonObject) => void) | undefined;

  /** Adds a listener; returns a function that removes it. */
  add(method: ListenedNotification, listener: Listener): () => void {
    let set = this.#listeners.get(method);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(method, set);
    }
    const entry: Listener = (params) => listener(params);
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  /** Routes every listened notification of `session` to the listeners registered here. */
  install(session: Session): void {
    for (const method of LISTENED_NOTIFICATIONS) {
      session.setNotificationHandler(method, (params) => this.#emit(method, params));
    }
  }

  #emit(method: ListenedNotification, params: JsonObject): void {
    this.tap?.(method, params);
    if (this.admit !== undefined && !this.admit(method, params)) return;
    let failure: Error | undefined;
    if (this.own !== undefined) {
      try {
        this.own(method, params);
      } catch (error) {
        failure = asError(method, error);
      }
    }
    const set = this.#listeners.get(method);
    if (set !== undefined) {
      for (const listener of [...set]) {
        try {
          listener(params);
        } catch (error) {
          failure ??= asError(method, error);
        }
      }
    }
    if (failure !== undefined) throw failure;
  }
}

function asError(method: ListenedNotification, error: unknown): Error {
  return error instanceof Error ? error : new Error(`listener for ${method} threw a non-error value`, { cause: error });
}
