/**
 * `@statemcp/http-transport/express`: mounts a Streamable HTTP server in Express 5 in one
 * line. The adapter is a thin door onto the node:http front door of
 * `StreamableHttpServer`, so every default of `listen()` holds (Host/Origin checks, body
 * limit, JSON-RPC error bodies); a body that `express.json()` (or `express.text()` /
 * `express.raw()`) already read is used as is. Requires the optional peer dependency `express`.
 */
export { createExpressHandler } from './express-handler.js';
