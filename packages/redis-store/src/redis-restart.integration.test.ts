import { once } from 'node:events';
import type { JsonRpcMessage } from '@statemcp/protocol';
import { SharedStoreUnavailableError, busChannel } from '@statemcp/http-transport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisStandaloneClient } from './redis-connection.js';
import { connectRedisStores, type RedisStores } from './redis-stores.js';
import { startRedisServer, uniquePrefix, type TestRedis } from './test-redis-server.js';

let redis: TestRedis;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.stop();
});

const ping: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } };

describe('Redis restart', () => {
  it('fails requests with a typed error while Redis is down, and serves later ones once it is back', async () => {
    const stores: RedisStores = await connectRedisStores({ url: redis.url, keyPrefix: uniquePrefix(), maxReconnectDelayMs: 100 });
    try {
      await stores.sessions.put({ sessionId: 's1', protocolVersion: '2025-11-25', clientCapabilities: {}, principal: undefined, owner: 'a', expiresAt: 0 }, 60_000);
      const before = await stores.events.append('k.1', ping);
      const delivered: string[] = [];
      await stores.bus.subscribe(busChannel.session('s1'), (payload) => delivered.push(payload));

      const down = once(stores.connection.client, 'error');
      await redis.kill();
      await down;

      const failures = await Promise.allSettled([
        stores.sessions.get('s1'),
        stores.events.append('k.1', ping),
        stores.bus.publish(busChannel.session('s1'), 'lost'),
        stores.tasks.get('t1'),
        stores.subscriptions.subscribers('file:///a'),
      ]);
      for (const failure of failures) {
        expect(failure.status).toBe('rejected');
        expect((failure as PromiseRejectedResult).reason).toBeInstanceOf(SharedStoreUnavailableError);
      }
      expect(((failures[1] as PromiseRejectedResult).reason as SharedStoreUnavailableError).store).toBe('events');

      // No persistence: the restarted Redis is empty, as after losing a cache node.
      // `events.once` would reject on the reconnection errors emitted meanwhile: listen for 'ready' alone.
      const readyAgain = (client: RedisStores['connection']['client']): Promise<void> => new Promise((resolve) => client.once('ready', () => resolve()));
      const commandsBack = readyAgain(stores.connection.client);
      const subscriberBack = readyAgain(stores.connection.subscriber);
      await redis.restart();
      await Promise.all([commandsBack, subscriberBack]);

      expect(await stores.sessions.get('s1')).toBeUndefined();
      const after = await stores.events.append('k.1', ping);
      expect(stores.events.streamIdOf(after)).toBe('k.1');
      // What the empty Redis lost is reported as a gap, never replayed wrong: only the new event follows.
      const replayed: string[] = [];
      expect(await stores.events.replayAfter(before, (event) => void replayed.push(event.id))).toEqual({ streamId: 'k.1', truncated: true });
      expect(replayed).toEqual([after]);
      // The subscription made before the outage was renewed on reconnection.
      const arrived = new Promise<void>((resolve) => {
        const check = setInterval(() => {
          void stores.bus.publish(busChannel.session('s1'), 'after').then(() => {
            if (delivered.length > 0) {
              clearInterval(check);
              resolve();
            }
          });
        }, 20);
      });
      await arrived;
      expect(delivered[0]).toBe('after');
    } finally {
      await stores.close();
    }
  });

  it('fails an operation Redis does not answer within commandTimeoutMs, and serves the next ones once it answers again', async () => {
    const stores: RedisStores = await connectRedisStores({ url: redis.url, keyPrefix: uniquePrefix(), commandTimeoutMs: 200 });
    try {
      // CLIENT PAUSE: Redis stays connected but leaves every client's commands unanswered for 3 s
      // (long beside the 200 ms bound, so a loaded machine's late sweep still fails the get first).
      const pauseMs = 3000;
      await (stores.connection.client as RedisStandaloneClient).sendCommand(['CLIENT', 'PAUSE', String(pauseMs), 'ALL']);
      const started = performance.now();
      const failure = await stores.sessions.get('s1').then(
        () => undefined,
        (error: unknown) => error,
      );
      const waited = performance.now() - started;
      expect(failure).toBeInstanceOf(SharedStoreUnavailableError);
      expect((failure as SharedStoreUnavailableError).message).toBe('Redis did not answer within 200 ms');
      expect((failure as SharedStoreUnavailableError).store).toBe('sessions');
      expect(waited).toBeGreaterThanOrEqual(190);
      expect(waited).toBeLessThan(pauseMs - 200);
      // The late answer is dropped; the commands after it get their own answers once the pause ends.
      await stores.sessions.put({ sessionId: 's1', protocolVersion: '2025-11-25', clientCapabilities: {}, principal: undefined, owner: 'a', expiresAt: 0 }, 60_000).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, started + pauseMs + 100 - performance.now()));
      await stores.sessions.put({ sessionId: 's2', protocolVersion: '2025-11-25', clientCapabilities: {}, principal: undefined, owner: 'b', expiresAt: 0 }, 60_000);
      expect((await stores.sessions.get('s2'))?.owner).toBe('b');
    } finally {
      await stores.close();
    }
  });
});
