/**
 * DPoP replay after a cache flood (issue 32, medium): a resource server must never forget the
 * `jti` of an unexpired proof (RFC 9449 §11.1). A full replay cache refuses new proofs instead
 * of evicting; and instances of a cluster share one replay set, so a proof used at one instance
 * is refused at every other (Redis `SET … NX PX`).
 */
import { startRedisServer, uniquePrefix, type TestRedis } from '@statemcp/testing';
import { createProtectedResource, jwtVerifier } from '@statemcp/http-transport/auth';
import { connectRedisStores, type RedisStores } from '@statemcp/redis-store';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ISSUER, createDpopKey, createIssuer, post, postInitialize, serveProtected, type TestIssuer } from '../src/serverauth-issuer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await createIssuer();
});

/** A DPoP-bound token for `resource` and a request carrying it with a fresh proof. */
async function boundClient(resource: string): Promise<{ token: string; request: (iatMs?: number) => Promise<Record<string, string>> }> {
  const key = await createDpopKey();
  const token = await issuer.token({ aud: resource, cnf: { jkt: key.thumbprint } });
  return {
    token,
    request: async (iatMs) => ({
      authorization: `DPoP ${token}`,
      dpop: await key.proof({ htm: 'POST', htu: resource, token, ...(iatMs === undefined ? {} : { iat: Math.floor(iatMs / 1000) }) }),
    }),
  };
}

describe('DPoP replay cache', () => {
  it('refuses a captured proof replayed after the attacker filled the cache with proofs of their own', async () => {
    const server = await serveProtected((url) =>
      createProtectedResource({
        resource: url,
        authorizationServers: [ISSUER],
        verifier: jwtVerifier({ issuer: ISSUER, jwks: issuer.jwks, audience: url }),
        dpop: { required: true, maxRememberedProofs: 4 },
      }),
    );
    cleanups.push(server.close);
    const victim = await boundClient(server.url);
    const captured = await victim.request();
    expect((await postInitialize(server.url, captured)).status).toBe(200);

    const attacker = await boundClient(server.url);
    const flood: number[] = [];
    for (let i = 0; i < 8; i++) flood.push((await postInitialize(server.url, await attacker.request())).status);
    const replay = await postInitialize(server.url, captured);
    expect(replay.status, 'the replayed proof must be refused').not.toBe(200);
    expect([401, 503]).toContain(replay.status);
    // The cache holds the victim's proof and three of the attacker's; the rest are refused, not evicting.
    expect(flood.slice(0, 3)).toEqual([200, 200, 200]);
    for (const status of flood.slice(3)) expect(status).toBe(503);
  });

  it('answers a full cache with 503 and a Retry-After, and accepts fresh proofs again once entries expire', async () => {
    let now = Math.floor(Date.now() / 1000) * 1000;
    const server = await serveProtected((url) =>
      createProtectedResource({
        resource: url,
        authorizationServers: [ISSUER],
        verifier: jwtVerifier({ issuer: ISSUER, jwks: issuer.jwks, audience: url }),
        dpop: { required: true, maxRememberedProofs: 1, maxProofAgeSeconds: 60, clockToleranceSeconds: 0 },
        now: () => now,
      }),
    );
    cleanups.push(server.close);
    const client = await boundClient(server.url);
    expect((await postInitialize(server.url, await client.request(now))).status).toBe(200);
    const full = await postInitialize(server.url, await client.request(now));
    expect(full.status).toBe(503);
    expect(Number(full.retryAfter)).toBeGreaterThan(0);
    expect(Number(full.retryAfter)).toBeLessThanOrEqual(61);
    expect(JSON.parse(full.body)).toMatchObject({ error: 'temporarily_unavailable' });
    now += 62_000;
    expect((await postInitialize(server.url, await client.request(now))).status).toBe(200);
  });
});

describe('DPoP replay across a cluster (one real Redis)', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('refuses at instance B a proof already used at instance A', async () => {
    const prefix = uniquePrefix();
    const stores: RedisStores[] = [];
    for (let i = 0; i < 2; i++) {
      const store = await connectRedisStores({ url: redis.url, keyPrefix: prefix });
      stores.push(store);
      cleanups.push(() => store.close());
    }
    // Both instances serve the same public resource URL (behind one load balancer); here it is A's.
    let resource = '';
    const instances = [];
    for (const store of stores) {
      const server = await serveProtected((url) => {
        resource ||= url;
        return createProtectedResource({
          resource,
          authorizationServers: [ISSUER],
          verifier: jwtVerifier({ issuer: ISSUER, jwks: issuer.jwks, audience: resource }),
          dpop: { required: true, replayStore: store.dpopReplay },
        });
      });
      cleanups.push(server.close);
      instances.push(server);
    }
    const [a, b] = instances as [(typeof instances)[number], (typeof instances)[number]];
    const client = await boundClient(resource);
    const proof = await client.request();
    expect((await postInitialize(a.url, proof)).status).toBe(200);
    const atB = await postInitialize(b.url, proof);
    expect(atB.status).toBe(401);
    expect(atB.challenge).toContain('error="invalid_dpop_proof"');
    expect(atB.challenge).toContain('replayed');
    // A fresh proof of the same client is still accepted at B.
    expect((await postInitialize(b.url, await client.request())).status).toBe(200);
    // The replay key lives under the stores' prefix and expires on its own.
    const keys = await stores[0]?.connection.client.keys(`${prefix}dpop:*`);
    expect(keys?.length).toBeGreaterThanOrEqual(2);
    const ttl = await stores[0]?.connection.client.pTTL(keys?.[0] ?? '');
    expect(ttl).toBeGreaterThan(0);
  });

  it('serves a session of a protected cluster through either instance: a request relayed to the owner is not a replay', async () => {
    const prefix = uniquePrefix();
    let resource = '';
    const instances = [];
    for (const id of ['a', 'b']) {
      const store = await connectRedisStores({ url: redis.url, keyPrefix: prefix });
      cleanups.push(() => store.close());
      const server = await serveProtected(
        (url) => {
          resource ||= url;
          return createProtectedResource({
            resource,
            authorizationServers: [ISSUER],
            verifier: jwtVerifier({ issuer: ISSUER, jwks: issuer.jwks, audience: resource }),
            dpop: { required: true, replayStore: store.dpopReplay },
          });
        },
        { cluster: { instanceId: id, sessions: store.sessions, bus: store.bus } },
      );
      cleanups.push(server.close);
      instances.push(server);
    }
    const [a, b] = instances as [(typeof instances)[number], (typeof instances)[number]];
    const client = await boundClient(resource);
    const opened = await postInitialize(a.url, await client.request());
    expect(opened.status).toBe(200);
    const session = { 'mcp-session-id': opened.sessionId ?? '', 'mcp-protocol-version': '2025-11-25' };
    expect((await post(b.url, { ...(await client.request()), ...session }, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    const proof = await client.request();
    const listed = await post(b.url, { ...proof, ...session }, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(listed.status).toBe(200);
    expect(listed.body).toContain('whoami');
    // The proof B relayed to A is spent for the whole cluster.
    const replayed = await post(a.url, { ...proof, ...session }, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(replayed.status).toBe(401);
    expect(replayed.challenge).toContain('replayed');
  });
});
