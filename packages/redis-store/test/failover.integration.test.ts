/**
 * Fault tests of a cluster (issue 15) with real processes and a real Redis: instances are child
 * processes (`fixtures/failover-instance.ts`), the client is `@statemcp/client` over Streamable
 * HTTP (legacy era) behind {@link InstanceRouter}, the test's load balancer.
 *
 * - An instance is SIGKILLed in the middle of a streamed tool call: the client resumes the
 *   stream on another instance, which adopts the session; every notification written before the
 *   kill arrives exactly once, the call ends with the bounded -32603 naming the dead instance,
 *   and the session keeps working on the adopter.
 * - Redis is restarted while a relayed request is in flight: it fails with a typed 503; later
 *   requests succeed.
 * - A session whose record expired answers 404 on every instance.
 */
import { Client } from '@statemcp/client';
import { JsonRpcError, TransportError } from '@statemcp/protocol';
import { HttpResponseError, StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRedisStores } from '../src/redis-stores.js';
import { startRedisServer, uniquePrefix } from '../src/test-redis-server.js';
import { InstanceRouter, startInstance, type Instance } from './cluster-instances.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function cluster(redisUrl: string, ids: string[], idleTimeoutMs?: number, prefix = uniquePrefix()): Promise<Instance[]> {
  const instances = await Promise.all(ids.map((id) => startInstance(redisUrl, prefix, id, idleTimeoutMs)));
  cleanups.push(async () => {
    await Promise.all(instances.map((instance) => instance.kill()));
  });
  return instances;
}

async function connectClient(router: InstanceRouter, url: URL): Promise<{ client: Client; transport: StreamableHttpClientTransport }> {
  const transport = new StreamableHttpClientTransport(url, { fetch: router.fetch });
  const client = new Client({ name: 'failover-test', version: '1.0.0' }, { era: 'legacy', protocolVersion: '2025-11-25', defaultTimeoutMs: 30_000 });
  await client.connect(transport);
  cleanups.push(() => client.close().catch(() => undefined));
  return { client, transport };
}

function firstText(result: { content: unknown[] }): string | undefined {
  const first = result.content[0] as { type?: string; text?: string } | undefined;
  return first?.type === 'text' ? first.text : undefined;
}

describe('a cluster of instance processes over one Redis', () => {
  it('resumes a streamed call on another instance when the one serving it is killed: nothing lost or repeated, the call ends with a bounded error, the session goes on', async () => {
    const redis = await startRedisServer();
    cleanups.push(() => redis.stop());
    const prefix = uniquePrefix();
    const [a, b] = await cluster(redis.url, ['a', 'b'], undefined, prefix);
    if (a === undefined || b === undefined) throw new Error('two instances');
    const router = new InstanceRouter([a, b]);
    const { client, transport } = await connectClient(router, a.url);
    const sessionId = transport.sessionId;

    const progress: number[] = [];
    let killed = false;
    let beforeKill = 0;
    const call = client.callTool(
      { name: 'stream', arguments: {} },
      {
        onProgress: (update) => {
          progress.push(update.progress);
          if (!killed && progress.length === 5) {
            killed = true;
            beforeKill = progress.length;
            void a.kill();
          }
        },
      },
    );
    const failure = await call.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(JsonRpcError);
    expect((failure as JsonRpcError).code).toBe(-32603);
    expect((failure as JsonRpcError).message).toContain('instance a');
    // Exactly once and in order: 1, 2, 3, … — whatever a wrote before dying, nothing twice.
    expect(progress.length).toBeGreaterThanOrEqual(beforeKill);
    expect(progress).toEqual(progress.map((_value, index) => index + 1));
    // … and every progress notification a stored before it died reached the client.
    expect(await storedProgressCount(redis.url, prefix)).toBe(progress.length);
    // The resume went to b, which adopted the session under the same id.
    expect(router.log.some((entry) => entry === 'GET b')).toBe(true);
    expect(transport.sessionId).toBe(sessionId);
    expect(firstText(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('b');
  });

  it('fails a request relayed while Redis restarts with a typed 503, and serves later requests', async () => {
    const redis = await startRedisServer();
    cleanups.push(() => redis.stop());
    const [a, b] = await cluster(redis.url, ['a', 'b']);
    if (a === undefined || b === undefined) throw new Error('two instances');
    const router = new InstanceRouter([a, b]);
    const { client } = await connectClient(router, a.url);
    // The session runs on a; b relays to it over Redis.
    router.target = 1;
    const inFlight = client.callTool({ name: 'slow', arguments: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await redis.kill();
    const failure = await inFlight;
    // The call fails as interrupted (retry later), caused by b's typed 503.
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as { category?: string }).category).toBe('interrupted');
    const answered = causes(failure).find((cause) => cause instanceof HttpResponseError);
    expect(answered?.status).toBe(503);
    expect(answered?.body).toContain('Redis is unreachable');
    await redis.restart();
    // The restarted Redis is empty: a new session, and calls on it, succeed (on either instance).
    const later = await connectClientEventually(router, b.url);
    expect(firstText(await later.callTool({ name: 'whoami', arguments: {} }))).toBe('b');
  });

  it('answers 404 on every instance for a session whose record expired', async () => {
    const redis = await startRedisServer();
    cleanups.push(() => redis.stop());
    const [a, b] = await cluster(redis.url, ['a', 'b'], 1000);
    if (a === undefined || b === undefined) throw new Error('two instances');
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const init = await fetch(a.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(init.status).toBe(200);
    const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-11-25' };
    const list = (url: URL): Promise<Response> => fetch(url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect((await list(b.url)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await list(a.url)).status).toBe(404);
    expect((await list(b.url)).status).toBe(404);
  });
});

/** An error and its causes, outermost first. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && chain.length < 10; current = current instanceof Error ? current.cause : undefined) chain.push(current);
  return chain;
}

/** How many progress notifications the instances stored, over every SSE stream of the test. */
async function storedProgressCount(url: string, prefix: string): Promise<number> {
  const stores = await connectRedisStores({ url, keyPrefix: prefix });
  try {
    const client = stores.connection.client;
    let count = 0;
    for (const key of await client.keys(`${prefix}events:*`)) {
      for (const entry of (await client.xRange(key, '-', '+')) ?? []) {
        if (entry.message['m']?.includes('"notifications/progress"') === true) count++;
      }
    }
    return count;
  } finally {
    await stores.close();
  }
}

/** A new client once the instances' Redis connections are back (they reconnect within ~100 ms). */
async function connectClientEventually(router: InstanceRouter, url: URL): Promise<Client> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await connectClient(router, url)).client;
    } catch (error) {
      if (attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
