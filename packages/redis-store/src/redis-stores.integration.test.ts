/**
 * The stores against a real Redis, twice: one `redis-server`, and a Redis Cluster of three
 * masters with a replica each (`startRedisCluster`), where every transaction and script must keep
 * to one slot (Redis refuses it with CROSSSLOT otherwise) and the bus runs on sharded pub/sub.
 */
import type { JsonRpcMessage } from '@statemcp/protocol';
import { SharedStoreUnavailableError, busChannel, type StoredEvent } from '@statemcp/http-transport/server';
import type { StoredTask } from '@statemcp/server';
import { startRedisCluster } from '@statemcp/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClusterClient, RedisConnectionOptions } from './redis-connection.js';
import { connectRedisStores, type RedisStores } from './redis-stores.js';
import { testRedisUrl, uniquePrefix } from './test-redis-server.js';

/** Where the stores connect, and how to stop it. */
interface Target {
  readonly options: Pick<RedisConnectionOptions, 'url' | 'cluster'>;
  stop(): Promise<void>;
}

const topologies: { name: string; start: () => Promise<Target> }[] = [
  {
    name: 'one Redis',
    start: async () => {
      const redis = await testRedisUrl();
      return { options: { url: redis.url }, stop: redis.stop };
    },
  },
  {
    name: 'a Redis Cluster (3 masters, 1 replica each)',
    start: async () => {
      const cluster = await startRedisCluster();
      return { options: { cluster: cluster.urls }, stop: cluster.stop };
    },
  },
];

const open: RedisStores[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((stores) => stores.close()));
});

const note = (n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: n } });

async function collect(store: RedisStores['events'], lastEventId: string): Promise<{ events: StoredEvent[]; result: Awaited<ReturnType<RedisStores['events']['replayAfter']>> }> {
  const events: StoredEvent[] = [];
  const result = await store.replayAfter(lastEventId, (event) => {
    events.push(event);
  });
  return { events, result };
}

describe.each(topologies)('on $name', ({ start }) => {
  let target: Target;
  beforeAll(async () => {
    target = await start();
  });
  afterAll(async () => {
    await target.stop();
  });

  async function stores(keyPrefix: string, extra: { maxEventsPerStream?: number; maxEventsPerSession?: number } = {}): Promise<RedisStores> {
    const created = await connectRedisStores({ ...target.options, keyPrefix, ...extra });
    open.push(created);
    return created;
  }

  describe('RedisSessionStore', () => {
    it('shares a record between instances, refreshes its TTL on touch and deletes it for all', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const b = await stores(prefix);
      await a.sessions.put(
        { sessionId: 's1', protocolVersion: '2025-11-25', clientCapabilities: { sampling: {} }, principal: 'alice', owner: 'a', expiresAt: 0 },
        60_000,
      );
      const seen = await b.sessions.get('s1');
      expect(seen).toMatchObject({ sessionId: 's1', protocolVersion: '2025-11-25', clientCapabilities: { sampling: {} }, principal: 'alice', owner: 'a' });
      expect(seen?.expiresAt).toBeGreaterThan(Date.now() + 50_000);
      expect(await b.sessions.touch('s1', 120_000)).toBe(true);
      expect((await a.sessions.get('s1'))?.expiresAt).toBeGreaterThan(Date.now() + 110_000);
      expect(await b.sessions.delete('s1')).toBe(true);
      expect(await a.sessions.get('s1')).toBeUndefined();
      expect(await a.sessions.touch('s1', 1000)).toBe(false);
      expect(await a.sessions.delete('s1')).toBe(false);
    });

    it('lets Redis expire a record for every instance', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      await a.sessions.put({ sessionId: 's2', protocolVersion: undefined, clientCapabilities: undefined, principal: undefined, owner: 'a', expiresAt: 0 }, 1);
      // Redis expires keys on access once their time has passed; 1 ms is over by the next round trip.
      await a.sessions.get('unrelated');
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await a.sessions.get('s2')).toBeUndefined();
    });
  });

  describe('RedisSessionStore (failover)', () => {
    it('lets exactly one of several instances claim a dead owner\'s session, keeping the rest of the record', async () => {
      const prefix = uniquePrefix();
      const [a, b, c] = await Promise.all([stores(prefix), stores(prefix), stores(prefix)]);
      const record = { sessionId: 's1', protocolVersion: '2025-11-25', clientCapabilities: { roots: {} }, principal: 'alice', clientInfo: { name: 'c', version: '1' }, owner: 'dead', expiresAt: 0 };
      await a.sessions.put(record, 60_000);
      const claims = await Promise.all([a, b, c].map((stores, index) => stores.sessions.claim('s1', 'dead', `adopter-${index}`, 60_000)));
      const winners = claims.filter((claim) => claim !== undefined);
      expect(winners).toHaveLength(1);
      expect(winners[0]).toMatchObject({ protocolVersion: '2025-11-25', clientCapabilities: { roots: {} }, principal: 'alice', clientInfo: { name: 'c', version: '1' } });
      expect((await b.sessions.get('s1'))?.owner).toBe(winners[0]?.owner);
      expect(await a.sessions.claim('gone', 'dead', 'x', 60_000)).toBeUndefined();
    });
  });

  describe('RedisLivenessStore', () => {
    it('keeps an instance alive until its beat expires, and says whether the previous beat was still there', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const b = await stores(prefix);
      expect(await b.liveness.isAlive('a')).toBe(false);
      expect(await a.liveness.beat('a', 150)).toBe(false);
      expect(await a.liveness.beat('a', 150)).toBe(true);
      expect(await b.liveness.isAlive('a')).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await b.liveness.isAlive('a')).toBe(false);
      await a.liveness.beat('a', 60_000);
      await a.liveness.forget('a');
      expect(await b.liveness.isAlive('a')).toBe(false);
    });
  });

  describe('RedisEventStore', () => {
    it('replays on one instance what another appended, after the given id, without priming events', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const b = await stores(prefix);
      const priming = await a.events.append('k.1', undefined);
      const first = await a.events.append('k.1', note(1));
      await a.events.append('k.2', note(99));
      const second = await a.events.append('k.1', note(2));
      expect(b.events.streamIdOf(first)).toBe('k.1');
      const all = await collect(b.events, priming);
      expect(all.result).toEqual({ streamId: 'k.1', truncated: false });
      expect(all.events).toEqual([
        { id: first, message: note(1) },
        { id: second, message: note(2) },
      ]);
      const rest = await collect(b.events, first);
      expect(rest.events.map((event) => event.id)).toEqual([second]);
    });

    it('replays the events of two streams of one session separately, from one log', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const b = await stores(prefix);
      const one = [await a.events.append('k.1', undefined)];
      const two = [await a.events.append('k.2', undefined)];
      for (let n = 0; n < 3; n++) {
        one.push(await a.events.append('k.1', note(n)));
        two.push(await a.events.append('k.2', note(10 + n)));
      }
      // One Redis Stream for the session, none per SSE stream.
      expect(await a.connection.client.xLen(a.connection.key('events', 'k'))).toBe(8);
      expect(await a.connection.client.exists([a.connection.key('events', 'k.1'), a.connection.key('events', 'k.2')])).toBe(0);
      const first = await collect(b.events, one[0] ?? '');
      expect(first.result).toEqual({ streamId: 'k.1', truncated: false });
      expect(first.events).toEqual([0, 1, 2].map((n) => ({ id: one[n + 1], message: note(n) })));
      const second = await collect(b.events, two[1] ?? '');
      expect(second.result).toEqual({ streamId: 'k.2', truncated: false });
      expect(second.events).toEqual([1, 2].map((n) => ({ id: two[n + 1], message: note(10 + n) })));
      // An entry of k.2 named as if it were k.1's: forged.
      const entryOfTwo = (two[2] ?? '').split(';')[1] ?? '';
      expect(await b.events.replayAfter(`k.1;${entryOfTwo}`, () => undefined)).toBeUndefined();
    });

    it('replays at most maxEventsPerStream events of a stream and reports the gap', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix, { maxEventsPerStream: 3 });
      const ids: string[] = [];
      for (let n = 0; n < 6; n++) ids.push(await a.events.append('k.1', note(n)));
      const replay = await collect(a.events, ids[0] ?? '');
      expect(replay.result).toEqual({ streamId: 'k.1', truncated: true });
      expect(replay.events.map((event) => event.id)).toEqual(ids.slice(3));
      const whole = await collect(a.events, ids[2] ?? '');
      expect(whole.result).toEqual({ streamId: 'k.1', truncated: false });
      expect(whole.events.map((event) => event.id)).toEqual(ids.slice(3));
    });

    it('caps a session\'s log with MAXLEN and reports the gap of a trimmed cursor', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix, { maxEventsPerSession: 4 });
      const one = [await a.events.append('k.1', note(0))];
      const two: string[] = [];
      for (let n = 1; n < 4; n++) two.push(await a.events.append('k.2', note(n)));
      one.push(await a.events.append('k.1', note(4)), await a.events.append('k.1', note(5)));
      expect(await a.connection.client.xLen(a.connection.key('events', 'k'))).toBe(4);
      const replay = await collect(a.events, one[0] ?? '');
      expect(replay.result).toEqual({ streamId: 'k.1', truncated: true });
      expect(replay.events.map((event) => event.id)).toEqual(one.slice(1));
      // k.2 lost its first two events: a cursor before them is trimmed; the third is still there.
      expect((await collect(a.events, two[0] ?? '')).result).toEqual({ streamId: 'k.2', truncated: true });
      // Every event of a stream trimmed: the stream is gone, its cursor unknown.
      await a.events.append('k.3', note(6));
      await a.events.append('k.3', note(7));
      await a.events.append('k.3', note(8));
      await a.events.append('k.3', note(9));
      expect(await a.events.replayAfter(two[0] ?? '', () => undefined)).toBeUndefined();
    });

    it('replays a cursor of the previous layout (a Redis Stream per SSE stream), then what this version appended', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const b = await stores(prefix);
      // What an instance of the previous version wrote: events:{k.1}, field m, ids <stream>:<entry>.
      const client = a.connection.client;
      const oldKey = a.connection.key('events', 'k.1');
      const primed = await client.xAdd(oldKey, '*', { m: '' });
      const first = await client.xAdd(oldKey, '*', { m: JSON.stringify(note(1)) });
      await client.set(a.connection.key('requests', 'k.1'), JSON.stringify({ requestIds: [1, 2], instanceId: 'old' }));
      expect(b.events.streamIdOf(`k.1:${primed}`)).toBe('k.1');
      // The adopting instance ends request 2 on the stream (this version's layout).
      expect(await b.events.unansweredRequests('k.1')).toEqual({ requestIds: [1, 2], instanceId: 'old' });
      const answer: JsonRpcMessage = { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'lost' } };
      const ended = await b.events.append('k.1', answer);
      expect(await b.events.unansweredRequests('k.1')).toEqual({ requestIds: [1], instanceId: 'old' });
      const replay = await collect(b.events, `k.1:${primed}`);
      expect(replay.result).toEqual({ streamId: 'k.1', truncated: false });
      expect(replay.events).toEqual([
        { id: `k.1:${first}`, message: note(1) },
        { id: ended, message: answer },
      ]);
      expect((await collect(b.events, `k.1:${first}`)).events).toEqual([{ id: ended, message: answer }]);
      expect(await b.events.replayAfter('k.1:99999999999999-0', () => undefined)).toBeUndefined();
      expect(await b.events.replayAfter('gone.1:1-0', () => undefined)).toBeUndefined();
    });

    it('refuses forged, malformed and removed cursors', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const id = await a.events.append('k.1', note(1));
      expect(await a.events.replayAfter('k.1;99999999999999-0', () => undefined)).toBeUndefined();
      expect(await a.events.replayAfter('nonsense', () => undefined)).toBeUndefined();
      expect(a.events.streamIdOf('k.1;12')).toBeUndefined();
      // Removing one stream of a log keeps the others.
      const other = await a.events.append('k.2', note(2));
      const later = await a.events.append('k.2', note(3));
      await a.events.removeStream('k.1');
      expect(await a.events.replayAfter(id, () => undefined)).toBeUndefined();
      expect((await collect(a.events, other)).events).toEqual([{ id: later, message: note(3) }]);
      expect(await a.connection.client.sMembers(a.connection.key('streams', 'k'))).toEqual(['2']);
      await a.events.removeStream('k.2');
      expect(await a.connection.client.exists([a.connection.key('events', 'k'), a.connection.key('streams', 'k')])).toBe(0);
    });

    it('removes many streams at once, their requests records with them, after their pending appends', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const b = await stores(prefix);
      // More records than one UNLINK of the removal script takes, so it spans several.
      const streamIds = Array.from({ length: 1203 }, (_, n) => `s.${n}`);
      const firsts = await Promise.all(streamIds.map((streamId) => a.events.append(streamId, note(1))));
      await a.events.trackRequests('s.7', { requestIds: [1], instanceId: 'a' });
      await a.events.append('s.7', note(2));
      expect(await a.connection.client.exists(`${a.connection.key('requests', 's')}.7`)).toBe(1);
      // Appended in the same task as the removal: the removal waits for it, and takes it too.
      const late = a.events.append('s.1202', note(3));
      await a.events.removeStreams(streamIds);
      for (const id of [...firsts, await late]) expect(await b.events.replayAfter(id, () => undefined)).toBeUndefined();
      expect(await b.events.unansweredRequests('s.7')).toBeUndefined();
      expect(await a.connection.client.exists([a.connection.key('events', 's'), a.connection.key('streams', 's'), `${a.connection.key('requests', 's')}.7`])).toBe(0);
      // Streams that never existed, and no stream at all, are quietly nothing to do.
      await a.events.removeStreams(['never.1', 'never.2']);
      await a.events.removeStreams([]);
    });
    it('keeps a log and its requests records in one slot, so one script or transaction holds them all', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const sessionKey = '36.0b6c1d2e-aaaa-4bbb-8ccc-123456789abc.x7';
      await a.events.trackRequests(`${sessionKey}.3`, { requestIds: [1], instanceId: 'a' });
      await a.events.append(`${sessionKey}.3`, undefined);
      const log = a.connection.key('events', sessionKey);
      const record = `${a.connection.key('requests', sessionKey)}.3`;
      const streams = a.connection.key('streams', sessionKey);
      // A Redis Cluster refuses a transaction over two slots (CROSSSLOT).
      expect(await a.connection.client.multi().exists(record).xLen(log).sCard(streams).exec()).toEqual([1, 1, 1]);
      if (a.connection.topology === 'cluster') {
        const cluster = a.connection.client as RedisClusterClient;
        const master = cluster.masters[0];
        if (master === undefined) throw new Error('a cluster without masters');
        const node = await cluster.nodeClient(master);
        const slots = await Promise.all([log, record, streams].map((key) => node.sendCommand(['CLUSTER', 'KEYSLOT', key])));
        expect(new Set(slots).size).toBe(1);
      }
    });
  });

  describe('RedisEventStore (failover)', () => {
    it('tracks the requests of a stream and lists those no stored response answers, for any instance', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const b = await stores(prefix);
      expect(await b.events.unansweredRequests('k.1')).toBeUndefined();
      await a.events.trackRequests('k.1', { requestIds: [1, 'two'], instanceId: 'a' });
      await a.events.append('k.1', note(1));
      await a.events.append('k.1', { jsonrpc: '2.0', id: 1, result: {} });
      expect(await b.events.unansweredRequests('k.1')).toEqual({ requestIds: ['two'], instanceId: 'a' });
      await b.events.removeStream('k.1');
      expect(await b.events.unansweredRequests('k.1')).toBeUndefined();
    });

    it('writes the record and the events of one task in one command, leaving out a record they answer whole', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const b = await stores(prefix);
      // Answered in the same task: no record, and nothing for an adopting instance to end.
      const [, primed, answered] = await Promise.all([
        a.events.trackRequests('k.1', { requestIds: [1], instanceId: 'a' }),
        a.events.append('k.1', undefined),
        a.events.append('k.1', { jsonrpc: '2.0', id: 1, result: {} }),
      ]);
      expect(await a.connection.client.exists(`${a.connection.key('requests', 'k')}.1`)).toBe(0);
      expect(await b.events.unansweredRequests('k.1')).toBeUndefined();
      const replayed: StoredEvent[] = [];
      await b.events.replayAfter(primed, (event) => void replayed.push(event));
      expect(replayed).toEqual([{ id: answered, message: { jsonrpc: '2.0', id: 1, result: {} } }]);
      // One of two answered in the task: the record is written with the events, and lists the other.
      await Promise.all([
        a.events.trackRequests('k.2', { requestIds: [1, 2], instanceId: 'a' }),
        a.events.append('k.2', undefined),
        a.events.append('k.2', { jsonrpc: '2.0', id: 2, result: {} }),
      ]);
      expect(await b.events.unansweredRequests('k.2')).toEqual({ requestIds: [1], instanceId: 'a' });
      // A removal called after an append of the same task does not overtake it.
      const appended = a.events.append('k.3', note(1));
      await a.events.removeStream('k.3');
      expect(await b.events.replayAfter(await appended, () => undefined)).toBeUndefined();
    });
  });

  describe('RedisMessageBus', () => {
    it('routes a message published on one instance to the subscriber of its channel on another', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const b = await stores(prefix);
      const received: string[] = [];
      const arrived = new Promise<void>((resolve) => {
        void b.bus
          .subscribe(busChannel.stream('s1', 'k.1'), (payload) => {
            received.push(payload);
            if (received.length === 2) resolve();
          })
          .then(async () => {
            expect(await a.bus.publish(busChannel.session('s1'), 'not for this stream')).toBe(0);
            expect(await a.bus.publish(busChannel.stream('s1', 'k.1'), 'one')).toBe(1);
            await a.bus.publish(busChannel.stream('s1', 'k.1'), 'two');
          });
      });
      await arrived;
      expect(received).toEqual(['one', 'two']);
    });

    it('unsubscribes a channel when its last local handler leaves', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const first = await a.bus.subscribe('c', () => undefined);
      const second = await a.bus.subscribe('c', () => undefined);
      await first();
      expect(await a.bus.publish('c', 'x')).toBe(1);
      await second();
      await second();
      expect(await a.bus.publish('c', 'x')).toBe(0);
    });
  });

  describe('RedisSubscriptionStore', () => {
    it('shares who follows what and drops a subscriber everywhere at once', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const b = await stores(prefix);
      await a.subscriptions.add('file:///a', 's1');
      await a.subscriptions.add('file:///b', 's1');
      await b.subscriptions.add('file:///a', 's2');
      expect((await b.subscriptions.subscribers('file:///a')).sort()).toEqual(['s1', 's2']);
      expect(await b.subscriptions.remove('file:///a', 's2')).toBe(true);
      expect(await b.subscriptions.remove('file:///a', 's2')).toBe(false);
      expect(await b.subscriptions.removeAll('s1')).toBe(2);
      expect(await a.subscriptions.subscribers('file:///a')).toEqual([]);
      expect(await a.subscriptions.subscribers('file:///b')).toEqual([]);
    });
  });

  describe('RedisTaskStore', () => {
    const task = (taskId: string, expiresAt: number | null, status: 'working' | 'cancelled' = 'working'): StoredTask => ({
      task: { taskId, status, createdAt: '2026-11-25T00:00:00Z', lastUpdatedAt: '2026-11-25T00:00:00Z', ttl: 60_000 } as unknown as StoredTask['task'],
      owner: 'alice',
      inputRequests: {},
      inputKeysIssued: 0,
      expiresAt,
    });

    it('creates on one instance what another reads, updates and deletes; put never revives a deleted task', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const b = await stores(prefix);
      await a.tasks.create(task('t1', Date.now() + 60_000));
      expect((await b.tasks.get('t1'))?.task.status).toBe('working');
      await b.tasks.put(task('t1', Date.now() + 60_000, 'cancelled'));
      expect((await a.tasks.get('t1'))?.task.status).toBe('cancelled');
      const ttl = await a.connection.client.pTTL(a.connection.key('task', 't1'));
      expect(ttl).toBeGreaterThan(50_000);
      await a.tasks.delete('t1');
      await b.tasks.put(task('t1', Date.now() + 60_000, 'cancelled'));
      expect(await a.tasks.get('t1')).toBeUndefined();
    });

    it('keeps a task without expiry and drops one whose expiry has passed', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      await a.tasks.create(task('forever', null));
      expect(await a.connection.client.pTTL(a.connection.key('task', 'forever'))).toBe(-1);
      await a.tasks.create(task('gone', Date.now() - 1));
      expect(await a.tasks.get('gone')).toBeUndefined();
    });
  });

  describe('RedisDpopReplayStore', () => {
    it('records a proof id once for every instance, under the prefix, with a time to live', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const b = await stores(prefix);
      expect(await a.dpopReplay.record('proof-1', 60_000)).toEqual({ kind: 'recorded' });
      expect(await b.dpopReplay.record('proof-1', 60_000)).toEqual({ kind: 'replayed' });
      expect(await a.connection.client.exists(`${prefix}dpop:{proof-1}`)).toBe(1);
      const ttl = await a.connection.client.pTTL(`${prefix}dpop:{proof-1}`);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
      // Another prefix is another replay set.
      const other = await stores(uniquePrefix());
      expect(await other.dpopReplay.record('proof-1', 60_000)).toEqual({ kind: 'recorded' });
    });

    it('lets exactly one of two concurrent uses of a proof through', async () => {
      const prefix = uniquePrefix();
      const a = await stores(prefix);
      const b = await stores(prefix);
      const outcomes = await Promise.all([a.dpopReplay.record('race', 60_000), b.dpopReplay.record('race', 60_000)]);
      expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['recorded', 'replayed']);
    });

    it('forgets a proof id once Redis expires it', async () => {
      const a = await stores(uniquePrefix());
      expect(await a.dpopReplay.record('short', 1)).toEqual({ kind: 'recorded' });
      // PX 1: poll until Redis has expired the key (event-driven on the key's state, bounded).
      for (let i = 0; i < 100 && (await a.connection.client.exists(a.connection.key('dpop', 'short'))) === 1; i++);
      expect(await a.dpopReplay.record('short', 60_000)).toEqual({ kind: 'recorded' });
    });

    it('rejects with SharedStoreUnavailableError once the connection is closed', async () => {
      const a = await stores(uniquePrefix());
      await a.close();
      await expect(a.dpopReplay.record('x', 1000)).rejects.toBeInstanceOf(SharedStoreUnavailableError);
    });
  });
});

describe('connectRedisStores', () => {
  it('rejects with SharedStoreUnavailableError when Redis is not there', async () => {
    const { createServer } = await import('node:net');
    const probe = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => probe.once('listening', resolve));
    const address = probe.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await expect(connectRedisStores({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 1000 })).rejects.toBeInstanceOf(SharedStoreUnavailableError);
  });

  it('refuses contradictory options and a key prefix that would pin a cluster to one slot', async () => {
    await expect(connectRedisStores({ url: 'redis://127.0.0.1:1', cluster: ['redis://127.0.0.1:2'] })).rejects.toBeInstanceOf(RangeError);
    await expect(connectRedisStores({ cluster: [] })).rejects.toBeInstanceOf(RangeError);
    await expect(connectRedisStores({ cluster: ['redis://127.0.0.1:2'], keyPrefix: '{app}:' })).rejects.toThrow(/hash tag/);
  });
});
