// Issue 18, item 10: a client pointed at a wrong path of a web server that answers with a
// big HTML 404 page. The error must say the status, the URL and a short excerpt of the body
// once — not carry the whole page, twice.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Near the top of the page, so any excerpt (raw or with tags stripped) includes it. */
const PAGE_TITLE = 'Nothing here (error page)';
const PAGE_START = `<!DOCTYPE html><html><head><title>${PAGE_TITLE}</title>`;
const PAGE_END = 'END-OF-THE-404-PAGE';
const PAGE = `${PAGE_START}</head><body><h1>Not Found</h1>${'<p>The requested URL was not found on this server. '.repeat(100)}</p><footer>${PAGE_END}</footer></body></html>`;
/** Long enough for status, URL and an excerpt; far shorter than the page. */
const MAX_MESSAGE = 1_000;

describe('Streamable HTTP client POSTing to a wrong path', () => {
  let server: Server;
  let origin = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([
    { name: 'default options (legacy fallback on)', options: {} },
    { name: 'legacy fallback off', options: { legacyFallback: false } },
  ])('reports status, URL and a short excerpt once, with $name', async ({ options }) => {
    const url = `${origin}/wrong/path`;
    const client = new Client({ name: 'fault-suite-wrong-url', version: '1.0.0' });
    const error = await client.connect(new StreamableHttpClientTransport(new URL(url), options), { timeoutMs: 10_000 }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    await client.close().catch(() => undefined);

    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('404');
    expect(message).toContain(url);
    expect(message.split(PAGE_TITLE).length - 1, `the excerpt appears once in: ${message.slice(0, 2000)}`).toBe(1);
    expect(message).not.toContain(PAGE_END);
    expect(message.length, message.slice(0, 2000)).toBeLessThan(MAX_MESSAGE);
  });
});
