/**
 * Step-ups across the instances of a cluster (2026-07-28 listen streams, see
 * `principal-views.ts`): a listen stream lives on the instance that holds its HTTP exchange,
 * while the requests of the same principal may land on any instance. Each instance tells the
 * others what a principal now sees, over the cluster's {@link MessageBus}, and each re-evaluates
 * the listen streams of that principal it holds.
 *
 * ```
 *  request of alice on A, view ≠ the last one A saw for alice
 *    └▶ publish views:<sha256(alice)> { from: A, prints }        (no token, no scope, no name)
 *         └▶ B (holds a listen stream of alice, subscribed to that channel)
 *              └▶ prints ≠ the stream's view ─▶ list_changed for the lists that differ
 * ```
 *
 * A principal's channel is the SHA-256 of its key (issuer, subject, client), and the message
 * carries only a fingerprint per list — a hash of the keys of the ruled items it shows — so the
 * bus never sees a token, a scope or an identity in clear. Instances subscribe only the
 * channels of the principals whose listen streams they hold, so a message reaches only those
 * instances. Each instance remembers the last view it saw per principal (bounded, least
 * recently used out): it publishes when a request shows another one (and the first time it sees
 * a principal), never on every request. Delivery is at most once, like the bus.
 */
import type { MessageBus } from '@statemcp/protocol';

/** A list whose view is fingerprinted. */
export type ViewList = 'tools' | 'resources' | 'prompts';

/** What a principal sees of each list, token-free: a hash of the keys of the ruled entries it sees. */
export type ViewPrints = Readonly<Record<ViewList, string>>;

/** What travels on a principal's channel. */
interface ViewNote {
  readonly from: string;
  readonly prints: ViewPrints;
}

/** What an instance remembers of one principal. */
interface KnownPrincipal {
  readonly channel: Promise<string>;
  print: string | undefined;
}

/** How many principals an instance remembers the last view of. */
const KNOWN_LIMIT = 10_000;

const encoder = new TextEncoder();

/**
 * The fingerprint of a set of keys (64 bits from two 32-bit multiplicative hashes): it tells
 * views apart, it protects nothing — the keys are registration names, never secrets.
 */
export function fingerprint(keys: readonly string[]): string {
  let first = 0x811c9dc5;
  let second = 0x9747b28c ^ keys.length;
  for (const key of keys) {
    for (let index = 0; index < key.length; index++) {
      const code = key.charCodeAt(index);
      first = Math.imul(first ^ code, 0x01000193);
      second = Math.imul(second ^ code, 0x5bd1e995);
    }
    first = Math.imul(first ^ 0x1f, 0x01000193);
    second = Math.imul(second ^ 0x1f, 0x5bd1e995);
  }
  return `${(first >>> 0).toString(16)}${(second >>> 0).toString(16).padStart(8, '0')}`;
}

/** Whether `value` is a {@link ViewNote} (a message from another instance: checked, never trusted). */
function isViewNote(value: unknown): value is ViewNote {
  if (typeof value !== 'object' || value === null) return false;
  const { from, prints } = value as Partial<Record<keyof ViewNote, unknown>>;
  if (typeof from !== 'string' || typeof prints !== 'object' || prints === null) return false;
  const record = prints as Record<string, unknown>;
  return typeof record.tools === 'string' && typeof record.resources === 'string' && typeof record.prompts === 'string';
}

async function channelOf(principal: string): Promise<string> {
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(principal)));
  let hex = '';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return `views:${hex}`;
}

/** Announces and hears principals' views between the instances of one server. */
export class SharedViews {
  readonly #instanceId: string;
  readonly #bus: MessageBus;
  readonly #onError: (error: unknown) => void;
  /** The last view seen per principal key, least recently used first. */
  readonly #known = new Map<string, KnownPrincipal>();

  constructor(options: { readonly instanceId: string; readonly bus: MessageBus }, onError: (error: unknown) => void = () => undefined) {
    this.#instanceId = options.instanceId;
    this.#bus = options.bus;
    this.#onError = onError;
  }

  /** A request of `principal` showed `prints`: the other instances hear it when this instance last saw another view. */
  seen(principal: string, prints: ViewPrints): void {
    const known = this.#remember(principal, prints);
    if (known === undefined) return;
    const note: ViewNote = { from: this.#instanceId, prints };
    void known.channel.then((channel) => this.#bus.publish(channel, JSON.stringify(note))).catch(this.#onError);
  }

  /**
   * Calls `onView` with each view of `principal` another instance announces from now on
   * (resolves once subscribed). The returned function stops it.
   */
  async follow(principal: string, onView: (prints: ViewPrints) => void): Promise<() => Promise<void>> {
    const channel = await this.#entry(principal).channel;
    return this.#bus.subscribe(channel, (payload) => {
      let note: unknown;
      try {
        note = JSON.parse(payload);
      } catch (error) {
        this.#onError(error);
        return;
      }
      if (!isViewNote(note) || note.from === this.#instanceId) return;
      this.#remember(principal, note.prints);
      onView(note.prints);
    });
  }

  /** Records that `principal` shows `prints`; returns its entry when that is news, `undefined` when it was known. */
  #remember(principal: string, prints: ViewPrints): KnownPrincipal | undefined {
    const print = `${prints.tools}.${prints.resources}.${prints.prompts}`;
    const known = this.#entry(principal);
    if (known.print === print) return undefined;
    known.print = print;
    return known;
  }

  /** The entry of `principal`, now the most recently used. */
  #entry(principal: string): KnownPrincipal {
    let known = this.#known.get(principal);
    if (known === undefined) {
      known = { channel: channelOf(principal), print: undefined };
      if (this.#known.size >= KNOWN_LIMIT) this.#known.delete(this.#known.keys().next().value as string);
    } else {
      this.#known.delete(principal);
    }
    this.#known.set(principal, known);
    return known;
  }
}
