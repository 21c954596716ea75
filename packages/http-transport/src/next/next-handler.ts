/**
 * The Next.js App Router door of the Streamable HTTP server: one call gives the `GET`, `POST`
 * and `DELETE` exports of a route handler (`app/…/route.ts`), each a web `Request` → `Response`
 * function onto {@link StreamableHttpServer.handleFetch}, so the same route runs on the Node.js
 * and the Edge runtime and SSE answers stream as the server writes them.
 *
 * The route's URL path (Next's `basePath` included, since the request URL carries it) is the
 * server's `path`; the Host/Origin check and authentication (`authenticate`, `authorization`)
 * are the server's options, as for every other door.
 */
import type { StreamableHttpServer } from '../server/server-options.js';

/** A route handler method of the App Router. */
export type NextRouteHandler = (request: Request) => Promise<Response>;

/** The route module's exports {@link createNextHandler} returns. */
export interface NextRouteHandlers {
  readonly GET: NextRouteHandler;
  readonly POST: NextRouteHandler;
  readonly DELETE: NextRouteHandler;
}

/** Options of {@link createNextHandler}. */
export interface NextHandlerOptions {
  /**
   * The client's address for `context.http.remoteAddress`, read from a header a trusted proxy
   * sets (on Vercel `(request) => request.headers.get('x-real-ip') ?? undefined`). Default: none,
   * since a route handler is not told the socket's address.
   */
  remoteAddress?: (request: Request) => string | undefined;
}

/**
 * The `GET`, `POST` and `DELETE` handlers of an App Router route serving `mcp`.
 *
 * @example
 * ```ts
 * // app/api/mcp/route.ts
 * import { McpServer } from '@statemcp/server';
 * import { createStreamableHttpServer } from '@statemcp/http-transport/server';
 * import { createNextHandler } from '@statemcp/http-transport/next';
 *
 * const server = new McpServer({ name: 'next-demo', version: '1.0.0' });
 * const mcp = createStreamableHttpServer({ path: '/api/mcp', connect: (transport) => server.connect(transport) });
 * export const { GET, POST, DELETE } = createNextHandler(mcp);
 * ```
 */
export function createNextHandler(mcp: StreamableHttpServer, options: NextHandlerOptions = {}): NextRouteHandlers {
  const handle: NextRouteHandler = (request) => {
    const remoteAddress = options.remoteAddress?.(request);
    return mcp.handleFetch(request, remoteAddress === undefined ? {} : { remoteAddress });
  };
  return { GET: handle, POST: handle, DELETE: handle };
}
