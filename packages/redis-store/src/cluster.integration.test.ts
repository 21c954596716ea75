import { Session, type JsonObject } from '@statemcp/protocol';
import { createStreamableHttpServer, type ListeningServer } from '@statemcp/http-transport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisStores, type RedisStores } from './redis-stores.js';
import { testRedisUrl, uniquePrefix } from './test-redis-server.js';

let redis: { url: string; stop: () => Promise<void> };
beforeAll(async () => {
  redis = await testRedisUrl();
});
afterAll(async () => {
  await redis.stop();
});

const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

async function instance(instanceId: string, stores: RedisStores): Promise<ListeningServer> {
  const mcp = createStreamableHttpServer({
    eventStore: stores.events,
    enableJsonResponse: true,
    cluster: { instanceId, sessions: stores.sessions, bus: stores.bus },
    connect: async (transport) => {
      const session = new Session({
        role: 'server',
        capabilities: () => ({ tools: {} }),
        onInitialize: (_params, version) => ({ protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: instanceId, version: '1.0.0' } }),
      });
      session.setRequestHandler('tools/list', () => ({ tools: [{ name: `served-by-${instanceId}`, inputSchema: { type: 'object' } }] }));
      await session.connect(transport);
    },
  });
  return mcp.listen();
}

describe('two instances over one Redis', () => {
  it('serves a session opened on A from B over real sockets, and a DELETE on B ends it everywhere', async () => {
    const prefix = uniquePrefix();
    const storesA = await connectRedisStores({ url: redis.url, keyPrefix: prefix });
    const storesB = await connectRedisStores({ url: redis.url, keyPrefix: prefix });
    const a = await instance('a', storesA);
    const b = await instance('b', storesB);
    try {
      const init = await fetch(a.url, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      });
      expect(init.status).toBe(200);
      const sessionId = init.headers.get('mcp-session-id') ?? '';
      const session = { ...HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
      expect((await storesB.sessions.get(sessionId))?.owner).toBe('a');
      const initialized = await fetch(b.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
      expect(initialized.status).toBe(202);
      const listed = await fetch(b.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
      expect(listed.status).toBe(200);
      const body = (await listed.json()) as { result: { tools: JsonObject[] } };
      expect(body.result.tools.map((tool) => tool['name'])).toEqual(['served-by-a']);
      const deleted = await fetch(b.url, { method: 'DELETE', headers: session });
      expect(deleted.status).toBe(200);
      expect(await storesA.sessions.get(sessionId)).toBeUndefined();
      const after = await fetch(a.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
      expect(after.status).toBe(404);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await Promise.all([storesA.close(), storesB.close()]);
    }
  });
});
