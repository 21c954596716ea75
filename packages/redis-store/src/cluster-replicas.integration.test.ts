/**
 * Replicas (`cluster.replicas`) with three instances of one `McpServer` on one real Redis, on
 * 127.0.0.1 sockets: a legacy session's requests are served by the instance that receives them
 * (no relay, the same Redis commands as on the owner), the client's answer to an elicitation
 * reaches the instance whose tool waits for it, a cancellation reaches the instance running the
 * request, and a DELETE ends the session on every instance.
 */
import { Client } from '@statemcp/client';
import { createStreamableHttpServer, type ListeningServer, type StreamableHttpServer } from '@statemcp/http-transport/server';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { McpServer } from '@statemcp/server';
import { describe, expect, it } from 'vitest';

import { connectRedisStores } from './redis-stores.js';
import { redisForFile } from './test-redis-file.js';
import { uniquePrefix } from './test-redis-server.js';

const redis = redisForFile();
const { cleanups } = redis;

interface Instance {
  readonly http: StreamableHttpServer;
  readonly listening: ListeningServer;
  /** Instances whose `wait` handler saw its abort signal fire. */
  readonly aborted: string[];
}

async function instance(id: string, prefix: string, aborted: string[]): Promise<Instance> {
  const stores = await connectRedisStores({ url: redis.url, keyPrefix: prefix });
  const mcp = new McpServer({ name: `replicas-${id}`, version: '1.0.0' });
  mcp.registerTool('whoami', {}, () => ({ content: [{ type: 'text', text: id }] }));
  mcp.registerTool('ask_name', {}, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.['name'])} from ${id}` }] };
  });
  mcp.registerTool('wait', {}, async (_args, extra) => {
    await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve(), { once: true }));
    aborted.push(id);
    return { content: [{ type: 'text', text: 'stopped' }] };
  });
  const http = createStreamableHttpServer({
    connect: (transport) => mcp.connect(transport),
    eventStore: stores.events,
    cluster: { instanceId: id, sessions: stores.sessions, bus: stores.bus, replicas: true },
  });
  const listening = await http.listen();
  cleanups.push(async () => {
    await listening.close();
    await stores.close();
  });
  return { http, listening, aborted };
}

async function three(): Promise<{ a: Instance; b: Instance; c: Instance; aborted: string[] }> {
  const prefix = uniquePrefix();
  const aborted: string[] = [];
  return { a: await instance('a', prefix, aborted), b: await instance('b', prefix, aborted), c: await instance('c', prefix, aborted), aborted };
}

/** What a POST carries, as a routing proxy would look at it (for the tests only). */
type Carried = 'initialize' | 'request' | 'answer' | 'notification' | 'other';

async function carried(init: RequestInit | undefined): Promise<Carried> {
  if (typeof init?.body !== 'string') return 'other';
  const message = JSON.parse(init.body) as Record<string, unknown>;
  if (message['method'] === 'initialize') return 'initialize';
  if (!('method' in message)) return 'answer';
  return 'id' in message ? 'request' : 'notification';
}

/** A legacy client whose POSTs go where `route` says (GETs and DELETEs: to the initialize target). */
async function connect(route: (what: Carried) => URL, options: ConstructorParameters<typeof Client>[1] = {}): Promise<{ client: Client; transport: StreamableHttpClientTransport }> {
  const home = route('initialize');
  const transport = new StreamableHttpClientTransport(home, {
    fetch: async (input, init) => {
      const target = (init?.method ?? 'GET') === 'POST' ? route(await carried(init)) : home;
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.host = target.host;
      return fetch(url, init);
    },
  });
  const client = new Client({ name: 'replicas', version: '1.0.0' }, { era: 'legacy', ...options });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

const textOf = (result: { content: unknown }): string => ((result.content as { text?: string }[])[0]?.text ?? '');

/** The commands the instances sent since the last reset. */
const instanceCommands = (): Promise<Record<string, number>> => redis.commandCalls();

describe('cluster replicas over Redis', () => {
  it('serves a legacy request on an instance that does not run the session, without a relay, for what it costs on the owner', async () => {
    const { a, b, c } = await three();
    const others = [b.listening.url, c.listening.url];
    let turn = 0;
    const { client } = await connect((what) => (what === 'initialize' ? a.listening.url : (others[turn++ % 2] as URL)));
    // Warm-up: B and C each build their replica (one record read, one subscription).
    for (let i = 0; i < 2; i++) await client.callTool({ name: 'whoami', arguments: {} });
    await redis.resetCommandStats();
    // Before: the client's `notifications/initialized`, which went to B, was relayed to A (the owner).
    const before = [a, b, c].map((each) => ({ ...each.http.cluster }));
    const served: string[] = [];
    const calls = 10;
    for (let i = 0; i < calls; i++) served.push(textOf(await client.callTool({ name: 'whoami', arguments: {} })));
    expect(new Set(served)).toEqual(new Set(['b', 'c']));
    expect([a, b, c].map((each) => ({ ...each.http.cluster }))).toEqual(before);
    expect([b.http.cluster?.replicas, c.http.cluster?.replicas]).toEqual([1, 1]);
    // What a request costs on its owner (request-costs.integration.test.ts): no publish, no record read.
    expect(await instanceCommands()).toEqual({ evalsha: calls, xadd: 2 * calls, sadd: calls, pexpire: 2 * calls });
  });

  it("delivers the client's answer, posted to C, to the tool asking on B", async () => {
    const { a, b, c } = await three();
    const { client } = await connect((what) => (what === 'initialize' ? a.listening.url : what === 'answer' ? c.listening.url : b.listening.url), {
      onElicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
    });
    expect(textOf(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('hello Ada from b');
    expect(c.http.cluster).toMatchObject({ relayed: 1 });
    expect(b.http.cluster).toMatchObject({ served: 1 });
  });

  it('cancels on B the request whose cancellation reaches C', async () => {
    const { a, b, c, aborted } = await three();
    const { client } = await connect((what) => (what === 'initialize' ? a.listening.url : what === 'notification' ? c.listening.url : b.listening.url));
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: {} }, { signal: controller.signal });
    const settled = call.then(
      () => 'answered',
      () => 'cancelled',
    );
    await expect.poll(() => b.http.cluster?.replicas).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    expect(await settled).toBe('cancelled');
    await expect.poll(() => aborted).toEqual(['b']);
  });

  it('ends the session on every instance when a DELETE reaches one of them', async () => {
    const { a, b, c } = await three();
    const others = [b.listening.url, c.listening.url];
    let turn = 0;
    const { client, transport } = await connect((what) => (what === 'initialize' ? a.listening.url : (others[turn++ % 2] as URL)));
    for (let i = 0; i < 2; i++) await client.callTool({ name: 'whoami', arguments: {} });
    const sessionId = transport.sessionId ?? '';
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    const deleted = await fetch(c.listening.url, { method: 'DELETE', headers });
    expect(deleted.status).toBe(200);
    for (const each of [a, b, c]) {
      await expect
        .poll(async () => {
          const response = await fetch(each.listening.url, {
            method: 'POST',
            headers: { ...headers, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
          });
          await response.body?.cancel();
          return response.status;
        })
        .toBe(404);
    }
  });
});
