/**
 * The client's own listen stream for list changes in the 2026-07-28 era. There a server sends
 * `notifications/{tools,prompts,resources}/list_changed` only on a `subscriptions/listen`
 * stream, so `onToolsListChanged` and the `listChanged` auto-refresh would hear nothing without
 * one. The client opens ONE stream itself (an ordinary `client.listen` stream: same opening,
 * resumption and `inspect` events) for exactly the lists that
 *
 * - someone listens to (an `on…ListChanged` listener, or `ClientOptions.listChanged`), and
 * - the server advertises `listChanged` for (its `server/discover` capabilities).
 *
 * ```
 *  connect() ─▶ Operating (modern) ─▶ wanted ∩ advertised empty? ── yes ─▶ no stream
 *                                            │ no
 *                                            ▼
 *                       subscriptions/listen {toolsListChanged, …} ─▶ acknowledged ─▶ connect() resolves
 *  listener for another list added ─▶ a stream for the union ─▶ acknowledged ─▶ the previous one closed
 *  connection lost ─▶ waits, opened again by the next connect() (like every resumable stream)
 *  client.close() ─▶ closed first (its request cancelled), then the connection
 * ```
 *
 * Removing listeners does not narrow the stream; it lasts until `client.close()`. While the
 * stream covers a list, the client-wide listeners hear that list's changes from it alone: the
 * copies of the same change on the application's own streams still reach those streams, not
 * the listeners a second time. `ClientOptions.autoListen: false` turns all of this off.
 */
import { SUBSCRIPTION_ID_META_KEY, isJsonObject, type Clock, type JsonObject, type TimerHandle } from '@statemcp/protocol';
import { openListen, type ListenHost } from './listen-open.js';
import type { ListenHandle, SubscriptionFilter } from './listen.js';

/** The lists whose changes the stream can carry. */
export type ChangedList = 'tools' | 'prompts' | 'resources';

const FILTER_KEY = { tools: 'toolsListChanged', prompts: 'promptsListChanged', resources: 'resourcesListChanged' } as const satisfies Record<ChangedList, keyof SubscriptionFilter>;

const LIST_OF: Readonly<Record<string, ChangedList>> = {
  'notifications/tools/list_changed': 'tools',
  'notifications/prompts/list_changed': 'prompts',
  'notifications/resources/list_changed': 'resources',
};

/** The list-changed stream of one client, across its connections. */
export class ListChangedStream {
  readonly #enabled: boolean;
  /** How many listeners want each list (the `listChanged` option's lists count once, for good). */
  #wanted: Map<ChangedList, number> | undefined;
  /** The modern, Operating connection to open the stream on; undefined otherwise. */
  readonly #host: () => ListenHost | undefined;
  #stream: ListenHandle | undefined;
  /** The lists the open stream asked for (none without a stream). */
  #requested: ReadonlySet<ChangedList> | undefined;
  /** Updates run one after the other (a listener added while a stream is being opened waits for it). */
  #queue: Promise<void> | undefined;
  /** Updates queued or running. */
  #queued = 0;

  constructor(enabled: boolean, host: () => ListenHost | undefined) {
    this.#enabled = enabled;
    this.#host = host;
  }

  /** Someone listens to `list`'s changes; returns the function that says it stopped. */
  want(list: ChangedList): () => void {
    const wanted = (this.#wanted ??= new Map());
    wanted.set(list, (wanted.get(list) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      wanted.set(list, (wanted.get(list) ?? 1) - 1);
    };
  }

  /**
   * Opens the stream (or a wider one in its place) when a wanted, advertised list is not
   * covered yet; resolves once the server acknowledged it, or at once when nothing is to open.
   * Never rejects: a stream the server refuses leaves the client without one.
   */
  update(): Promise<void> {
    this.#queued++;
    const next = (this.#queue ?? Promise.resolve()).then(() => this.#reconcile()).finally(() => this.#queued--);
    this.#queue = next;
    return next;
  }

  /**
   * `update()`, waiting at most `timeoutMs` on `clock` for the acknowledgement (connect() does
   * not hang on a server that never acknowledges; the stream still opens when it does).
   */
  async updateWithin(clock: Clock, timeoutMs: number): Promise<void> {
    if (this.idle) return;
    let timer: TimerHandle | undefined;
    const expired = new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, timeoutMs)));
    try {
      await Promise.race([this.update(), expired]);
    } finally {
      if (timer !== undefined) clock.clearTimeout(timer);
    }
  }

  /**
   * True when `update()` would find nothing to do: nothing queued, and nothing wanted or no
   * modern connection to open a stream on (a legacy handshake, `autoListen: false`). Then no
   * deadline timer is armed for it, and `connect()` does not wait on it.
   */
  get idle(): boolean {
    return this.#queued === 0 && !this.#mayOpen();
  }

  /** Whether the client's own stream is open: what `close()` has to end. */
  get open(): boolean {
    return this.#stream !== undefined;
  }

  /** Closes the stream (before the client closes its connection): its request is cancelled, it ends `closed`. */
  async close(): Promise<void> {
    const stream = this.#stream;
    this.#forget(stream);
    await stream?.close();
  }

  /**
   * Whether the client-wide listeners hear this notification: not when it is another stream's
   * copy of a list change that the client's own stream carries.
   */
  admits(method: string, params: JsonObject): boolean {
    const list = Object.hasOwn(LIST_OF, method) ? LIST_OF[method] : undefined;
    const stream = this.#stream;
    if (list === undefined || stream === undefined || stream.acknowledged[FILTER_KEY[list]] !== true) return true;
    const id = isJsonObject(params._meta) ? params._meta[SUBSCRIPTION_ID_META_KEY] : undefined;
    return id === undefined || id === stream.id;
  }

  #mayOpen(): boolean {
    if (!this.#enabled) return false;
    let wanted = false;
    if (this.#wanted !== undefined) for (const count of this.#wanted.values()) if (count > 0) wanted = true;
    return wanted && this.#host() !== undefined;
  }

  async #reconcile(): Promise<void> {
    const host = this.#host();
    if (!this.#enabled || host === undefined) return;
    const capabilities = host.serverCapabilities;
    const requested = this.#requested;
    const missing = [...(this.#wanted ?? [])].filter(([list, count]) => count > 0 && requested?.has(list) !== true && capabilities?.[list]?.listChanged === true).map(([list]) => list);
    if (missing.length === 0) return;
    const lists = new Set([...(requested ?? []), ...missing]);
    const filter: Record<string, boolean> = {};
    for (const list of lists) filter[FILTER_KEY[list]] = true;
    let opened: ListenHandle;
    try {
      opened = await openListen(host, filter, { resume: true });
    } catch {
      return; // refused, or the connection ended meanwhile: the failed request is in `inspect`
    }
    const previous = this.#stream;
    this.#stream = opened;
    this.#requested = lists;
    void opened.ended.then(() => this.#forget(opened));
    await previous?.close();
  }

  #forget(stream: ListenHandle | undefined): void {
    if (stream === undefined || this.#stream !== stream) return;
    this.#stream = undefined;
    this.#requested = undefined;
  }
}
