import { serve as serveNode, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { TEST_BODY_LIMIT, expectHostAndOriginChecks, expectRoundTripWithRequestInfo, expectServerBodyChecks } from '../../test/adapter-checks.js';
import { buildRequestInfoServer, readSeenRequests } from '../../test/request-info-fixture.js';
import { StreamableHttpClientTransport } from '../client/index.js';
import { createStreamableHttpServer } from '../server/streamable-http-server.js';
import type { StreamableHttpServer } from '../server/server-options.js';
import { createHonoHandler } from './index.js';

// `@hono/node-server` puts its own `Request` and `Response` on the global object (its default
// `overrideGlobalObjects`, left on: that is what an app gets). Node's go back after this file, since
// the next files share the worker (`isolate: false`).
const { Request: NodeRequest, Response: NodeResponse } = globalThis;
afterAll(() => {
  Object.assign(globalThis, { Request: NodeRequest, Response: NodeResponse });
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function mcpServer(): StreamableHttpServer {
  const server = buildRequestInfoServer();
  return createStreamableHttpServer({ connect: (transport) => server.connect(transport), maxBodyBytes: TEST_BODY_LIMIT });
}

/** Serves `app` with `@hono/node-server` on 127.0.0.1; returns the MCP URL. */
async function serve(app: Hono, mcp: StreamableHttpServer): Promise<string> {
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serveNode({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  cleanups.push(async () => {
    await mcp.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('createHonoHandler (Hono 4)', () => {
  it('serves the statemcp client on @hono/node-server with the defaults of listen()', async () => {
    const mcp = mcpServer();
    const app = new Hono();
    app.all('/mcp', createHonoHandler(mcp));
    const url = await serve(app, mcp);
    await expectRoundTripWithRequestInfo(url);
    await expectHostAndOriginChecks(url);
    await expectServerBodyChecks(url);
  });

  it('uses the body a middleware already read with c.req.json(), and answers its parse failures -32700', async () => {
    const mcp = mcpServer();
    const app = new Hono();
    const methods: unknown[] = [];
    app.use('/mcp', async (c, next) => {
      if (c.req.method === 'POST' && c.req.header('content-type') === 'application/json') {
        const body = await c.req.json<{ method?: unknown }>().catch(() => undefined);
        methods.push(body?.method);
      }
      await next();
    });
    app.all('/mcp', createHonoHandler(mcp));
    const url = await serve(app, mcp);
    await expectRoundTripWithRequestInfo(url);
    expect(methods).toContain('tools/call');
    await expectServerBodyChecks(url);
  });

  it('takes addresses from the option on other runtimes (a fetch Request, no socket)', async () => {
    const mcp = mcpServer();
    cleanups.push(() => mcp.close());
    const app = new Hono();
    app.all('/mcp', createHonoHandler(mcp, { addresses: () => ({ remoteAddress: '198.51.100.4', localAddress: '127.0.0.1' }) }));
    const seen = await readSeenRequests(
      new StreamableHttpClientTransport('http://localhost/mcp', { fetch: async (input, init) => app.fetch(new Request(input, init)) }),
    );
    expect(seen.tool).toMatchObject({ absent: false, method: 'POST', url: 'http://localhost/mcp', remoteAddress: '198.51.100.4' });
  });
});
