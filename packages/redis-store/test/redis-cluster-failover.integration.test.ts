/**
 * A clustered MCP server on a Redis Cluster whose masters fail over mid-run (issue 40, item 4):
 * instances are child processes (`fixtures/failover-instance.ts`) over a Redis Cluster of three
 * masters with one replica each (`startRedisCluster`); the client is `@statemcp/client` over
 * Streamable HTTP (legacy era) behind {@link InstanceRouter}.
 *
 * While a tool streams progress notifications from instance a, and requests arriving at
 * instance b are relayed to a over the bus, every master in turn hands over to its replica
 * (`CLUSTER FAILOVER`, the operator's lossless kind). The client receives every notification
 * once and in order and the event store holds every one of them. No relayed request is answered
 * by b: the session is never adopted while its owner lives (a bus message caught in a
 * subscription's move to the promoted master may be lost — the bus delivers at most once — and
 * that call times out instead), and after the failovers a relayed request reaches a again.
 *
 * Then the abrupt kind: a master is SIGKILLed. Store calls for its slots fail with the typed
 * `SharedStoreUnavailableError` (never anything else) until its replica is promoted, then
 * succeed, on the record written (and replicated) before the kill, and the bus delivers again.
 */
import { DisconnectsClientError } from '@redis/client';
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { SharedStoreUnavailableError, type StoredEvent } from '@statemcp/http-transport/server';
import { startRedisCluster, type TestRedisCluster } from '@statemcp/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClusterClient } from '../src/redis-connection.js';
import { connectRedisStores } from '../src/redis-stores.js';
import { uniquePrefix } from '../src/test-redis-server.js';
import { InstanceRouter, startInstance, type Instance } from './cluster-instances.js';

let redis: TestRedisCluster;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  redis = await startRedisCluster();
});
afterAll(async () => {
  await redis.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function instances(prefix: string, ids: string[]): Promise<Instance[]> {
  const started = await Promise.all(ids.map((id) => startInstance(`cluster:${redis.urls.join(',')}`, prefix, id)));
  cleanups.push(async () => {
    await Promise.all(started.map((instance) => instance.kill()));
  });
  return started;
}

function firstText(result: { content: unknown[] }): string | undefined {
  const first = result.content[0] as { type?: string; text?: string } | undefined;
  return first?.type === 'text' ? first.text : undefined;
}

/**
 * Resolves once `check` holds, looking every 20 ms; fails naming `what` after 20 s (each wait takes
 * well under a second when all goes well), so a stall says where it happened.
 */
async function until(what: () => string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The progress values every stored SSE stream of `prefix` holds, stream by stream, read from every master. */
async function storedProgress(prefix: string): Promise<number[][]> {
  const stores = await connectRedisStores({ cluster: redis.urls, keyPrefix: prefix });
  try {
    const cluster = stores.connection.client as RedisClusterClient;
    const streams: number[][] = [];
    for (const master of cluster.masters) {
      const node = await cluster.nodeClient(master);
      // A session's SSE streams share one Redis Stream, each entry naming its stream (field s).
      for (const key of await node.keys(`${prefix}events:*`)) {
        const byStream = new Map<string, number[]>();
        for (const entry of (await cluster.xRange(key, '-', '+')) ?? []) {
          const data = entry.message['m'] ?? '';
          if (!data.includes('"notifications/progress"')) continue;
          const member = entry.message['s'] ?? '';
          const values = byStream.get(member) ?? [];
          values.push((JSON.parse(data) as { params: { progress: number } }).params.progress);
          byStream.set(member, values);
        }
        streams.push(...byStream.values());
      }
    }
    return streams;
  } finally {
    await stores.close();
  }
}

describe('a cluster of instance processes over a Redis Cluster', () => {
  it('streams through a failover of every master: no event lost or repeated, the relay still reaches the owner', async () => {
    const prefix = uniquePrefix();
    const [a, b] = await instances(prefix, ['a', 'b']);
    if (a === undefined || b === undefined) throw new Error('two instances');
    const router = new InstanceRouter([a, b]);
    const transport = new StreamableHttpClientTransport(a.url, { fetch: router.fetch });
    const client = new Client({ name: 'redis-cluster-failover', version: '1.0.0' }, { era: 'legacy', protocolVersion: '2025-11-25', defaultTimeoutMs: 30_000 });
    await client.connect(transport);
    cleanups.push(() => client.close().catch(() => undefined));

    const progress: number[] = [];
    const stop = new AbortController();
    const call = client.callTool({ name: 'stream', arguments: {} }, { signal: stop.signal, onProgress: (update) => void progress.push(update.progress) }).catch(() => undefined);
    await until(() => `5 progress notifications (${progress.length} so far)`, () => progress.length >= 5);
    // From now on requests land on b, which relays them to a over the bus, one after the other throughout the failovers.
    router.target = 1;
    const answeredBy: (string | undefined)[] = [];
    let failingOver = true;
    const relayed = (async () => {
      while (failingOver) {
        const answer = await client.callTool({ name: 'whoami', arguments: {} }, { timeoutMs: 3000 }).then(firstText, () => 'lost');
        answeredBy.push(answer);
      }
    })();
    const failedOver: number[] = [];
    for (const master of (await redis.roles()).filter((node) => node.role === 'master')) {
      failedOver.push((await redis.failover({ masterPort: master.port })).promoted);
    }
    failingOver = false;
    await relayed;
    expect(failedOver).toHaveLength(3);
    expect(answeredBy.length).toBeGreaterThan(0);
    // An adoption means b found a dead: say whether a died (its stderr) or only missed its beats.
    const aState = () => `a exited: ${String(a.child.exitCode ?? a.child.signalCode)}; a reported: ${a.stderr.join('').slice(-2000)}`;
    expect(answeredBy.filter((answer) => answer !== 'a' && answer !== 'lost'), aState()).toEqual([]);
    const after = progress.length;
    await until(() => `5 progress notifications after the failovers (${progress.length - after} so far, ${after} before; ${aState()})`, () => progress.length >= after + 5);
    stop.abort();
    await call;

    // Every notification once and in order, before, during and after the failovers.
    expect(progress).toEqual(progress.map((_value, index) => index + 1));
    // The event store lost none either: the call's stream holds 1, 2, 3, … up to at least what the client saw.
    const streams = await storedProgress(prefix);
    expect(streams).toHaveLength(1);
    const stored = streams[0] ?? [];
    expect(stored).toEqual(stored.map((_value, index) => index + 1));
    expect(stored.length).toBeGreaterThanOrEqual(progress.length);
    // Still relayed to a, the owner: a's sharded subscriptions followed the promotions (no adoption).
    expect(firstText(await client.callTool({ name: 'whoami', arguments: {} }, { timeoutMs: 10_000 }))).toBe('a');
    expect(router.log.at(-1)).toBe('POST b');
  });

  it('fails calls for a killed master\'s slots with a typed error until its replica is promoted, then serves them again', async () => {
    const stores = await connectRedisStores({ cluster: redis.urls, keyPrefix: uniquePrefix(), maxReconnectDelayMs: 100 });
    cleanups.push(() => stores.close());
    const record = { sessionId: 's1', protocolVersion: '2025-11-25', clientCapabilities: {}, principal: undefined, owner: 'a', expiresAt: 0 };
    await stores.sessions.put(record, 60_000);
    const received: string[] = [];
    await stores.bus.subscribe('session:s1', (payload) => void received.push(payload));
    // Replicated before the kill (replication is asynchronous: WAIT for the replica's acknowledgement).
    const key = stores.connection.key('session', 's1');
    const cluster = stores.connection.client as RedisClusterClient;
    await (await cluster.getNodeClientForKey(key)).sendCommand(['WAIT', '1', '5000']);

    const killed = redis.killMaster(key);
    const errors: unknown[] = [];
    let served: Awaited<ReturnType<typeof stores.sessions.get>>;
    let promoted = false;
    void killed.then(() => (promoted = true));
    for (;;) {
      try {
        served = await stores.sessions.get('s1');
        if (promoted) break;
      } catch (error) {
        errors.push(error);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(served).toMatchObject({ sessionId: 's1', owner: 'a' });
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error).toBeInstanceOf(SharedStoreUnavailableError);
    // The channel's subscription moved to the promoted master: a publish reaches it again.
    for (let reached: number | undefined = 0; reached !== 1; await new Promise((resolve) => setTimeout(resolve, 50))) {
      reached = await stores.bus.publish('session:s1', 'after').catch(() => 0);
    }
    await until(() => `the publish after the promotion (received: ${received.join(', ')})`, () => received.includes('after'));
  });
});

describe('the event store on a Redis Cluster', () => {
  it('sends an event batch whose answer a slot-map refresh cut once more, and stores it once whether or not the first send ran', async () => {
    const stores = await connectRedisStores({ cluster: redis.urls, keyPrefix: uniquePrefix() });
    cleanups.push(() => stores.close());
    const cluster = stores.connection.client as RedisClusterClient;
    // What the cluster client does to a command waiting on the connection a slot-map refresh
    // drops: it rejects with DisconnectsClientError, after the command ran or before.
    let cut: 'after' | 'before' | undefined;
    const cutting = <F extends (...args: never[]) => Promise<unknown>>(send: F): F =>
      (async (...args: Parameters<F>) => {
        const when = cut;
        cut = undefined;
        if (when === 'before') throw new DisconnectsClientError();
        const reply = await send(...args);
        if (when === 'after') throw new DisconnectsClientError();
        return reply;
      }) as F;
    cluster.evalSha = cutting(cluster.evalSha.bind(cluster));
    cluster.eval = cutting(cluster.eval.bind(cluster));
    const note = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: n } });
    const masters = async () => Promise.all(cluster.masters.map((master) => cluster.nodeClient(master)));

    const ids = [await stores.events.append('s1.1', note(1))];
    cut = 'after';
    ids.push(await stores.events.append('s1.1', note(2)));
    cut = 'before';
    ids.push(await stores.events.append('s1.1', note(3)));
    // A master that never saw the script (a promoted replica: scripts replicate by their effects) answers NOSCRIPT.
    for (const node of await masters()) await node.sendCommand(['SCRIPT', 'FLUSH']);
    cut = 'after';
    ids.push(await stores.events.append('s1.1', note(4)));
    expect(cut).toBeUndefined();

    const replayed: StoredEvent[] = [];
    await stores.events.replayAfter(ids[0] ?? '', (event) => void replayed.push(event));
    expect(replayed.map((event) => event.message)).toEqual([note(2), note(3), note(4)]);
    expect(replayed.map((event) => event.id)).toEqual(ids.slice(1));
  });
});
