/**
 * The list_changed notifications of an `McpServer` are coalesced per tick: registrations made
 * while clients are connected produce one notification per list, however many changed in that
 * tick (MCP 2025-11-25 server/tools §List Changed Notification, and the same for resources and
 * prompts; MCP 2026-07-28 basic/patterns/subscriptions for listen streams). Who hears each one
 * is the principal views' decision (`PrincipalViews.announce`).
 */
import type { ListKind } from './principal-views.js';

/** Collects the lists changed in one tick and hands them to `announce` in a microtask. */
export class ListChanges {
  readonly #announce: (kinds: ListKind[]) => void;
  readonly #pending = new Set<ListKind>();

  constructor(announce: (kinds: ListKind[]) => void) {
    this.#announce = announce;
  }

  /** Records that `kind` changed; the announcement goes out in a microtask. */
  changed(kind: ListKind): void {
    if (this.#pending.size === 0) queueMicrotask(() => this.#flush());
    this.#pending.add(kind);
  }

  #flush(): void {
    const kinds = [...this.#pending];
    this.#pending.clear();
    this.#announce(kinds);
  }
}
