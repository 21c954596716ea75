/**
 * `@statemcp/http-transport/next`: a Streamable HTTP server as a Next.js App Router route
 * (`export const { GET, POST, DELETE } = createNextHandler(mcp)`), on the Node.js and Edge
 * runtimes. No dependency on `next`: route handlers are web `Request` → `Response` functions.
 */
export { createNextHandler } from './next-handler.js';
export type { NextHandlerOptions, NextRouteHandler, NextRouteHandlers } from './next-handler.js';
