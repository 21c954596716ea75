/**
 * Issue 32, MEDIUM 6: a session opened under a plain `authenticate` hook is bound to the
 * principal that opened it. Another user who learns the session id gets 404 — as if the session
 * did not exist (MCP 2025-11-25, Basic › Transports › Streamable HTTP › Session Management;
 * Security Best Practices › Session Hijacking: servers SHOULD bind session ids to user-specific
 * information) — on POST, on the GET stream, on a `Last-Event-ID` resumption and on DELETE,
 * directly and through another instance of a cluster sharing a real Redis.
 */
import { connectRedisStores, type RedisStores } from '@statemcp/redis-store';
import { testRedisUrl, uniquePrefix } from '@statemcp/testing';
import type { ListeningServer } from '@statemcp/http-transport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserClient, sseEvents, startServer } from '../src/session-binding-fixture.js';

async function statusOf(response: Promise<Response>): Promise<number> {
  const answer = await response;
  await answer.body?.cancel();
  return answer.status;
}

describe('session binding under a plain authenticate hook', () => {
  let server: ListeningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses another user on POST, GET, resumption and DELETE with 404, and the owner keeps working', async () => {
    const alice = new UserClient(server.url, 'alice');
    const bob = new UserClient(server.url, 'bob');
    const sessionId = await alice.openSession();
    const call = await alice.whoami(sessionId);
    expect(call.status).toBe(200);
    const { ids, data } = await sseEvents(call);
    expect(data.join('\n')).toContain('\\"user\\":\\"alice\\"');
    const primingId = ids[0];
    expect(primingId).toBeDefined();

    const post = await bob.whoami(sessionId, 2);
    expect(post.status).toBe(404);
    expect(await post.json()).toMatchObject({ error: { message: 'Session not found' } });
    expect(await statusOf(bob.get(sessionId))).toBe(404);
    expect(await statusOf(bob.get(sessionId, primingId))).toBe(404);
    expect(await statusOf(bob.delete(sessionId))).toBe(404);

    const again = await alice.whoami(sessionId, 3);
    expect(again.status).toBe(200);
    expect((await sseEvents(again)).data.join('\n')).toContain('\\"user\\":\\"alice\\"');
    const resumed = await alice.get(sessionId, primingId);
    expect(resumed.status).toBe(200);
    expect((await sseEvents(resumed)).data.join('\n')).toContain('\\"user\\":\\"alice\\"');
    expect(await statusOf(alice.get(sessionId))).toBe(200);
    expect(await statusOf(alice.delete(sessionId))).toBe(200);
    expect(await statusOf(alice.whoami(sessionId, 4))).toBe(404);
  });

  it('keeps the sessions of two users apart when both hold a session', async () => {
    const alice = new UserClient(server.url, 'alice');
    const bob = new UserClient(server.url, 'bob');
    const [aliceSession, bobSession] = await Promise.all([alice.openSession(), bob.openSession()]);
    expect(await statusOf(alice.whoami(bobSession))).toBe(404);
    expect(await statusOf(bob.whoami(aliceSession))).toBe(404);
    expect(await statusOf(alice.whoami(aliceSession))).toBe(200);
    expect(await statusOf(bob.whoami(bobSession))).toBe(200);
  });
});

describe('session binding across two instances sharing a real Redis', () => {
  let redis: { url: string; stop: () => Promise<void> };
  beforeAll(async () => {
    redis = await testRedisUrl();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('refuses another user on the owner and on a relaying instance, and serves the owner through either', async () => {
    const prefix = uniquePrefix();
    const stores: RedisStores[] = [await connectRedisStores({ url: redis.url, keyPrefix: prefix }), await connectRedisStores({ url: redis.url, keyPrefix: prefix })];
    const [storesA, storesB] = stores as [RedisStores, RedisStores];
    const a = await startServer({ eventStore: storesA.events, cluster: { instanceId: 'a', sessions: storesA.sessions, bus: storesA.bus } }, 'a');
    const b = await startServer({ eventStore: storesB.events, cluster: { instanceId: 'b', sessions: storesB.sessions, bus: storesB.bus } }, 'b');
    try {
      const sessionId = await new UserClient(a.url, 'alice').openSession();
      const record = await storesB.sessions.get(sessionId);
      expect(record?.owner).toBe('a');
      expect(record?.principal).toEqual(expect.any(String));
      // The record names the principal without holding the auth info in the clear.
      expect(record?.principal).not.toContain('alice');

      for (const server of [a, b]) {
        const bob = new UserClient(server.url, 'bob');
        expect(await statusOf(bob.whoami(sessionId, 2))).toBe(404);
        expect(await statusOf(bob.get(sessionId))).toBe(404);
        expect(await statusOf(bob.delete(sessionId))).toBe(404);
      }

      const aliceOnB = new UserClient(b.url, 'alice');
      const relayed = await aliceOnB.whoami(sessionId, 3);
      expect(relayed.status).toBe(200);
      expect((await sseEvents(relayed)).data.join('\n')).toContain('\\"user\\":\\"alice\\"');
      expect(await statusOf(aliceOnB.delete(sessionId))).toBe(200);
      expect(await storesA.sessions.get(sessionId)).toBeUndefined();
    } finally {
      await Promise.all([a.close(), b.close()]);
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
