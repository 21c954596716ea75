/**
 * The Hono 4 door of the Streamable HTTP server: a Hono handler that passes `c.req.raw` to
 * {@link StreamableHttpServer.handleFetch} and returns its `Response` (SSE streams included).
 *
 * Addresses: on `@hono/node-server` the socket's addresses are read from `c.env.incoming`, so
 * the Host check and `context.http.remoteAddress` behave as under `listen()`; elsewhere the bind
 * counts as loopback (Host checked) unless `addresses` says otherwise.
 */
import type { Context } from 'hono';

import type { HandleRequestOptions, StreamableHttpServer } from '../server/server-options.js';

/** Options of {@link createHonoHandler}. */
export interface HonoMcpOptions {
  /**
   * The client's and the local address of a request, for runtimes other than
   * `@hono/node-server` (e.g. from Hono's `getConnInfo` of `hono/bun` or `hono/deno`:
   * `(c) => ({ remoteAddress: getConnInfo(c).remote.address })`).
   */
  addresses?: (c: Context) => { remoteAddress?: string | undefined; localAddress?: string | undefined };
}

/** The socket of `@hono/node-server`'s `c.env.incoming`, when the app runs there. */
function nodeSocket(c: Context): { remoteAddress?: string | undefined; localAddress?: string | undefined } | undefined {
  const env: unknown = c.env;
  if (typeof env !== 'object' || env === null || !('incoming' in env)) return undefined;
  const socket = (env.incoming as { socket?: { remoteAddress?: string; localAddress?: string } } | undefined)?.socket;
  return socket === undefined ? undefined : { remoteAddress: socket.remoteAddress, localAddress: socket.localAddress };
}

/** The body a middleware already read (`c.req.json()`, `c.req.text()`, a validator), from Hono's cache. */
async function cachedBody(c: Context): Promise<unknown> {
  const cache = c.req.bodyCache;
  if (cache.json !== undefined) {
    try {
      return (await cache.json) as unknown;
    } catch {
      // the middleware's parse failed: fall back to the text, so the server answers -32700
    }
  }
  return c.req.text();
}

/**
 * A Hono handler serving `mcp`. Mount it on the MCP path for every method (`app.all`).
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { serve } from '@hono/node-server';
 * import { McpServer } from '@statemcp/server';
 * import { createStreamableHttpServer } from '@statemcp/http-transport/server';
 * import { createHonoHandler } from '@statemcp/http-transport/hono';
 *
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * const mcp = createStreamableHttpServer({ connect: (transport) => server.connect(transport) });
 * const app = new Hono();
 * app.all('/mcp', createHonoHandler(mcp));
 * serve({ fetch: app.fetch, port: 3000, hostname: '127.0.0.1' });
 * ```
 */
export function createHonoHandler(mcp: StreamableHttpServer, options: HonoMcpOptions = {}): (c: Context) => Promise<Response> {
  return async (c) => {
    const handleOptions: HandleRequestOptions = {};
    const addresses = options.addresses?.(c) ?? nodeSocket(c);
    if (addresses?.remoteAddress !== undefined) handleOptions.remoteAddress = addresses.remoteAddress;
    if (addresses?.localAddress !== undefined) handleOptions.localAddress = addresses.localAddress;
    if (c.req.raw.bodyUsed) handleOptions.parsedBody = await cachedBody(c);
    return mcp.handleFetch(c.req.raw, handleOptions);
  };
}
