/**
 * @statemcp/http-transport — Streamable HTTP for MCP: a server with one core and two front
 * doors (node:http and fetch-style), a session manager, an event store for resumability,
 * secure defaults (127.0.0.1, Host/Origin validation, body limit), a legacy HTTP+SSE
 * endpoint; and a fetch-based client that recovers (reconnection with backoff, `retry:`,
 * `Last-Event-ID`, re-initialize on 404, legacy fallback). WebSocket lives in the
 * `@statemcp/http-transport/ws` subpath so `ws` stays an optional peer dependency.
 */
export * from './server/index.js';
export * from './client/index.js';
