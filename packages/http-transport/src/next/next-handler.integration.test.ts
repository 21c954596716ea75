/**
 * `createNextHandler` as Next.js calls it: each method's export gets the web `Request` of its
 * method (served here by `@hono/node-server`'s fetch bridge on 127.0.0.1, as `next start` does
 * on Node.js). statemcp's client runs a session — handshake, progress on an SSE answer, DELETE —
 * and the route's path and auth hook are the server's.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@statemcp/client';
import { McpServer } from '@statemcp/server';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { StreamableHttpClientTransport } from '../client/streamable-http.js';
import { createStreamableHttpServer } from '../server/streamable-http-server.js';
import { createNextHandler, type NextRouteHandlers } from './next-handler.js';

// `@hono/node-server` puts its own `Request` and `Response` on the global object (its default
// `overrideGlobalObjects`, left on: that is what an app gets). Node's go back after this file, since
// the next files share the worker (`isolate: false`).
const { Request: NodeRequest, Response: NodeResponse } = globalThis;
afterAll(() => {
  Object.assign(globalThis, { Request: NodeRequest, Response: NodeResponse });
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Serves the route's exports the way the App Router dispatches them: by method, else 405. */
async function serveRoute(route: NextRouteHandlers): Promise<URL> {
  const methods: Record<string, ((request: Request) => Promise<Response>) | undefined> = { GET: route.GET, POST: route.POST, DELETE: route.DELETE };
  const server: ServerType = serve({ fetch: (request) => methods[request.method]?.(request) ?? new Response(null, { status: 405 }), port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`);
}

function buildServer(seen: unknown[]): McpServer {
  const server = new McpServer({ name: 'next-route', version: '1.0.0' });
  server.registerTool('count', { description: 'Counts with progress', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } }, async ({ n }, extra) => {
    seen.push({ auth: extra.authInfo, remote: extra.http?.remoteAddress });
    for (let step = 1; step <= Number(n); step += 1) await extra.sendProgress(step, Number(n));
    return { content: [{ type: 'text', text: `counted to ${String(n)}` }] };
  });
  return server;
}

describe('createNextHandler', () => {
  it('serves a session through the GET, POST and DELETE exports, with the auth hook and remote address wired', async () => {
    const seen: unknown[] = [];
    const server = buildServer(seen);
    const sessions: string[] = [];
    const mcp = createStreamableHttpServer({
      path: '/api/mcp',
      authenticate: (request) => {
        if (request.headers.get('authorization') !== 'Bearer next-secret') throw new Error('no token');
        return { user: 'ada' };
      },
      connect: (transport) => server.connect(transport),
      onSessionClosed: (id) => sessions.push(id),
    });
    cleanups.push(() => mcp.close());
    const url = await serveRoute(createNextHandler(mcp, { remoteAddress: (request) => request.headers.get('x-real-ip') ?? undefined }));

    const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(refused.status).toBe(401);

    const client = new Client({ name: 'next-test', version: '0.0.0' }, { era: 'legacy' });
    cleanups.push(() => client.terminate());
    const transport = new StreamableHttpClientTransport(url, { headers: { authorization: 'Bearer next-secret', 'x-real-ip': '198.51.100.4' } });
    await client.connect(transport);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'count', arguments: { n: 3 } }, { onProgress: (update) => progress.push(update.progress) });
    expect(result.content).toEqual([{ type: 'text', text: 'counted to 3' }]);
    expect(progress).toEqual([1, 2, 3]);
    expect(seen).toEqual([{ auth: { user: 'ada' }, remote: '198.51.100.4' }]);
    const sessionId = transport.sessionId;
    await client.close();
    expect(sessions).toEqual([sessionId]);
  });
});
