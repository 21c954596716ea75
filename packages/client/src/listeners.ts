/**
 * Listener sets for the notifications a server sends a client: list changes, resource
 * updates, log messages and URL-elicitation completion. The client's handler table
 * (`client-handler-table.ts`) hands each one to `emit`, which fans out to every listener; a
 * listener that throws does not stop the others (the first error is reported through the
 * session's diagnostics).
 */
import type { JsonObject } from '@statemcp/protocol';

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

/** The client's own listener: what a change makes stale (tool output schemas, cached responses). */
export interface OwnListener {
  notified(method: ListenedNotification, params: JsonObject): void;
}

export class NotificationListeners {
  /** Built by the first `add`. */
  #listeners: Map<ListenedNotification, Set<Listener>> | undefined;
  /**
   * Heard before every added listener. One object instead of a listener per method keeps a
   * new client from building five listener sets and their closures.
   */
  readonly #own: OwnListener | undefined;

  constructor(own?: OwnListener) {
    this.#own = own;
  }

  /** Adds a listener; returns a function that removes it. */
  add(method: ListenedNotification, listener: Listener): () => void {
    const listeners = (this.#listeners ??= new Map());
    let set = listeners.get(method);
    if (set === undefined) {
      set = new Set();
      listeners.set(method, set);
    }
    const entry: Listener = (params) => listener(params);
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  /** Hands one notification to the own listener, then to every listener added for its method. */
  emit(method: ListenedNotification, params: JsonObject): void {
    let failure: Error | undefined;
    if (this.#own !== undefined) {
      try {
        this.#own.notified(method, params);
      } catch (error) {
        failure = asError(method, error);
      }
    }
    const set = this.#listeners?.get(method);
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
