/**
 * `SharedViews` over a bus that records what travels: an instance publishes a principal's view
 * only when it differs from the last one it saw or heard, on a channel named by a hash of the
 * principal, with nothing but fingerprints in the message; what arrives malformed or from the
 * instance itself is ignored.
 */
import type { BusHandler, MessageBus } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { SharedViews, fingerprint, type ViewPrints } from './shared-views.js';

/** One process's bus: every subscriber of a channel gets each message, synchronously. */
class RecordingBus implements MessageBus {
  readonly published: { channel: string; payload: string }[] = [];
  readonly #handlers = new Map<string, Set<BusHandler>>();
  #waiters: (() => void)[] = [];

  /** Resolves once `count` messages were published in all. */
  async until(count: number): Promise<void> {
    while (this.published.length < count) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  publish(channel: string, payload: string): number {
    this.published.push({ channel, payload });
    for (const resolve of this.#waiters.splice(0)) resolve();
    const handlers = this.#handlers.get(channel) ?? new Set();
    for (const handler of handlers) handler(payload);
    return handlers.size;
  }

  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    let handlers = this.#handlers.get(channel);
    if (handlers === undefined) this.#handlers.set(channel, (handlers = new Set()));
    handlers.add(handler);
    return Promise.resolve(() => Promise.resolve(void handlers.delete(handler)));
  }
}

const ALICE = JSON.stringify(['https://id.example.com', 'alice', 'notes-app']);
const read: ViewPrints = { tools: fingerprint(['alice_diary']), resources: fingerprint([]), prompts: fingerprint([]) };
const write: ViewPrints = { ...read, tools: fingerprint(['delete_notes', 'alice_diary']) };

describe('SharedViews', () => {
  it('publishes a principal’s view when it changes, hashed and token-free, and the other instance hears it once', async () => {
    const bus = new RecordingBus();
    const [a, b] = [new SharedViews({ instanceId: 'a', bus }), new SharedViews({ instanceId: 'b', bus })];
    const heard: ViewPrints[] = [];
    await b.follow(ALICE, (prints) => heard.push(prints));

    // Publishes of one principal keep their order: a second `read` would travel before `write`.
    a.seen(ALICE, read);
    a.seen(ALICE, read);
    a.seen(ALICE, write);
    await bus.until(2);
    expect(heard).toEqual([read, write]);
    expect(bus.published).toHaveLength(2);
    const [{ channel, payload }] = bus.published as [{ channel: string; payload: string }];
    expect(channel).toMatch(/^views:[0-9a-f]{64}$/);
    expect(`${channel}${payload}`).not.toContain('alice');

    // B heard `write`: the same view on B is no news (it would travel before A's next one).
    b.seen(ALICE, write);
    a.seen(ALICE, read);
    await bus.until(3);
    expect(bus.published.map((message) => JSON.parse(message.payload) as unknown)).toEqual([
      { from: 'a', prints: read },
      { from: 'a', prints: write },
      { from: 'a', prints: read },
    ]);
  });

  it('ignores malformed messages and its own', async () => {
    const bus = new RecordingBus();
    const errors: unknown[] = [];
    const a = new SharedViews({ instanceId: 'a', bus }, (error) => errors.push(error));
    const heard: ViewPrints[] = [];
    await a.follow(ALICE, (prints) => heard.push(prints));
    a.seen(ALICE, read);
    await bus.until(1);
    const channel = bus.published[0]?.channel ?? '';
    bus.publish(channel, 'not json');
    bus.publish(channel, JSON.stringify({ from: 'b', prints: { tools: 1 } }));
    bus.publish(channel, JSON.stringify({ from: 'b' }));
    expect(heard).toEqual([]);
    expect(errors).toHaveLength(1);
  });

  it('fingerprints tell sets of keys apart', () => {
    expect(fingerprint(['a', 'b'])).toBe(fingerprint(['a', 'b']));
    expect(new Set([fingerprint([]), fingerprint(['a']), fingerprint(['ab']), fingerprint(['a', 'b']), fingerprint(['b', 'a'])]).size).toBe(5);
  });
});
