import { channel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CHANNEL_NAMES, TASK_QUEUE_CHANNEL_NAME } from '@statemcp/protocol';
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
  it('carries task transitions and the MRTR round of a request', () => {
    const { feed, batches } = started();
    const task = { type: 'task.transition', sessionId: 's', at: 1, taskId: 't1', side: 'server', requestId: 4, tool: 'deploy', from: 'working', to: 'input_required', event: 'needInput', elapsedMs: 12 };
    channel(DIAGNOSTIC_CHANNEL_NAMES['task.transition']).publish(task);
    const keys = Array.from({ length: 40 }, (_, index) => `key-${index}`);
    channel(DIAGNOSTIC_CHANNEL_NAMES['request.transition']).publish({
      type: 'request.transition',
      sessionId: 's',
      at: 2,
      requestId: 9,
      direction: 'outbound',
      method: 'tools/call',
      from: 'dispatched',
      to: 'waitingForInput',
      event: 'awaitInput',
      elapsedMs: 3,
      input: { round: 2, keys, firstId: 5 },
    });
    feed.flush();
    const [taskEvent, requestEvent] = (batches[0]?.events ?? []).map((json) => JSON.parse(json) as Record<string, unknown>);
    expect(taskEvent).toEqual({ seq: 1, ...task });
    expect(requestEvent?.['input']).toEqual({ round: 2, keys: keys.slice(0, 16), firstId: 5 });
  });

  it('carries the events of the job queue as task-queue records, and ignores what is not one', () => {
    const { feed, batches } = started();
    const queue = channel(TASK_QUEUE_CHANNEL_NAME);
    queue.publish({ type: 'started', queue: 'reports', at: 1, taskId: 't1', attempt: 2, waitMs: undefined });
    queue.publish('not an event');
    queue.publish({ type: 'depth', queue: 'reports', at: 2, waiting: 1, prioritized: 2, active: 3, delayed: 4, failed: 5 });
    feed.flush();
    expect((batches[0]?.events ?? []).map((json) => JSON.parse(json) as unknown)).toEqual([
      { seq: 1, type: 'task-queue', sessionId: '', at: 1, queue: 'reports', event: 'started', taskId: 't1', attempt: 2 },
      { seq: 2, type: 'task-queue', sessionId: '', at: 2, queue: 'reports', event: 'depth', waiting: 1, prioritized: 2, active: 3, delayed: 4, failed: 5 },
    ]);
  });

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

  it('summarizes messages to what the page shows unless payloads are asked for', () => {
    const { feed, batches } = started();
    const messageIn = channel(DIAGNOSTIC_CHANNEL_NAMES['message.in']);
    messageOut.publish({ type: 'message.out', sessionId: 's', at: 1, message: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(5000) }, _meta: { progressToken: 'p1' } } } });
    messageIn.publish({ type: 'message.in', sessionId: 's', at: 2, message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 4, message: 'y'.repeat(5000) } } });
    messageIn.publish({ type: 'message.in', sessionId: 's', at: 3, message: { jsonrpc: '2.0', id: 3, error: { code: -32001, message: 'timed out', data: 'z'.repeat(5000) } } });
    messageOut.publish({ type: 'message.out', sessionId: 's', at: 4, message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'user' } } });
    feed.flush();
    const messages = (batches[0]?.events ?? []).map((json) => (JSON.parse(json) as { message: unknown }).message);
    expect(messages).toEqual([
      { summary: true, id: 3, method: 'tools/call', params: { name: 'echo', _meta: { progressToken: 'p1' } } },
      { summary: true, method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 4 } },
      { summary: true, id: 3, error: { code: -32001, message: 'timed out' } },
      { summary: true, method: 'notifications/cancelled', params: { requestId: 3, reason: 'user' } },
    ]);
    expect((batches[0]?.events ?? []).every((json) => json.length < 300)).toBe(true);
  });

  it('encodes a batch once, and keeps the history as those batch texts', () => {
    const { feed, batches } = started();
    const transitions = channel(DIAGNOSTIC_CHANNEL_NAMES['session.transition']);
    transitions.publish({ type: 'session.transition', sessionId: 's', at: 1, from: 'uninitialized', to: 'initializing', event: 'initialize' });
    diagnostic.publish({ type: 'diagnostic', sessionId: 's', at: 2, message: 'between' });
    transitions.publish({ type: 'session.transition', sessionId: 's', at: 3, from: 'initializing', to: 'initialized', event: 'initialized' });
    feed.flush();
    const batch = batches[0];
    expect(batch?.count).toBe(3);
    expect(JSON.parse(`[${batch?.json ?? ''}]`)).toEqual((batch?.events ?? []).map((json) => JSON.parse(json) as unknown));
    expect((batch?.events ?? []).map((json) => (JSON.parse(json) as { seq: number }).seq)).toEqual([1, 2, 3]);
    expect(feed.historyBatches().map((kept) => kept.json)).toEqual([batch?.json]);
  });

  it('keeps whole messages with payloads: true', () => {
    const { feed, batches } = started({ payloads: true });
    const message = { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'hello' }] } };
    messageOut.publish({ type: 'message.out', sessionId: 's', at: 1, message });
    feed.flush();
    expect(JSON.parse(batches[0]?.events[0] ?? '{}')).toEqual({ seq: 1, type: 'message.out', sessionId: 's', at: 1, message });
  });

  it('listens only while something reads: a batch listener or a history', () => {
    const feed = new EventFeed({ historyBytes: 0, flushIntervalMs: 60_000 });
    feeds.push(feed);
    feed.start();
    expect(feed.listening).toBe(false);
    expect(diagnostic.hasSubscribers).toBe(false);
    const batches: FeedBatch[] = [];
    const off = feed.onBatch((batch) => batches.push(batch));
    expect(feed.listening).toBe(true);
    diagnostic.publish({ type: 'diagnostic', sessionId: 's', at: 1, message: 'seen' });
    off();
    expect(feed.listening).toBe(false);
    diagnostic.publish({ type: 'diagnostic', sessionId: 's', at: 2, message: 'unseen' });
    feed.flush();
    expect(batches).toEqual([]);
    expect(feed.history()).toEqual([]);
  });

  it('replaces a payload over maxEventBytes with a summary', () => {
    const { feed, batches } = started({ maxEventBytes: 1024, payloads: true });
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

  it('keeps the newest maxQueuedEvents in order however many arrive between flushes', () => {
    const { feed, batches } = started({ maxQueuedEvents: 100 });
    for (let index = 0; index < 1000; index += 1) diagnostic.publish({ type: 'diagnostic', sessionId: 's', at: index, message: `event ${index}` });
    feed.flush();
    expect(batches[0]?.dropped).toBe(900);
    const kept = (batches[0]?.events ?? []).map((json) => (JSON.parse(json) as { at: number }).at);
    expect(kept).toEqual(Array.from({ length: 100 }, (_, index) => 900 + index));
  });

  it('stops listening when stopped', () => {
    const { feed, batches } = started();
    feed.stop();
    diagnostic.publish({ type: 'diagnostic', sessionId: 's', at: 1, message: 'unseen' });
    feed.flush();
    expect(batches).toEqual([]);
  });
});
