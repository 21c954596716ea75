// One MCP server mounted in Express 5, Fastify 5 and Hono 4, one line each, with the defaults of
// `listen()` (Host/Origin checks, body limit). Its tool reads the HTTP request that carried the
// call (`extra.http`; undefined on stdio). A statemcp client then calls it through each framework.
import { serve } from '@hono/node-server';
import { Client } from '@statemcp/client';
import { McpServer } from '@statemcp/server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { createStreamableHttpServer } from '../src/server/index.js';
import { StreamableHttpClientTransport } from '../src/client/index.js';
import { createExpressHandler } from '../src/express/index.js';
import { createFastifyPlugin } from '../src/fastify/index.js';
import { createHonoHandler } from '../src/hono/index.js';

const server = new McpServer({ name: 'frameworks-example', version: '1.0.0' });
server.registerTool('whoami', { description: 'Describes the HTTP request of this call' }, (_args, extra) => {
  const http = extra.http; // method, url, headers, remoteAddress (read-only)
  const text = http === undefined ? 'no HTTP request (stdio)' : `${http.method} ${new URL(http.url).pathname} from ${http.remoteAddress ?? '?'} as ${http.headers['x-user'] ?? 'anonymous'}`;
  return { content: [{ type: 'text', text }] };
});
const mcp = createStreamableHttpServer({ connect: (transport) => server.connect(transport) });

async function callWhoami(url: string): Promise<string> {
  const client = new Client({ name: 'example-client', version: '1.0.0' });
  await client.connect(new StreamableHttpClientTransport(url, { headers: { 'x-user': 'ada' } }));
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  await client.close();
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // Express: express.json() may run first; the body it parsed is used.
  const expressApp = express();
  expressApp.use(express.json());
  expressApp.all('/mcp', createExpressHandler(mcp));
  const expressServer = expressApp.listen(0, '127.0.0.1');
  await new Promise((resolve) => expressServer.once('listening', resolve));
  log(`express: ${await callWhoami(`http://127.0.0.1:${(expressServer.address() as AddressInfo).port}/mcp`)}`);

  // Fastify: a plugin; the server reads the body itself under its own limit.
  const fastifyApp = Fastify();
  await fastifyApp.register(createFastifyPlugin(mcp, { path: '/mcp' }));
  const fastifyOrigin = await fastifyApp.listen({ port: 0, host: '127.0.0.1' });
  log(`fastify: ${await callWhoami(`${fastifyOrigin}/mcp`)}`);

  // Hono: any runtime; on @hono/node-server the socket's addresses are used.
  const honoApp = new Hono();
  honoApp.all('/mcp', createHonoHandler(mcp));
  const honoServer = serve({ fetch: honoApp.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => honoServer.once('listening', resolve));
  log(`hono: ${await callWhoami(`http://127.0.0.1:${(honoServer.address() as AddressInfo).port}/mcp`)}`);

  await mcp.close();
  for (const http of [expressServer, fastifyApp.server, honoServer]) {
    if ('closeAllConnections' in http) http.closeAllConnections();
  }
  await Promise.all([
    new Promise((resolve) => expressServer.close(resolve)),
    fastifyApp.close(),
    new Promise((resolve) => honoServer.close(resolve)),
  ]);
}
