/**
 * `@statemcp/http-transport/hono`: mounts a Streamable HTTP server in Hono 4 in one line, on
 * any runtime Hono runs on. The handler is a thin door onto the fetch-style front door of
 * `StreamableHttpServer`, so every default of `listen()` holds (Host/Origin checks, body
 * limit, JSON-RPC error bodies); a body a middleware already read (`c.req.json()`, a validator)
 * is used as is. Requires the optional peer dependency `hono`.
 */
export { createHonoHandler } from './hono-handler.js';
export type { HonoMcpOptions } from './hono-handler.js';
