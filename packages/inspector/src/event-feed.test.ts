import { channel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CHANNEL_NAMES } from '@statemcp/protocol';
import { EventFeed, type FeedBatch } from './event-feed.js';

const feeds: EventFeed[] = [];
afterEach(() => {
  for (const feed of feeds.splice(0)) feed.stop();
});

function started(options: ConstructorParameters<typeof EventFeed>[0] = {}): { feed: EventFeed; batches: FeedBatch[] } {
  const feed = new EventFeed({ flushIntervalMs: 60_000, ...options });
  feeds.push(feed);
  const batches: FeedBatch[] = [];
  feed.onBatch((batch) => batches.push(batch));
  feed.start();
  return { feed, batches };
}

const diagnostic = channel(DIAGNOSTIC_CHANNEL_NAMES.diagnostic);
const messageOut = channel(DIAGNOSTIC_CHANNEL_NAMES['message.out']);

describe('EventFeed', () => {
  it('hands on events in batches, numbered, with errors made readable', () => {
    const { feed, batches } = started();
    diagnostic.publish({ type: 'diagnostic', sessionId: 's', at: 1, message: 'one', detail: new TypeError('bad') });
    diagnostic.publish({ type: 'diagnostic', sessionId: 's', at: 2, message: 'two' });
    expect(batches).toEqual([]);
    feed.flush();
    expect(batches).toHaveLength(1);
    const events = (batches[0]?.events ?? []).map((json) => JSON.parse(json) as Record<string, unknown>);
    expect(events).toEqual([
      { seq: 1, type: 'diagnostic', sessionId: 's', at: 1, message: 'one', detail: { name: 'TypeError', message: 'bad' } },
      { seq: 2, type: 'diagnostic', sessionId: 's', at: 2, message: 'two' },
    ]);
  });

  it('replaces a payload over maxEventBytes with a summary', () => {
    const { feed, batches } = started({ maxEventBytes: 1024 });
    messageOut.publish({ type: 'message.out', sessionId: 's', at: 1, message: { jsonrpc: '2.0', id: 7, result: { text: 'x'.repeat(5000) } } });
    feed.flush();
    const event = JSON.parse(batches[0]?.events[0] ?? '{}') as { message: Record<string, unknown> };
    expect(event.message).toMatchObject({ id: 7, truncated: true });
    expect(event.message['bytes']).toBeGreaterThan(5000);
  });

  it('keeps a history bounded in bytes, newest last', () => {
    const { feed } = started({ historyBytes: 2000 });
    for (let index = 0; index < 100; index += 1) diagnostic.publish({ type: 'diagnostic', sessionId: 's', at: index, message: `event ${index}` });
    feed.flush();
    const history = feed.history();
    expect(history.join('').length).toBeLessThanOrEqual(2000);
    expect(JSON.parse(history.at(-1) ?? '{}')).toMatchObject({ message: 'event 99' });
    expect(history.length).toBeLessThan(100);
  });

  it('drops the oldest queued events past maxQueuedEvents and counts them', () => {
    const { feed, batches } = started({ maxQueuedEvents: 10 });
    for (let index = 0; index < 25; index += 1) diagnostic.publish({ type: 'diagnostic', sessionId: 's', at: index, message: `event ${index}` });
    feed.flush();
    expect(batches[0]?.dropped).toBe(15);
    expect(batches[0]?.events).toHaveLength(10);
    expect(JSON.parse(batches[0]?.events[0] ?? '{}')).toMatchObject({ message: 'event 15' });
  });

  it('stops listening when stopped', () => {
    const { feed, batches } = started();
    feed.stop();
    diagnostic.publish({ type: 'diagnostic', sessionId: 's', at: 1, message: 'unseen' });
    feed.flush();
    expect(batches).toEqual([]);
  });
});
