import { readFileSync } from 'node:fs';
import { McpError, StatemcpError } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import * as sharedState from './memory-shared-state.js';
import { InMemoryLivenessStore, InMemoryMessageBus, InMemorySessionStore, InMemorySubscriptionStore } from './memory-shared-state.js';
import { SharedStoreUnavailableError, busChannel, type SessionRecord } from './shared-state.js';

const record = (sessionId: string): SessionRecord => ({
  sessionId,
  protocolVersion: '2025-11-25',
  clientCapabilities: { sampling: {} },
  principal: 'alice',
  owner: 'instance-a',
  expiresAt: 0,
});

describe('InMemorySessionStore', () => {
  describe('#get', () => {
    it('returns the record until its time to live has passed', () => {
      let now = 1_000;
      const store = new InMemorySessionStore({ now: () => now });
      store.put(record('s1'), 500);
      expect(store.get('s1')).toMatchObject({ sessionId: 's1', owner: 'instance-a', principal: 'alice', expiresAt: 1_500 });
      now = 1_499;
      expect(store.get('s1')?.sessionId).toBe('s1');
      now = 1_500;
      expect(store.get('s1')).toBeUndefined();
      expect(store.size).toBe(0);
    });
  });

  describe('#touch', () => {
    it('restarts the time to live of a live record and reports a gone one', () => {
      let now = 0;
      const store = new InMemorySessionStore({ now: () => now });
      store.put(record('s1'), 100);
      now = 90;
      expect(store.touch('s1', 100)).toBe(true);
      now = 150;
      expect(store.get('s1')?.expiresAt).toBe(190);
      now = 190;
      expect(store.touch('s1', 100)).toBe(false);
    });
  });

  describe('#delete', () => {
    it('removes the record once', () => {
      const store = new InMemorySessionStore();
      store.put(record('s1'), 60_000);
      expect(store.delete('s1')).toBe(true);
      expect(store.delete('s1')).toBe(false);
      expect(store.get('s1')).toBeUndefined();
    });
  });
});

describe('InMemorySessionStore (failover)', () => {
  describe('#claim', () => {
    it('moves the record to a new owner only from the owner named, restarting its time to live', () => {
      let now = 0;
      const store = new InMemorySessionStore({ now: () => now });
      store.put(record('s1'), 100);
      now = 50;
      expect(store.claim('s1', 'instance-b', 'instance-c', 100)).toBeUndefined();
      expect(store.claim('s1', 'instance-a', 'instance-b', 100)).toMatchObject({ owner: 'instance-b', principal: 'alice', expiresAt: 150 });
      expect(store.claim('s1', 'instance-a', 'instance-c', 100)).toBeUndefined();
      expect(store.get('s1')?.owner).toBe('instance-b');
      now = 150;
      expect(store.claim('s1', 'instance-b', 'instance-c', 100)).toBeUndefined();
    });
  });
});

describe('InMemoryLivenessStore', () => {
  describe('#beat', () => {
    it('keeps an instance alive for the time to live of its last beat, and says whether the previous one had lapsed', () => {
      let now = 0;
      const liveness = new InMemoryLivenessStore({ now: () => now });
      expect(liveness.isAlive('a')).toBe(false);
      expect(liveness.beat('a', 100)).toBe(false);
      now = 99;
      expect(liveness.isAlive('a')).toBe(true);
      expect(liveness.beat('a', 100)).toBe(true);
      now = 199;
      expect(liveness.isAlive('a')).toBe(false);
      expect(liveness.beat('a', 100)).toBe(false);
      liveness.forget('a');
      expect(liveness.isAlive('a')).toBe(false);
    });
  });
});

describe('InMemoryMessageBus', () => {
  describe('#publish', () => {
    it('delivers in order to the subscribers of the channel only, until they unsubscribe', async () => {
      const bus = new InMemoryMessageBus();
      const seen: string[] = [];
      const other: string[] = [];
      const unsubscribe = await bus.subscribe(busChannel.session('s1'), (payload) => seen.push(payload));
      await bus.subscribe(busChannel.stream('s1', 'k.1'), (payload) => other.push(payload));
      expect(bus.publish(busChannel.session('s1'), 'one')).toBe(1);
      expect(bus.publish(busChannel.session('s1'), 'two')).toBe(1);
      await unsubscribe();
      await unsubscribe();
      expect(bus.publish(busChannel.session('s1'), 'three')).toBe(0);
      expect(seen).toEqual(['one', 'two']);
      expect(other).toEqual([]);
      expect(bus.channelCount).toBe(1);
    });
  });
});

describe('busChannel', () => {
  it('keys channels by session and by session and stream', () => {
    expect(busChannel.session('abc')).toBe('session:abc');
    expect(busChannel.stream('abc', 'k.2')).toBe('stream:abc:k.2');
  });
});

describe('InMemorySubscriptionStore', () => {
  describe('#removeAll', () => {
    it('drops a subscriber from every key it followed', () => {
      const store = new InMemorySubscriptionStore();
      store.add('file:///a', 's1');
      store.add('file:///b', 's1');
      store.add('file:///a', 's2');
      expect(store.subscribers('file:///a').sort()).toEqual(['s1', 's2']);
      expect(store.remove('file:///a', 's2')).toBe(true);
      expect(store.remove('file:///a', 's2')).toBe(false);
      expect(store.removeAll('s1')).toBe(2);
      expect(store.removeAll('s1')).toBe(0);
      expect(store.subscribers('file:///a')).toEqual([]);
      expect(store.subscribers('file:///b')).toEqual([]);
    });
  });
});

describe('SharedStoreUnavailableError', () => {
  it('is a typed local statemcp error naming its store', () => {
    const error = new SharedStoreUnavailableError('sessions', 'Redis is unreachable', { cause: new Error('ECONNREFUSED') });
    expect(error).toBeInstanceOf(SharedStoreUnavailableError);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toBeInstanceOf(StatemcpError);
    expect(error.code).toBe('TRANSPORT_ERROR');
    expect(error.category).toBe('interrupted');
    expect(error.store).toBe('sessions');
    expect(error.name).toBe('SharedStoreUnavailableError');
  });
});

describe('README Shared state section', () => {
  it('runs its example (plain JavaScript once the import is bound)', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = /### Shared state for several instances[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const importLine = "import { InMemoryMessageBus, InMemorySessionStore, busChannel } from '@statemcp/http-transport/server';\n";
    expect(block).toContain(importLine);
    const body = (block ?? '').replace(importLine, '');
    const lines: unknown[][] = [];
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
    const run = new AsyncFunction('InMemoryMessageBus', 'InMemorySessionStore', 'busChannel', 'console', body);
    await run(sharedState.InMemoryMessageBus, sharedState.InMemorySessionStore, busChannel, { log: (...args: unknown[]) => lines.push(args) });
    expect(lines).toEqual([['for s1:', '{"jsonrpc":"2.0","method":"notifications/initialized"}'], ['instance-a']]);
  });
});
