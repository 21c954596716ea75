/**
 * The fetch middleware on the default Node fetch (`nodeHttpFetch`) between `@statemcp/client`
 * and the Streamable HTTP server on a real 127.0.0.1 socket: a front that refuses the first
 * POST with 503 + `Retry-After: 0` is retried through, the extra header reaches the server,
 * and every exchange is logged.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@statemcp/client';
import { afterEach, describe, expect, it } from 'vitest';

import { buildFixtureServer, firstText } from '../../test/mcp-fixture.js';
import { createStreamableHttpServer } from '../server/index.js';
import { headersMiddleware, loggingMiddleware, withFetchMiddleware, type FetchLogEntry } from './fetch-middleware.js';
import { retryMiddleware, type RetryInfo } from './fetch-retry.js';
import { nodeHttpFetch } from './node-http-fetch.js';
import { StreamableHttpClientTransport } from './streamable-http.js';

let front: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (front === undefined ? resolve() : front.close(() => resolve())));
  front = undefined;
});

describe('fetch middleware over nodeHttpFetch against a real server', () => {
  it('retries a refused POST, adds the header, logs each attempt, and the client never notices', async () => {
    const mcp = buildFixtureServer();
    const http = createStreamableHttpServer({ connect: (transport) => mcp.connect(transport) });
    const seen: IncomingHttpHeaders[] = [];
    let refusals = 1;
    front = createServer((req, res) => {
      seen.push(req.headers);
      if (req.method === 'POST' && refusals > 0) {
        refusals--;
        req.resume();
        res.writeHead(503, { 'retry-after': '0' }).end();
        return;
      }
      void http.handleNodeRequest(req, res);
    });
    await new Promise<void>((resolve) => front?.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(front.address() as AddressInfo).port}/mcp`);

    const log: FetchLogEntry[] = [];
    const retries: RetryInfo[] = [];
    const transport = new StreamableHttpClientTransport(url, {
      fetch: withFetchMiddleware(
        nodeHttpFetch,
        headersMiddleware({ 'x-tenant': 'acme' }),
        retryMiddleware({ onRetry: (info) => retries.push(info) }),
        loggingMiddleware((entry) => log.push(entry)),
      ),
      standaloneStream: false,
    });
    const client = new Client({ name: 'middleware-test', version: '1.0.0' }, { defaultTimeoutMs: 10_000 });
    await client.connect(transport);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'through' } }))).toBe('through');
    await client.close();

    expect(retries).toEqual([expect.objectContaining({ method: 'POST', status: 503, delayMs: 0, retry: 1 })]);
    expect(log[0]).toMatchObject({ method: 'POST', status: 503 });
    expect(log[1]).toMatchObject({ method: 'POST', status: 200 });
    expect(log.every((entry) => entry.url === url.href && entry.durationMs >= 0)).toBe(true);
    // The modern era (the client's default against this dual-era server): discovery (refused once, then answered) and the call, no session.
    expect(seen.map((headers) => headers['mcp-method'])).toEqual(['server/discover', 'server/discover', 'tools/call']);
    expect(seen.every((headers) => headers['x-tenant'] === 'acme')).toBe(true);
  });
});
