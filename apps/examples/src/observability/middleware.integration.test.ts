/**
 * The middleware example's server over real stdio (a child process) and real HTTP (127.0.0.1),
 * from a client in each era: a short-circuit with a result and with a typed error, an error
 * inside a middleware (that request alone fails), a cancellation seen inside a middleware, and a
 * custom method — the same chain whatever the transport and the era.
 */
import { fileURLToPath } from 'node:url';
import { Client, type CallToolResult } from '@statemcp/client';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { JsonRpcError, RequestCancelledError, type Transport } from '@statemcp/protocol';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { bundleNodeScript } from '@statemcp/testing/node-bundle';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createServer, type MiddlewareTrail } from './middleware.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

type Kind = 'stdio' | 'http';
type Era = 'legacy' | 'auto';

async function transportFor(kind: Kind): Promise<Transport> {
  if (kind === 'stdio') {
    // The example's own file as the server process, bundled from source once per test process.
    const script = await bundleNodeScript(fileURLToPath(new URL('./middleware.ts', import.meta.url)));
    return new StdioClientTransport({ command: process.execPath, args: [script, '--stdio'] });
  }
  const server = createServer();
  const mcp = createStreamableHttpServer({ connect: (transport) => server.connect(transport) });
  const http = await mcp.listen({ port: 0 });
  closers.push(async () => {
    await http.close();
    await server.close();
  });
  return new StreamableHttpClientTransport(http.url);
}

async function connect(kind: Kind, era: Era): Promise<Client> {
  const client = new Client({ name: 'middleware-acceptance', version: '1.0.0' }, { era, defaultTimeoutMs: 20_000 });
  closers.unshift(() => client.close());
  await client.connect(await transportFor(kind));
  return client;
}

function text(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

async function trailOf(client: Client): Promise<MiddlewareTrail> {
  return JSON.parse(text(await client.callTool({ name: 'middleware_log' }))) as MiddlewareTrail;
}

const cases = (['stdio', 'http'] as const).flatMap((kind) => (['legacy', 'auto'] as const).map((era) => ({ kind, era })));

describe('middleware over real transports', () => {
  it.each(cases)('$kind, era $era: short-circuits, isolates a middleware error, wraps a custom method', async ({ kind, era }) => {
    const client = await connect(kind, era);
    expect(client.era).toBe(era === 'auto' ? 'modern' : 'legacy');
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'hello' } }))).toBe('hello');
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'cached' } }))).toBe('from the cache');
    await expect(client.callTool({ name: 'admin_reset' })).rejects.toMatchObject({ code: -32001, message: 'admin_reset needs a signed-in caller' });
    const broken = await client.callTool({ name: 'echo', arguments: { text: 'crash the middleware' } }).catch((error: unknown) => error);
    expect(broken).toBeInstanceOf(JsonRpcError);
    expect(broken).toMatchObject({ code: -32603, message: 'a middleware bug' });
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'still fine' } }))).toBe('still fine');
    const stats = await client.request('com.example/stats', {}, { result: z.object({ calls: z.number() }) });
    expect(stats.calls).toBeGreaterThan(0);
    const trail = await trailOf(client);
    const calls = trail.audit.filter((record) => record.method === 'tools/call');
    expect(calls.map((record) => [record.target, record.outcome])).toEqual([
      ['echo', 'ok'],
      ['echo', 'ok'],
      ['admin_reset', 'error'],
      ['echo', 'error'],
      ['echo', 'ok'],
    ]);
    expect(trail.audit.some((record) => record.method === 'com.example/stats')).toBe(true);
    expect(new Set(calls.map((record) => record.protocolVersion))).toEqual(new Set([client.protocolVersion]));
  });

  it.each(cases)('$kind, era $era: a cancelled call aborts the signal a middleware holds', async ({ kind, era }) => {
    const client = await connect(kind, era);
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow' }, { signal: controller.signal, onProgress: () => controller.abort('the user gave up') });
    await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    // The cancellation travels as notifications/cancelled; later requests see its effect once it has arrived.
    // Asked again until it has (a count of tries is no bound on a loaded machine: 10 s is).
    const trail = await vi.waitFor(
      async () => {
        const seen = await trailOf(client);
        expect(seen.cancelled).toHaveLength(1);
        return seen;
      },
      { timeout: 10_000, interval: 50 },
    );
    const slow = trail.audit.find((record) => record.target === 'slow');
    expect(slow?.outcome).toBe('cancelled');
  });
});
