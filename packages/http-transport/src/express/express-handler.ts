/**
 * The Express 5 door of the Streamable HTTP server: an Express request handler that passes
 * the request to {@link StreamableHttpServer.handleNodeRequest}, with the body a body parser
 * may already have read. Express requests are node:http requests, so the socket's addresses
 * decide the Host check exactly as under `listen()`.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';

import type { HandleRequestOptions, StreamableHttpServer } from '../server/server-options.js';

/**
 * An Express request handler serving `mcp`. Mount it on the MCP path for every method
 * (`app.all`); it answers everything itself, so `next` is called only with an error the
 * server could not turn into a response.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { McpServer } from '@statemcp/server';
 * import { createStreamableHttpServer } from '@statemcp/http-transport/server';
 * import { createExpressHandler } from '@statemcp/http-transport/express';
 *
 * const server = new McpServer({ name: 'demo', version: '1.0.0' });
 * const mcp = createStreamableHttpServer({ connect: (transport) => server.connect(transport) });
 * const app = express();
 * app.all('/mcp', createExpressHandler(mcp));
 * app.listen(3000, '127.0.0.1');
 * ```
 */
export function createExpressHandler(mcp: StreamableHttpServer): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const options: HandleRequestOptions = {};
    // express.json() and friends consume the stream and leave the result in req.body.
    if (req.body !== undefined && req.readableEnded) options.parsedBody = req.body;
    mcp.handleNodeRequest(req, res, options).catch(next);
  };
}
