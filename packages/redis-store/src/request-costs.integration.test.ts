/**
 * What one request costs in Redis commands (issue 39), counted by Redis itself
 * (`INFO commandstats` after `CONFIG RESETSTAT`), with three instances of one `McpServer` on one
 * real Redis, on 127.0.0.1 sockets:
 *
 * - a 2026-07-28 stateless request is served by the instance that receives it: nothing relayed,
 *   no session record read or written, no Redis command at all — even when it carries a stray
 *   `Mcp-Session-Id` naming another instance's session;
 * - a request of a legacy session on its owner whose answer is ready in the task it arrives in sends
 *   one command: one script appending its priming event and its answer, with no requests record
 *   (every request it would list is answered in the same atomic write); the session record's time
 *   to live is refreshed lazily, not per request. A slower request's record goes with its priming
 *   event, and its answer is a second command;
 * - a request relayed to the owner costs one publish to it and at most two back, with no record
 *   read (the owner is remembered), and no subscribe or unsubscribe;
 * - the end of a session removes the streams of all its requests in one script, which drops the
 *   session's log whole, not one command per stream.
 */
import { Client } from '@statemcp/client';
import { createStreamableHttpServer, type ListeningServer, type StreamableHttpServer } from '@statemcp/http-transport/server';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { McpServer } from '@statemcp/server';
import { describe, expect, it, vi } from 'vitest';

import { connectRedisStores, type RedisStores } from './redis-stores.js';
import { redisForFile } from './test-redis-file.js';
import { uniquePrefix } from './test-redis-server.js';

const redis = redisForFile();
const { cleanups } = redis;

interface Instance {
  readonly stores: RedisStores;
  readonly http: StreamableHttpServer;
  readonly listening: ListeningServer;
}

async function instance(id: string, prefix: string): Promise<Instance> {
  const stores = await connectRedisStores({ url: redis.url, keyPrefix: prefix });
  const mcp = new McpServer({ name: `costs-${id}`, version: '1.0.0' });
  mcp.registerTool('whoami', {}, () => ({ content: [{ type: 'text', text: id }] }));
  mcp.registerTool('later', {}, async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { content: [{ type: 'text', text: id }] };
  });
  const http = createStreamableHttpServer({
    connect: (transport) => mcp.connect(transport),
    eventStore: stores.events,
    cluster: { instanceId: id, sessions: stores.sessions, bus: stores.bus },
  });
  const listening = await http.listen();
  cleanups.push(async () => {
    await listening.close();
    await stores.close();
  });
  return { stores, http, listening };
}

async function three(): Promise<[Instance, Instance, Instance]> {
  const prefix = uniquePrefix();
  return [await instance('a', prefix), await instance('b', prefix), await instance('c', prefix)];
}

/** The commands the instances sent since the last reset. */
const instanceCommands = (): Promise<Record<string, number>> => redis.commandCalls();
const resetCounts = (): Promise<void> => redis.resetCommandStats();

/** A client sending its first request to `urls[0]`, then the others to the rest of `urls` in turn. */
async function connect(era: 'legacy' | 'modern', urls: readonly URL[], extraHeaders: Record<string, string> = {}): Promise<{ client: Client; transport: StreamableHttpClientTransport }> {
  let sent = 0;
  const rest = urls.length > 1 ? urls.slice(1) : urls;
  const transport = new StreamableHttpClientTransport(urls[0] as URL, {
    fetch: (input, init) => {
      const target = (sent === 0 ? urls[0] : rest[(sent - 1) % rest.length]) as URL;
      sent++;
      const headers = new Headers(init?.headers);
      for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.host = target.host;
      return fetch(url, { ...init, headers });
    },
  });
  const client = new Client({ name: `costs-${era}`, version: '1.0.0' }, { era });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

const textOf = (result: { content: unknown }): string => ((result.content as { text?: string }[])[0]?.text ?? '');

describe('what a request costs in Redis', () => {
  it('serves 2026-07-28 stateless requests where they arrive: no relay, no record, no Redis command', async () => {
    const instances = await three();
    const [a, b, c] = instances;
    // A legacy session on A, whose id a stray header will name.
    const legacy = await connect('legacy', [a.listening.url]);
    expect(textOf(await legacy.client.callTool({ name: 'whoami', arguments: {} }))).toBe('a');
    const sessionId = legacy.transport.sessionId ?? '';
    expect(sessionId).not.toBe('');

    await resetCounts();
    const served: string[] = [];
    for (const target of instances) {
      const { client: modern } = await connect('modern', [target.listening.url]);
      for (let i = 0; i < 3; i++) served.push(textOf(await modern.callTool({ name: 'whoami', arguments: {} })));
    }
    // A stateless request naming A's session is still served where it arrives (B, C).
    const { client: stray } = await connect('modern', [b.listening.url, c.listening.url], { 'mcp-session-id': sessionId });
    for (let i = 0; i < 2; i++) served.push(textOf(await stray.callTool({ name: 'whoami', arguments: {} })));
    expect(served.slice(0, 9)).toEqual(['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c']);
    expect(served.slice(9)).toHaveLength(2);
    expect(served.slice(9).every((by) => by === 'b' || by === 'c')).toBe(true);
    for (const each of instances) expect(each.http.cluster).toMatchObject({ relayed: 0, served: 0, adopted: 0 });
    expect(await instanceCommands()).toEqual({});
  });

  it('costs a legacy session request on its owner one script, the record untouched', async () => {
    const [a] = await three();
    const { client } = await connect('legacy', [a.listening.url]);
    expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('a');
    await resetCounts();
    const calls = 10;
    for (let i = 0; i < calls; i++) expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('a');
    const counts = await instanceCommands();
    // Sent: per POST stream one script (EVALSHA) appending its priming event and its answer to the session's
    // log (the XADDs, the stream's name added to the log's set of streams, both keys' PEXPIRE run inside it);
    // no requests record (SET): the answer is stored in the same write.
    expect(counts).toEqual({ evalsha: calls, xadd: 2 * calls, sadd: calls, pexpire: 2 * calls });
  });

  it('writes the requests record of a request not answered at once with its priming event, the answer in a second script', async () => {
    const [a] = await three();
    const { client } = await connect('legacy', [a.listening.url]);
    expect(textOf(await client.callTool({ name: 'later', arguments: {} }))).toBe('a');
    await resetCounts();
    const calls = 5;
    for (let i = 0; i < calls; i++) expect(textOf(await client.callTool({ name: 'later', arguments: {} }))).toBe('a');
    // First script: the record (SET) and the priming event; second: the answer, refreshing the record's time to
    // live. Each refreshes the log's and its set of streams'.
    expect(await instanceCommands()).toEqual({ evalsha: 2 * calls, set: calls, xadd: 2 * calls, sadd: 2 * calls, pexpire: 5 * calls });
  });

  it('costs a relayed request one publish to the owner and at most two back, no record read, no subscription', async () => {
    const [a, b, c] = await three();
    // Opened on A; every later request goes to B or C in turn, which relay it to A.
    const { client } = await connect('legacy', [a.listening.url, b.listening.url, c.listening.url]);
    // Warm-up: B and C read the record once, and subscribe their own channel once.
    for (let i = 0; i < 2; i++) expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('a');
    await resetCounts();
    const relayedBefore = (b.http.cluster?.relayed ?? 0) + (c.http.cluster?.relayed ?? 0);
    const calls = 10;
    for (let i = 0; i < calls; i++) expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('a');
    expect((b.http.cluster?.relayed ?? 0) + (c.http.cluster?.relayed ?? 0) - relayedBefore).toBe(calls);
    expect(a.http.cluster?.relayed).toBe(0);
    const counts = await instanceCommands();
    expect(counts['hgetall']).toBeUndefined();
    expect(counts['subscribe']).toBeUndefined();
    expect(counts['unsubscribe']).toBeUndefined();
    expect(counts['publish']).toBeGreaterThanOrEqual(2 * calls);
    expect(counts['publish']).toBeLessThanOrEqual(3 * calls);
    expect(counts['xadd']).toBe(2 * calls);
    expect(counts['evalsha']).toBe(calls);
    expect(counts['set']).toBeUndefined();
  });

  it('forgets the streams of an ended session in one script: the session\'s log goes whole, unread', async () => {
    const [a] = await three();
    const { client } = await connect('legacy', [a.listening.url]);
    const calls = 30;
    for (let i = 0; i < calls; i++) expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('a');
    const logs = (): Promise<string[]> => a.stores.connection.client.keys(`${a.stores.connection.keyPrefix}events:*`);
    // Every POST stream of the session in one Redis Stream.
    expect(await logs()).toHaveLength(1);
    await resetCounts();
    // Ends the session (DELETE): one script unlinks its streams' requests records (one UNLINK), finds
    // that the log holds no other stream (SMISMEMBER, SCARD) and unlinks it whole, unread (another).
    await client.close();
    await vi.waitFor(async () => {
      expect((await instanceCommands())['unlink']).toBe(2);
    });
    // The rest is the session's own end: its record read and deleted (DEL), its channel unsubscribed.
    const counts = await instanceCommands();
    expect(counts['unlink']).toBe(2);
    expect(counts['smismember']).toBe(1);
    expect(counts['xrange']).toBeUndefined();
    expect(counts['del']).toBe(1);
    expect((counts['evalsha'] ?? 0) + (counts['eval'] ?? 0)).toBeGreaterThanOrEqual(1);
    expect(Object.values(counts).reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(12);
    expect(await logs()).toEqual([]);
  });
});
