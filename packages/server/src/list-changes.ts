/**
 * The list_changed notifications of an `McpServer`: registrations made while clients are
 * connected are coalesced per tick into one notification per list, sent to each listen
 * stream that asked for that list (2026-07-28+, MCP 2026-07-28 basic/patterns/subscriptions)
 * and to each operating legacy connection whose server declared `listChanged` for it
 * (MCP 2025-11-25 server/tools §List Changed Notification, and the same for resources and prompts).
 */
import type { Server } from './server.js';

/** The lists whose changes are announced. */
export type ListKind = 'tools' | 'resources' | 'prompts';

const LIST_CHANGED: Readonly<Record<ListKind, string>> = Object.freeze({
  tools: 'notifications/tools/list_changed',
  resources: 'notifications/resources/list_changed',
  prompts: 'notifications/prompts/list_changed',
});

/** The `subscriptions/listen` filter key of each list's change notification. */
const LISTEN_KEY: Readonly<Record<ListKind, string>> = Object.freeze({
  tools: 'toolsListChanged',
  resources: 'resourcesListChanged',
  prompts: 'promptsListChanged',
});

/** Coalesces the list changes of one tick and announces them to every connection of `server`. */
export class ListChanges {
  readonly #server: Server;
  readonly #pending = new Set<ListKind>();

  constructor(server: Server) {
    this.#server = server;
  }

  /** Records that `kind` changed; the notifications go out in a microtask. */
  changed(kind: ListKind): void {
    if (this.#pending.size === 0) queueMicrotask(() => this.#flush());
    this.#pending.add(kind);
  }

  #flush(): void {
    const kinds = [...this.#pending];
    this.#pending.clear();
    const server = this.#server;
    for (const kind of kinds) void server.subscriptions.publish(LIST_CHANGED[kind], undefined, (filter) => filter[LISTEN_KEY[kind]] === true);
    for (const connection of server.connections) {
      if (!connection.isOperating || connection.stateless) continue; // 2026-07-28: change notifications only on listen streams
      const declared = connection.capabilities;
      for (const kind of kinds) {
        if (declared[kind]?.listChanged !== true) continue;
        connection.session.notify(LIST_CHANGED[kind]).catch(() => {
          // the connection closed meanwhile
        });
      }
    }
  }
}
