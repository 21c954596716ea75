/**
 * List changes per principal: who hears `notifications/{tools,prompts,resources}/list_changed`
 * once registrations carry visibility rules (see `visibility.ts`). A change reaches a listener
 * only when its view of that list changed:
 *
 * ```
 *  what happened                                 who is told (per list)
 *  an entry visible to everyone added, updated,  every session that declared listChanged, every
 *    enabled, disabled or removed                listen stream (2026-07-28) asking for the list
 *  an entry with a rule added / changed / gone   only those whose principal's view shows it
 *  a rule itself replaced (update)               everyone (who saw it before is not kept)
 *  a request arrives with new auth info (a       that session (legacy), and the listen streams of
 *    step-up token) that sees the list           the same principal (issuer, subject, client):
 *    differently than the session's last one       only for the lists that differ — on every
 *                                                  instance of a cluster (`shared-views.ts`)
 * ```
 *
 * Views are computed per request from the auth info it carries (the transport re-verifies the
 * token on every request, on whichever instance of a cluster serves it), never per instance.
 * MCP 2025-11-25, Server Features › Tools › List Changed Notification; 2026-07-28
 * `subscriptions/listen` carries them in the stateless era.
 */
import type { Registry } from './registry.js';
import type { JsonObject } from '@statemcp/protocol';
import type { ServerRequestContext, Server } from './server.js';
import type { ServerConnection } from './server-connection.js';
import type { ServerClusterOptions } from './shared-subscriptions.js';
import { SharedViews, fingerprint, type ViewList, type ViewPrints } from './shared-views.js';
import type { ListenSubscription } from './subscriptions.js';
import { LazyViewer, principalKeyOf, type Viewable } from './visibility.js';

/** A list whose changes are announced. */
export type ListKind = ViewList;

/**
 * What a listen stream was last shown: the auth info of its principal's latest request on this
 * instance, and the view another instance announced since (it has no auth info to go with).
 */
interface StreamView {
  readonly authInfo: unknown;
  readonly announced?: ViewPrints;
}

const KINDS: readonly ListKind[] = ['tools', 'resources', 'prompts'];

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

const UNRULED = new LazyViewer(undefined);

/** The registries of one server, by list (resource templates live in the resources registry). */
export type ViewLists = Readonly<Record<ListKind, Registry<Viewable>>>;

/** Whose view each announcement is filtered by, and the step-ups it detects. */
export class PrincipalViews {
  readonly #server: Server;
  readonly #lists: ViewLists;
  readonly #shared: SharedViews | undefined;
  /** What each listen stream (by its request context) was last shown. */
  readonly #streamViews = new WeakMap<object, StreamView>();

  /** In a `cluster`, step-ups are announced to the principal's listen streams on every instance. */
  constructor(server: Server, lists: ViewLists, cluster?: ServerClusterOptions) {
    this.#server = server;
    this.#lists = lists;
    const shared = cluster === undefined ? undefined : new SharedViews(cluster);
    this.#shared = shared;
    if (shared !== undefined) server.subscriptions.onOpen((filter, context) => this.#follow(shared, filter, context));
  }

  /**
   * The viewer of one request. When some registration has a rule and the request's auth info
   * shows a list differently than the one its session (or its principal's listen streams) last
   * saw, they are told that the list changed.
   */
  viewerFor(context: ServerRequestContext): LazyViewer {
    // Without rules nobody's view differs: one shared viewer, no allocation per request (a rule
    // registered while the request runs is then checked as for an anonymous caller: hidden).
    if (!this.#hasRules()) return UNRULED;
    const viewer = new LazyViewer(context.authInfo);
    this.#observe(context.connection, viewer);
    return viewer;
  }

  /** Announces that `kinds` changed, to the sessions and listen streams whose view of them changed. */
  announce(kinds: readonly ListKind[]): void {
    for (const kind of kinds) {
      const changes = this.#lists[kind].takeChanges();
      // An entry without a rule concerns everyone; one with a rule, those who see it.
      const everyone = changes.all || changes.entries.some((entry) => entry.visibility === undefined);
      const concerns = (authInfo: unknown): boolean => {
        if (everyone) return true;
        const viewer = new LazyViewer(authInfo);
        return changes.entries.some((entry) => viewer.allows(entry.visibility));
      };
      void this.#server.subscriptions.publish(LIST_CHANGED[kind], undefined, (filter, stream) => filter[LISTEN_KEY[kind]] === true && concerns(this.#streamView(stream).authInfo));
      for (const connection of this.#server.connections) {
        if (!connection.isOperating || connection.stateless) continue; // 2026-07-28: change notifications only on listen streams
        if (connection.capabilities[kind]?.listChanged !== true) continue;
        const seen = connection.viewedAs;
        if (seen !== undefined && !concerns(seen.authInfo)) continue;
        notify(connection, kind);
      }
    }
  }

  /** A loop, not `KINDS.some(…)`: it runs for every request that may meet a rule, and a callback costs a closure per run. */
  #hasRules(): boolean {
    for (const kind of KINDS) if (this.#lists[kind].ruledKeyed().length > 0) return true;
    return false;
  }

  /** The lists `before` and `after` see differently (only entries with rules can differ). */
  #differing(before: unknown, after: LazyViewer): ListKind[] {
    if (before === after.authInfo) return [];
    const old = new LazyViewer(before);
    return KINDS.filter((kind) => this.#lists[kind].ruledKeyed().some(([, entry]) => entry.enabled && old.allows(entry.visibility) !== after.allows(entry.visibility)));
  }

  /** The token-free fingerprint of what `viewer` sees of each list (its ruled entries only: the rest is everyone's). */
  #printsOf(viewer: LazyViewer): ViewPrints {
    const print = (kind: ListKind): string => fingerprint(this.#lists[kind].ruledKeyed().flatMap(([key, entry]) => (viewer.shows(entry) ? [key] : [])));
    return { tools: print('tools'), resources: print('resources'), prompts: print('prompts') };
  }

  /** The lists a stream shown `view` sees differently than `viewer`. */
  #streamDiffers(view: StreamView, viewer: LazyViewer, prints: () => ViewPrints): ListKind[] {
    if (view.announced === undefined) return this.#differing(view.authInfo, viewer);
    const now = prints();
    const announced = view.announced;
    return KINDS.filter((kind) => announced[kind] !== now[kind]);
  }

  #observe(connection: ServerConnection, viewer: LazyViewer): void {
    const seen = connection.viewedAs;
    connection.viewedAs = { authInfo: viewer.authInfo };
    if (!connection.stateless) {
      if (seen === undefined || !connection.isOperating) return;
      for (const kind of this.#differing(seen.authInfo, viewer)) if (connection.capabilities[kind]?.listChanged === true) notify(connection, kind);
      return;
    }
    // 2026-07-28: the principal's listen streams, wherever on this instance they were opened…
    const principal = principalKeyOf(viewer.authInfo);
    if (principal === undefined) return;
    let prints: ViewPrints | undefined;
    const printed = (): ViewPrints => (prints ??= this.#printsOf(viewer));
    const changed = new Map<ListenSubscription, readonly ListKind[]>();
    for (const stream of this.#server.subscriptions.streams()) {
      const shown = this.#streamView(stream);
      if (principalKeyOf(shown.authInfo) !== principal) continue;
      const kinds = this.#streamDiffers(shown, viewer, printed);
      this.#streamViews.set(stream.context, { authInfo: viewer.authInfo });
      if (kinds.length > 0) changed.set(stream, kinds);
    }
    this.#tell(changed);
    // …and on the other instances of a cluster.
    this.#shared?.seen(principal, printed());
  }

  /** Another instance announced `prints` for the principal of the stream opened by `context`. */
  #heard(context: ServerRequestContext, prints: ViewPrints): void {
    for (const stream of this.#server.subscriptions.streams()) {
      if (stream.context !== context) continue;
      const shown = this.#streamView(stream);
      const before = shown.announced ?? this.#printsOf(new LazyViewer(shown.authInfo));
      this.#streamViews.set(context, { authInfo: shown.authInfo, announced: prints });
      this.#tell(new Map([[stream, KINDS.filter((kind) => before[kind] !== prints[kind])]]));
      return;
    }
  }

  /** A stream asking for list changes follows its principal's views across the cluster. */
  #follow(shared: SharedViews, filter: Readonly<JsonObject>, context: ServerRequestContext): Promise<() => void> | undefined {
    if (!KINDS.some((kind) => filter[LISTEN_KEY[kind]] === true)) return undefined;
    const principal = principalKeyOf(context.authInfo);
    if (principal === undefined) return undefined;
    return shared.follow(principal, (prints) => this.#heard(context, prints)).then((stop) => () => void stop().catch(() => undefined));
  }

  /** Sends each stream the list changes of its lists in `changed`. */
  #tell(changed: ReadonlyMap<ListenSubscription, readonly ListKind[]>): void {
    if (![...changed.values()].some((kinds) => kinds.length > 0)) return;
    for (const kind of KINDS) {
      void this.#server.subscriptions.publish(LIST_CHANGED[kind], undefined, (filter, stream) => filter[LISTEN_KEY[kind]] === true && changed.get(stream)?.includes(kind) === true);
    }
  }

  #streamView(stream: ListenSubscription): StreamView {
    return this.#streamViews.get(stream.context) ?? { authInfo: stream.context.authInfo };
  }
}

function notify(connection: ServerConnection, kind: ListKind): void {
  connection.session.notify(LIST_CHANGED[kind]).catch(() => {
    // the connection closed meanwhile
  });
}
