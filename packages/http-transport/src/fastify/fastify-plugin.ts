/**
 * The Fastify 5 door of the Streamable HTTP server: a plugin whose route hands the raw
 * node:http request and response to {@link StreamableHttpServer.handleNodeRequest} (the reply
 * is hijacked, so SSE streams are written as under `listen()`).
 *
 * Bodies: by default the plugin's own (encapsulated) context reads no body, so the server
 * applies its own limit, Content-Type check and JSON-RPC parse errors, word for word as under
 * `listen()`. With `bodyParser: 'fastify'` Fastify's parsers (and `bodyLimit`) run first and
 * the body they produced is used as is.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

import type { HandleRequestOptions, StreamableHttpServer } from '../server/server-options.js';

/** Options of {@link createFastifyPlugin}. */
export interface FastifyMcpOptions {
  /** The MCP endpoint, relative to the plugin's prefix. Default `/mcp`. */
  path?: string;
  /**
   * `'statemcp'` (default): the server reads the body itself (its `maxBodyBytes`, its 413 / 415
   * / -32700 answers); Fastify's parsers are switched off inside the plugin only.
   * `'fastify'`: Fastify's content-type parsers and `bodyLimit` run first and their result is
   * used; their errors are answered by Fastify.
   */
  bodyParser?: 'statemcp' | 'fastify';
}

/**
 * A Fastify plugin serving `mcp` on one path for every method. Register it without
 * `fastify-plugin`, so its body handling stays inside its own context.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { McpServer } from '@statemcp/server';
 * import { createStreamableHttpServer } from '@statemcp/http-transport/server';
 * import { createFastifyPlugin } from '@statemcp/http-transport/fastify';
 *
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * const mcp = createStreamableHttpServer({ connect: (transport) => server.connect(transport) });
 * const app = Fastify();
 * await app.register(createFastifyPlugin(mcp, { path: '/mcp' }));
 * await app.listen({ port: 3000, host: '127.0.0.1' });
 * ```
 */
export function createFastifyPlugin(mcp: StreamableHttpServer, options: FastifyMcpOptions = {}): FastifyPluginAsync {
  const path = options.path ?? '/mcp';
  const ownBody = (options.bodyParser ?? 'statemcp') === 'statemcp';
  return async (instance: FastifyInstance): Promise<void> => {
    if (ownBody) {
      instance.removeAllContentTypeParsers();
      // Leaves the stream unread: the server reads it under its own limit.
      instance.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    }
    instance.all(path, async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const handleOptions: HandleRequestOptions = {};
      if (request.body !== undefined && request.body !== null) handleOptions.parsedBody = request.body;
      await mcp.handleNodeRequest(request.raw, reply.raw, handleOptions);
    });
  };
}
