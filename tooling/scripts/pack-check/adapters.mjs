// The framework adapters from the published subpaths (`/express`, `/fastify`, `/hono`), each
// with its real framework installed beside the tarballs: an `initialize` POST through each must be
// answered 200 with a session id, and a foreign Host refused with 403. Exits non-zero otherwise.
import { request } from 'node:http';
import { serve } from '@hono/node-server';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { createExpressHandler } from '@statemcp/http-transport/express';
import { createFastifyPlugin } from '@statemcp/http-transport/fastify';
import { createHonoHandler } from '@statemcp/http-transport/hono';
import { McpServer } from '@statemcp/server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pack-check', version: '1.0.0' } },
});

function post(url, host) {
  return new Promise((resolve, reject) => {
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    if (host !== undefined) headers.host = host;
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, session: res.headers['mcp-session-id'] }));
    });
    req.on('error', reject);
    req.end(initialize);
  });
}

async function check(label, url) {
  const answer = await post(url);
  const foreign = await post(url, 'evil.example');
  if (answer.status !== 200 || typeof answer.session !== 'string' || foreign.status !== 403) {
    throw new Error(`${label}: initialize ${answer.status} (session ${String(answer.session)}), foreign Host ${foreign.status}`);
  }
  console.log(`${label}: initialize 200 with a session id, foreign Host 403`);
}

const server = new McpServer({ name: 'pack-check-adapters', version: '1.0.0' });
const mcp = createStreamableHttpServer({ connect: (transport) => server.connect(transport) });

const expressApp = express();
expressApp.use(express.json());
expressApp.all('/mcp', createExpressHandler(mcp));
const expressServer = expressApp.listen(0, '127.0.0.1');
await new Promise((resolve) => expressServer.once('listening', resolve));
await check('express', `http://127.0.0.1:${expressServer.address().port}/mcp`);

const fastifyApp = Fastify();
await fastifyApp.register(createFastifyPlugin(mcp));
await check('fastify', `${await fastifyApp.listen({ port: 0, host: '127.0.0.1' })}/mcp`);

const honoApp = new Hono();
honoApp.all('/mcp', createHonoHandler(mcp));
const honoServer = serve({ fetch: honoApp.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((resolve) => honoServer.once('listening', resolve));
await check('hono', `http://127.0.0.1:${honoServer.address().port}/mcp`);

await mcp.close();
for (const http of [expressServer, fastifyApp.server, honoServer]) http.closeAllConnections();
await Promise.all([new Promise((resolve) => expressServer.close(resolve)), fastifyApp.close(), new Promise((resolve) => honoServer.close(resolve))]);
