/** The client's response cache against a scripted 2026-07-28 server: TTL, scope, pages, invalidation, input rounds. */
import { SimulatedClock, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { flush } from '../test/peer.js';
import { createScriptedServer } from '../test/scripted-server.js';
import { Client } from './client.js';
import type { ClientOptions } from './options.js';
import type { ResponseCacheEvent } from './response-cache.js';

const info = { name: 'cache-client', version: '1.0.0' };
const discovered = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: {} },
  ttlMs: 0,
  cacheScope: 'public',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'cache-server', version: '1.0.0' } },
};

type Answer = (method: string, params: JsonObject) => JsonObject | undefined;

async function connected(answer: Answer, options: ClientOptions = {}) {
  const clock = new SimulatedClock();
  const server = await createScriptedServer({ answer: (method, params) => (method === 'server/discover' ? discovered : answer(method, params)) });
  const client = new Client(info, { era: 'modern', clock, ...options });
  await client.connect(server.clientSide);
  return { clock, server, client };
}

const tools = (names: string[], extra: JsonObject = {}): JsonObject => ({ resultType: 'complete', tools: names.map((name) => ({ name, inputSchema: { type: 'object' } })), ...extra });

describe('Client response cache', () => {
  describe('#listTools', () => {
    it('serves a second identical list from the cache while ttlMs has not passed, and asks again after', async () => {
      const { clock, server, client } = await connected((method) => (method === 'tools/list' ? tools(['a'], { ttlMs: 1_000, cacheScope: 'public' }) : undefined));
      const first = await client.listTools();
      const second = await client.listTools();
      expect(second).toEqual(first);
      expect(second).not.toBe(first);
      expect(server.requests('tools/list')).toHaveLength(1);
      expect(client.cacheStats).toMatchObject({ hits: 1, misses: 1, stores: 1, entries: 1 });
      clock.advance(999);
      await client.listTools();
      expect(server.requests('tools/list')).toHaveLength(1);
      clock.advance(1);
      await client.listTools();
      expect(server.requests('tools/list')).toHaveLength(2);
    });

    it('never stores a result with ttlMs 0 (stale at once)', async () => {
      const { server, client } = await connected((method) => (method === 'tools/list' ? tools(['a'], { ttlMs: 0, cacheScope: 'public' }) : undefined));
      for (let i = 0; i < 3; i++) await client.listTools();
      expect(server.requests('tools/list')).toHaveLength(3);
      expect(client.cacheStats).toMatchObject({ hits: 0, misses: 3, stores: 0, entries: 0 });
    });

    it('caches each page under its own cursor (an empty-string cursor is a real one) with its own TTL', async () => {
      const pages: Record<string, JsonObject> = {
        first: tools(['a'], { nextCursor: '', ttlMs: 5_000, cacheScope: 'public' }),
        '': tools(['b'], { nextCursor: 'c2', ttlMs: 1_000, cacheScope: 'public' }),
        c2: tools(['c'], { ttlMs: 5_000, cacheScope: 'public' }),
      };
      const { clock, server, client } = await connected((method, params) => (method === 'tools/list' ? pages[typeof params.cursor === 'string' ? params.cursor : 'first'] : undefined));
      expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(['a', 'b', 'c']);
      clock.advance(1_000);
      expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(['a', 'b', 'c']);
      expect(server.requests('tools/list').map((request) => request.params?.cursor)).toEqual([undefined, '', 'c2', '']);
    });

    it('bypasses the cache for a call with cache: false, and refreshes the entry with its answer', async () => {
      let version = 0;
      const { server, client } = await connected((method) => (method === 'tools/list' ? tools([`v${++version}`], { ttlMs: 60_000, cacheScope: 'public' }) : undefined));
      await client.listTools();
      expect((await client.listTools({}, { cache: false })).tools[0]?.name).toBe('v2');
      expect((await client.listTools()).tools[0]?.name).toBe('v2');
      expect(server.requests('tools/list')).toHaveLength(2);
    });

    it('drops the cached pages of a list when a later page answers -32602 (invalid cursor)', async () => {
      const { server, client } = await connected((method, params) => {
        if (method !== 'tools/list') return undefined;
        return params.cursor === undefined ? tools(['a'], { nextCursor: 'gone', ttlMs: 60_000, cacheScope: 'public' }) : undefined;
      });
      const listing = client.listAllTools();
      await flush();
      const page = server.requests('tools/list')[1];
      await server.send({ jsonrpc: '2.0', id: page?.id ?? 0, error: { code: -32602, message: 'Invalid cursor' } });
      await expect(listing).rejects.toMatchObject({ code: -32602 });
      expect(client.cacheStats).toMatchObject({ entries: 0, invalidations: 1 });
    });

    it('sends nothing from the cache and keeps nothing with cache: false', async () => {
      const { server, client } = await connected((method) => (method === 'tools/list' ? tools(['a'], { ttlMs: 60_000, cacheScope: 'public' }) : undefined), { cache: false });
      await client.listTools();
      await client.listTools();
      expect(server.requests('tools/list')).toHaveLength(2);
      expect(client.cacheStats).toBeUndefined();
    });
  });

  describe('cacheScope', () => {
    it('serves a private entry only under the authorization context it was stored under, a public one under any', async () => {
      let user = 'alice';
      const { server, client } = await connected(
        (method) => {
          if (method === 'tools/list') return tools(['mine'], { ttlMs: 60_000, cacheScope: 'private' });
          if (method === 'prompts/list') return { resultType: 'complete', prompts: [], ttlMs: 60_000, cacheScope: 'public' };
          return undefined;
        },
        { cache: { authContext: () => user } },
      );
      await client.listTools();
      await client.listPrompts();
      user = 'bob';
      await client.listTools();
      await client.listPrompts();
      expect(server.requests('tools/list')).toHaveLength(2);
      expect(server.requests('prompts/list')).toHaveLength(1);
      user = 'alice';
      await client.listTools();
      expect(server.requests('tools/list')).toHaveLength(2);
    });
  });

  describe('invalidation', () => {
    it('drops a list before the application hears its list_changed, even from a listener that throws first', async () => {
      const { server, client } = await connected((method) => (method === 'tools/list' ? tools(['a'], { ttlMs: 60_000, cacheScope: 'public' }) : undefined));
      await client.listTools();
      const heard: number[] = [];
      client.onToolsListChanged(() => {
        throw new Error('first listener fails');
      });
      client.onToolsListChanged(() => void client.listTools().then((result) => heard.push(result.tools.length)));
      await server.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      await flush();
      expect(heard).toEqual([1]);
      expect(server.requests('tools/list')).toHaveLength(2);
    });

    it('drops a list on its list_changed notification and a read on resources/updated for its URI', async () => {
      const events: ResponseCacheEvent[] = [];
      const { server, client } = await connected(
        (method, params) => {
          if (method === 'tools/list') return tools(['a'], { ttlMs: 60_000, cacheScope: 'public' });
          if (method === 'resources/read') return { resultType: 'complete', contents: [{ uri: String(params.uri), text: 'x' }], ttlMs: 60_000, cacheScope: 'public' };
          return undefined;
        },
        { cache: { onEvent: (event) => events.push(event) } },
      );
      await client.listTools();
      await client.readResource({ uri: 'file:///a' });
      await client.readResource({ uri: 'file:///b' });
      await server.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      await server.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///a' } });
      await flush();
      await client.listTools();
      await client.readResource({ uri: 'file:///a' });
      await client.readResource({ uri: 'file:///b' });
      expect(server.requests('tools/list')).toHaveLength(2);
      expect(server.requests('resources/read').map((request) => request.params?.uri)).toEqual(['file:///a', 'file:///b', 'file:///a']);
      expect(events.filter((event) => event.type === 'invalidate').map((event) => [event.method, event.params])).toEqual([
        ['tools/list', {}],
        ['resources/read', { uri: 'file:///a' }],
      ]);
      expect(events.filter((event) => event.type === 'hit').map((event) => event.params)).toEqual([{ uri: 'file:///b' }]);
    });

    it('starts empty on a new connection', async () => {
      const { server, client } = await connected((method) => (method === 'tools/list' ? tools(['a'], { ttlMs: 60_000, cacheScope: 'public' }) : undefined));
      await client.listTools();
      await client.close();
      const again = await createScriptedServer({ answer: (method) => (method === 'server/discover' ? discovered : method === 'tools/list' ? tools(['z'], { ttlMs: 60_000, cacheScope: 'public' }) : undefined) });
      await client.connect(again.clientSide);
      expect((await client.listTools()).tools[0]?.name).toBe('z');
      expect(server.requests('tools/list')).toHaveLength(1);
    });
  });

  describe('input rounds', () => {
    it('never stores the result of a read that needed an input round', async () => {
      const { server, client } = await connected(
        (method, params) => {
          if (method !== 'resources/read') return undefined;
          if (params.requestState === undefined) return { resultType: 'input_required', requestState: 'again' };
          return { resultType: 'complete', contents: [{ uri: 'file:///r', text: 'ok' }], ttlMs: 60_000, cacheScope: 'public' };
        },
      );
      await client.readResource({ uri: 'file:///r' });
      await client.readResource({ uri: 'file:///r' });
      expect(server.requests('resources/read')).toHaveLength(4);
      expect(client.cacheStats).toMatchObject({ stores: 0, entries: 0 });
    });
  });

  describe('legacy era', () => {
    it('never caches a legacy result', async () => {
      const server = await createScriptedServer({ answer: (method) => (method === 'tools/list' ? { tools: [], ttlMs: 60_000 } : undefined) });
      const client = new Client(info, { era: 'legacy' });
      await client.connect(server.clientSide);
      await client.listTools();
      await client.listTools();
      expect(server.requests('tools/list')).toHaveLength(2);
    });
  });
});
