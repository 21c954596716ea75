import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';

import { TEST_BODY_LIMIT, expectHostAndOriginChecks, expectRoundTripWithRequestInfo, expectServerBodyChecks, rawRequest } from '../../test/adapter-checks.js';
import { buildRequestInfoServer } from '../../test/request-info-fixture.js';
import { createStreamableHttpServer } from '../server/streamable-http-server.js';
import type { StreamableHttpServer } from '../server/server-options.js';
import { createFastifyPlugin } from './index.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A fresh Fastify app on 127.0.0.1 with an MCP server registered by `register`; returns its origin. */
async function serve(register: (app: FastifyInstance, mcp: StreamableHttpServer) => Promise<void>): Promise<string> {
  const server = buildRequestInfoServer();
  const mcp = createStreamableHttpServer({ connect: (transport) => server.connect(transport), maxBodyBytes: TEST_BODY_LIMIT });
  const app = Fastify();
  await register(app, mcp);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  cleanups.push(async () => {
    await mcp.close();
    app.server.closeAllConnections();
    await app.close();
  });
  return address;
}

describe('createFastifyPlugin (Fastify 5)', () => {
  it('serves the statemcp client with the defaults of listen(), reading the body itself', async () => {
    const origin = await serve(async (app, mcp) => {
      await app.register(createFastifyPlugin(mcp));
    });
    const url = `${origin}/mcp`;
    await expectRoundTripWithRequestInfo(url);
    await expectHostAndOriginChecks(url);
    await expectServerBodyChecks(url);
    const noType = await rawRequest(url, { headers: { accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(noType.status).toBe(415);
  });

  it('keeps Fastify parsing the app’s other routes', async () => {
    const origin = await serve(async (app, mcp) => {
      app.post('/echo', async (request) => ({ got: request.body }));
      await app.register(createFastifyPlugin(mcp));
    });
    const echoed = await rawRequest(`${origin}/echo`, { headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(JSON.parse(echoed.body)).toEqual({ got: { a: 1 } });
  });

  it('serves under a prefix and uses the body Fastify’s parser produced with bodyParser: fastify', async () => {
    const origin = await serve(async (app, mcp) => {
      await app.register(createFastifyPlugin(mcp, { path: '/endpoint', bodyParser: 'fastify' }), { prefix: '/api' });
    });
    const url = `${origin}/api/endpoint`;
    await expectRoundTripWithRequestInfo(url);
    await expectHostAndOriginChecks(url);
    // The body limit is still the server's (Fastify's own limit is 1 MiB); Content-Type and JSON errors are Fastify's.
    await expectServerBodyChecks(url, { contentType: false, json: false });
  });
});
