/**
 * What every framework adapter test checks against a real framework on 127.0.0.1: a
 * statemcp client round trip in which handlers see the HTTP request, and the secure defaults
 * of `listen()` (Host and Origin refused with 403, the body limit, the Content-Type and JSON
 * checks), answered with the server's own JSON-RPC error bodies.
 */
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';

import { StreamableHttpClientTransport } from '../src/client/index.js';
import { readSeenRequests } from './request-info-fixture.js';

/** The `maxBodyBytes` the adapter tests give the server, so a small body proves the limit. */
export const TEST_BODY_LIMIT = 2048;

const ACCEPT_BOTH = 'application/json, text/event-stream';

export interface RawAnswer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly body: string;
}

/** One request over node:http, so `Host` can be set freely. */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'POST', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
});

function expectJsonRpcError(answer: RawAnswer, status: number, code: number | undefined, text: string): void {
  expect(answer.status).toBe(status);
  expect(answer.contentType).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as { jsonrpc: string; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe('2.0');
  if (code !== undefined) expect(body.error.code).toBe(code);
  expect(body.error.message).toContain(text);
}

/** A statemcp client round trip; every handler kind sees the POST, the headers and 127.0.0.1. */
export async function expectRoundTripWithRequestInfo(url: string): Promise<void> {
  const seen = await readSeenRequests(new StreamableHttpClientTransport(url, { headers: { 'x-adapter-test': 'yes' } }));
  for (const request of [seen.tool, seen.resource, seen.prompt]) {
    expect(request).toMatchObject({ absent: false, method: 'POST', url, remoteAddress: '127.0.0.1', frozen: true });
    expect(request).toMatchObject({ headers: { 'x-adapter-test': 'yes' } });
  }
}

/** Host and Origin checks as under `listen()` on a loopback bind. */
export async function expectHostAndOriginChecks(url: string): Promise<void> {
  const headers = { accept: ACCEPT_BOTH, 'content-type': 'application/json' };
  expectJsonRpcError(await rawRequest(url, { headers: { ...headers, host: 'evil.example' }, body: initialize }), 403, undefined, 'Host not allowed');
  expectJsonRpcError(await rawRequest(url, { headers: { ...headers, origin: 'http://evil.example' }, body: initialize }), 403, undefined, 'Origin not allowed');
  const { port } = new URL(url);
  expect((await rawRequest(url, { headers: { ...headers, host: `localhost:${port}` }, body: initialize })).status).toBe(200);
}

/** The body checks of the server itself: the size limit (413), Content-Type (415), JSON (-32700). */
export async function expectServerBodyChecks(url: string, checks: { contentType?: boolean; json?: boolean } = {}): Promise<void> {
  const headers = { accept: ACCEPT_BOTH, 'content-type': 'application/json' };
  const padded = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { pad: 'x'.repeat(TEST_BODY_LIMIT) } } });
  expectJsonRpcError(await rawRequest(url, { headers, body: padded }), 413, -32600, 'Payload Too Large');
  if (checks.contentType !== false) {
    expectJsonRpcError(await rawRequest(url, { headers: { ...headers, 'content-type': 'text/plain' }, body: initialize }), 415, -32600, 'Content-Type');
  }
  if (checks.json !== false) {
    expectJsonRpcError(await rawRequest(url, { headers, body: '{"jsonrpc": "2.0",' }), 400, -32700, 'Parse error');
  }
}
