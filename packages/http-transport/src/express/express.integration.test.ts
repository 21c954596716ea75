import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import express, { type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';

import { TEST_BODY_LIMIT, expectHostAndOriginChecks, expectRoundTripWithRequestInfo, expectServerBodyChecks } from '../../test/adapter-checks.js';
import { buildRequestInfoServer } from '../../test/request-info-fixture.js';
import { createStreamableHttpServer } from '../server/streamable-http-server.js';
import type { StreamableHttpServer, StreamableHttpServerOptions } from '../server/server-options.js';
import { createExpressHandler } from './index.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** An MCP server behind `createStreamableHttpServer`, mounted by `mount` in a fresh Express app on 127.0.0.1. */
async function serve(mount: (app: Express, mcp: StreamableHttpServer) => void, options: Partial<StreamableHttpServerOptions> = {}): Promise<string> {
  const server = buildRequestInfoServer();
  const mcp = createStreamableHttpServer({ connect: (transport) => server.connect(transport), maxBodyBytes: TEST_BODY_LIMIT, ...options });
  const app = express();
  mount(app, mcp);
  const http = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', (error) => (error === undefined ? resolve(listening) : reject(error)));
  });
  cleanups.push(async () => {
    await mcp.close();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  });
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

describe('createExpressHandler (Express 5)', () => {
  it('serves the statemcp client with the defaults of listen() when nothing parsed the body', async () => {
    const url = await serve((app, mcp) => app.all('/mcp', createExpressHandler(mcp)));
    await expectRoundTripWithRequestInfo(url);
    await expectHostAndOriginChecks(url);
    await expectServerBodyChecks(url);
  });

  it('uses the body express.json() already parsed, still under the server body limit', async () => {
    const url = await serve((app, mcp) => {
      app.use(express.json());
      app.all('/mcp', createExpressHandler(mcp));
    });
    await expectRoundTripWithRequestInfo(url);
    await expectHostAndOriginChecks(url);
    // The 413 and 415 are the server's; invalid JSON is express.json()'s own 400.
    await expectServerBodyChecks(url, { json: false });
  });

  it('sees the full path when mounted under a prefix with app.use', async () => {
    const url = await serve((app, mcp) => app.use('/mcp', createExpressHandler(mcp)), { path: '/mcp' });
    await expectRoundTripWithRequestInfo(url);
  });

  it('serves the official SDK (2.x) client', async () => {
    const url = await serve((app, mcp) => {
      app.use(express.json());
      app.all('/mcp', createExpressHandler(mcp));
    });
    const client = new Client({ name: 'official-v2', version: '2.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    expect(client.getServerVersion()).toMatchObject({ name: 'request-info' });
    const result = await client.callTool({ name: 'http_request', arguments: {} });
    const block = result.content[0];
    expect(JSON.parse(block?.type === 'text' ? block.text : 'null')).toMatchObject({ absent: false, method: 'POST', url, remoteAddress: '127.0.0.1' });
    await transport.terminateSession();
    await client.close();
  });
});
