/**
 * `@statemcp/http-transport/fastify`: mounts a Streamable HTTP server in Fastify 5 in one
 * line. The plugin routes the MCP path to the node:http front door of
 * `StreamableHttpServer`, so every default of `listen()` holds (Host/Origin checks, body
 * limit, JSON-RPC error bodies). Requires the optional peer dependency `fastify`.
 */
export { createFastifyPlugin } from './fastify-plugin.js';
export type { FastifyMcpOptions } from './fastify-plugin.js';
