/**
 * The Worker front and the object's server on in-memory stand-ins of the runtime (no workerd):
 * routing by `Mcp-Session-Id`, a session rebuilt after its object's eviction, the shard of the
 * stateless requests, refusals that wake no object, and the alarm that removes abandoned sessions.
 * `durable-object.integration.test.ts` runs the same pieces under workerd.
 */
import { Client } from '@statemcp/client';
import { SimulatedClock } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { StreamableHttpClientTransport } from '../client/streamable-http.js';
import { createDurableObjectServer, durableObjectStores } from './durable-object-server.js';
import { MemoryDurableObjectNamespace, MemoryDurableObjectStorage } from './test-storage.js';
import type { DurableObjectStateLike } from './durable-object-types.js';
import { createWorkerFront, DEFAULT_SHARD, type WorkerFrontOptions } from './worker-front.js';

const URL_OF_WORKER = new URL('http://localhost/mcp');

function objectServer(state: DurableObjectStateLike) {
  const server = new McpServer({ name: 'front-test', version: '1.0.0' });
  server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  return createDurableObjectServer(state, { path: '/mcp', connect: (transport) => server.connect(transport) });
}

function setUp(options: Partial<WorkerFrontOptions<MemoryDurableObjectNamespace>> = {}) {
  const namespace = new MemoryDurableObjectNamespace(objectServer);
  const front = createWorkerFront<MemoryDurableObjectNamespace>({ namespace: (env) => env, ...options });
  const fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => front.fetch(new Request(input, init), namespace);
  return { namespace, front, fetch };
}

const textOf = (result: { content: unknown }): string | undefined => (result.content as { text?: string }[])[0]?.text;

function post(fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>, body: string, sessionId?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  return fetch(URL_OF_WORKER, { method: 'POST', headers, body });
}

describe('createWorkerFront', () => {
  describe('#fetch', () => {
    it('sends an initialize to a new object and the session’s requests to that object', async () => {
      const { namespace, fetch } = setUp();
      const client = new Client({ name: 'front-test', version: '1.0.0' }, { era: 'legacy' });
      const transport = new StreamableHttpClientTransport(URL_OF_WORKER, { fetch, standaloneStream: false });
      await client.connect(transport);
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } }))).toBe('42');
      const sessionId = transport.sessionId ?? '';
      const objectId = sessionId.split('.')[0] ?? '';
      expect(sessionId).toMatch(/^[0-9a-f]{64}\.[0-9a-f-]{36}$/);
      expect([...namespace.storages.keys()]).toEqual([objectId]);
      expect(namespace.storages.get(objectId)?.entries.has(`session:${sessionId}`)).toBe(true);
      await client.close();
      // The record goes once the session has ended (after the DELETE was answered).
      await vi.waitFor(() => expect(namespace.storages.get(objectId)?.entries.has(`session:${sessionId}`)).toBe(false));
    });

    it('rebuilds a session from its record after its object was evicted', async () => {
      const { namespace, fetch } = setUp();
      const client = new Client({ name: 'front-test', version: '1.0.0' }, { era: 'legacy' });
      const transport = new StreamableHttpClientTransport(URL_OF_WORKER, { fetch, standaloneStream: false });
      await client.connect(transport);
      const sessionId = transport.sessionId;
      namespace.evictAll();
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
      expect(transport.sessionId).toBe(sessionId);
      expect(namespace.built).toBe(2);
      await client.close();
    });

    it('serves stateless (2026-07-28) requests from the shard object shardOf names', async () => {
      const { namespace, fetch } = setUp({ shardOf: (request) => `tenant:${request.headers.get('x-tenant') ?? 'none'}` });
      const client = new Client({ name: 'front-test', version: '1.0.0' }, { era: 'modern' });
      await client.connect(new StreamableHttpClientTransport(URL_OF_WORKER, { fetch, headers: { 'x-tenant': 'a' } }));
      expect(textOf(await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } }))).toBe('42');
      expect([...namespace.storages.keys()]).toEqual([namespace.idFromName('tenant:a').toString()]);
      await client.close();
    });

    it('uses one shard by default', async () => {
      const { namespace, fetch } = setUp();
      const client = new Client({ name: 'front-test', version: '1.0.0' }, { era: 'modern' });
      await client.connect(new StreamableHttpClientTransport(URL_OF_WORKER, { fetch }));
      await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
      expect([...namespace.storages.keys()]).toEqual([namespace.idFromName(DEFAULT_SHARD).toString()]);
      await client.close();
    });

    it('answers 404 for a session id that names no object, waking none', async () => {
      const { namespace, fetch } = setUp();
      const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
      for (const sessionId of ['no-dot', `${'z'.repeat(64)}.x`, '.leading-dot']) {
        const answer = await post(fetch, ping, sessionId);
        expect(answer.status).toBe(404);
        expect(await answer.json()).toMatchObject({ error: { code: -32001 } });
      }
      expect(namespace.built).toBe(0);
    });

    it('answers 404 for an unknown session of a real object', async () => {
      const { namespace, fetch } = setUp();
      const objectId = namespace.newUniqueId().toString();
      const answer = await post(fetch, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), `${objectId}.guessed`);
      expect(answer.status).toBe(404);
    });

    it('refuses a body over maxBodyBytes with 413 before any object sees it', async () => {
      const { namespace, fetch } = setUp({ maxBodyBytes: 64 });
      const answer = await post(fetch, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { padding: 'x'.repeat(100) } }));
      expect(answer.status).toBe(413);
      expect(namespace.built).toBe(0);
    });
  });
});

describe('createDurableObjectServer', () => {
  describe('#alarm', () => {
    const initialize = (mcp: ReturnType<typeof createDurableObjectServer>): Promise<Response> =>
      mcp.fetch(
        new Request(URL_OF_WORKER, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
        }),
      );
    const make = (storage: MemoryDurableObjectStorage, now: () => number) => {
      const server = new McpServer({ name: 'alarm-test', version: '1.0.0' });
      const state = { id: { toString: () => 'a'.repeat(64) }, storage };
      // The simulated clock never moves: the session manager's own idle sweep stays out of the way.
      const clock = new SimulatedClock();
      return createDurableObjectServer(state, { now, clock, stores: durableObjectStores(storage, { now }), sessionIdleTimeoutMs: 1_000, connect: (transport) => server.connect(transport) });
    };

    it('deletes the storage of a session that expired while nobody came back', async () => {
      let now = 10_000;
      const storage = new MemoryDurableObjectStorage();
      const first = make(storage, () => now);
      expect((await initialize(first)).status).toBe(200);
      expect(storage.alarm).toBe(11_000);

      // Evicted: a new instance over the same storage, with nothing running.
      const evicted = make(storage, () => now);
      now = 10_500;
      await evicted.alarm();
      expect(storage.entries.size).toBeGreaterThan(0);
      expect(storage.alarm).toBe(11_000);
      now = 11_000;
      await evicted.alarm();
      expect(storage.entries.size).toBe(0);
    });

    it('keeps the record of a session still running in the object, with a new expiry', async () => {
      let now = 10_000;
      const storage = new MemoryDurableObjectStorage();
      const mcp = make(storage, () => now);
      const opened = await initialize(mcp);
      const sessionId = opened.headers.get('mcp-session-id') ?? '';
      now = 12_000;
      await mcp.alarm();
      expect(storage.entries.get(`session:${sessionId}`)).toMatchObject({ sessionId, expiresAt: 13_000 });
      expect(storage.alarm).toBe(13_000);
      await mcp.server?.close();
    });
  });
});
