/**
 * `connect()`'s `timeoutMs` bounds the whole connect over Streamable HTTP with the default era
 * `auto`: discovery and the fallback handshake share it. Against a server that never answers,
 * or that opens an SSE stream and sends only lines that are not JSON-RPC, `connect()` rejects
 * with a `RequestTimeoutError` once `timeoutMs` has passed; against one that answers HTML, with
 * a typed HTTP error well before it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@statemcp/client';
import { McpError, RequestTimeoutError } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';

import { StreamableHttpClientTransport } from './streamable-http.js';

/**
 * Short for the tests that wait it out, yet above `SLACK_MS`: a connect that gave the fallback
 * handshake a fresh `timeoutMs` after discovery's (2 × `TIMEOUT_MS`) still fails the upper bound.
 */
const TIMEOUT_MS = 1_200;
/** Room for a loaded machine on the upper bound. */
const SLACK_MS = 1_000;
/** For the test that must fail before its timeout: long, so a loaded machine does not race it. */
const LONG_TIMEOUT_MS = 2_000;

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback HTTP server that answers every request with `answer`. */
async function hostile(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.once('end', () => answer(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/mcp`;
}

async function connectFailure(url: string, timeoutMs = TIMEOUT_MS): Promise<{ error: unknown; elapsed: number }> {
  const client = new Client({ name: 'deadline', version: '0.0.0' });
  closers.push(() => client.terminate());
  const started = performance.now();
  const error = await client.connect(new StreamableHttpClientTransport(url), { timeoutMs }).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  return { error, elapsed: performance.now() - started };
}

describe('connect() over Streamable HTTP with era auto', () => {
  it('rejects with a RequestTimeoutError within its timeoutMs against a server that never answers', async () => {
    const url = await hostile(() => undefined);
    const { error, elapsed } = await connectFailure(url);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + SLACK_MS);
  });

  it('rejects with a RequestTimeoutError within its timeoutMs against an SSE stream of garbage', async () => {
    const url = await hostile((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: <html>not json-rpc</html>\n\n');
    });
    const { error, elapsed } = await connectFailure(url);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + SLACK_MS);
  });

  it('rejects with a typed error before its timeoutMs against a server that answers HTML', async () => {
    const url = await hostile((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>not an MCP server</html>');
    });
    const { error, elapsed } = await connectFailure(url, LONG_TIMEOUT_MS);
    expect(error).toBeInstanceOf(McpError);
    expect(elapsed).toBeLessThan(LONG_TIMEOUT_MS);
  });
});
