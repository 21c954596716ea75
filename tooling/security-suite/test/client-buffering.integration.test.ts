/**
 * Issue 32, "client buffering": a hostile server must not make the client buffer without
 * bound. The server below does the handshake, then answers a tool call with a body that never
 * ends (an endless JSON document, an SSE line or event that never ends, an endless error page).
 * The call must fail with `MessageTooLargeError` naming the bound, the client must cut the
 * connection (the server sees it hang up long before its safety cap), and the client stays
 * usable to close.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@statemcp/client';
import { OAuthClientProvider } from '@statemcp/client/auth';
import { SseClientTransport, StreamableHttpClientTransport, type StreamableHttpClientTransportOptions } from '@statemcp/http-transport/client';
import { MessageTooLargeError } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';

import { startHostileServer, writeEndless, type HostileBody, type HostileServer } from '../src/client-buffering-servers.js';
import { causeChain, rejectionOf } from '../src/redirects-servers.js';

const MiB = 1024 * 1024;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

type TooLarge = InstanceType<typeof MessageTooLargeError>;

function tooLarge(error: unknown): TooLarge {
  const found = causeChain(error).find((item): item is TooLarge => item instanceof MessageTooLargeError);
  expect(found, `expected a MessageTooLargeError, got ${String(error)}`).toBeInstanceOf(MessageTooLargeError);
  const typed = found as TooLarge;
  expect(typed.code).toBe('MESSAGE_TOO_LARGE');
  return typed;
}

async function hostile(body: HostileBody): Promise<HostileServer> {
  const server = await startHostileServer(body);
  cleanups.push(() => server.close());
  return server;
}

async function connectedClient(url: string, options: StreamableHttpClientTransportOptions): Promise<Client> {
  const client = new Client({ name: 'victim', version: '1' });
  cleanups.push(() => client.close());
  await client.connect(new StreamableHttpClientTransport(url, options));
  return client;
}

describe('client buffering', () => {
  describe('StreamableHttpClientTransport', () => {
    it.each([
      ['an endless JSON body', 'json'],
      ['an SSE line that never ends', 'sse-line'],
      ['an SSE event whose blank line never comes', 'sse-event'],
    ] as const)('fails the call on %s past maxMessageSize, and hangs up', async (_what, body) => {
      const server = await hostile(body);
      const client = await connectedClient(server.url, { maxMessageSize: 256 * 1024 });
      const error = await rejectionOf(client.callTool({ name: 'anything', arguments: {} }));
      const answer = await server.firstAnswer;
      expect(answer.written).toBeLessThan(8 * MiB);
      expect(answer.cutByClient).toBe(true);
      expect(tooLarge(error).message).toContain('256 KiB');
    });

    it('bounds a JSON body at 16 MiB by default', async () => {
      const server = await hostile('json');
      const client = await connectedClient(server.url, {});
      const error = await rejectionOf(client.callTool({ name: 'anything', arguments: {} }));
      const answer = await server.firstAnswer;
      expect(answer.written).toBeLessThan(24 * MiB);
      expect(answer.cutByClient).toBe(true);
      expect(tooLarge(error).message).toContain('16 MiB');
    });

    it('reads only the start of an endless error page, and hangs up', async () => {
      const server = await hostile('error-page');
      const client = await connectedClient(server.url, {});
      const error = await rejectionOf(client.callTool({ name: 'anything', arguments: {} }));
      expect(String(error)).toContain('HTTP 500');
      const answer = await server.firstAnswer;
      expect(answer.written).toBeLessThan(8 * MiB);
      expect(answer.cutByClient).toBe(true);
    });
  });

  describe('SseClientTransport', () => {
    it('fails start() when the first event never ends, and hangs up', async () => {
      let ended: Promise<{ written: number; cutByClient: boolean }> | undefined;
      const server = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        ended = writeEndless(res, 'event: endpoint\ndata: /messages', 'x'.repeat(64 * 1024));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
      const transport = new SseClientTransport(`http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`, { maxMessageSize: 256 * 1024 });
      const error = await rejectionOf(transport.start({ onMessage: () => undefined, onClose: () => undefined }));
      const answer = await ended;
      expect(answer?.written).toBeLessThan(8 * MiB);
      expect(answer?.cutByClient).toBe(true);
      expect(tooLarge(error).message).toContain('256 KiB');
    });
  });

  describe('OAuth discovery', () => {
    it('fails when the protected resource metadata never ends, and hangs up', async () => {
      let ended: Promise<{ written: number; cutByClient: boolean }> | undefined;
      const server = createServer((req, res) => {
        if (req.url?.startsWith('/.well-known/') === true) {
          res.writeHead(200, { 'content-type': 'application/json' });
          ended = writeEndless(res, '{"resource":"', 'x'.repeat(64 * 1024));
          return;
        }
        req.resume();
        res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="http://${req.headers.host ?? ''}/.well-known/oauth-protected-resource/mcp"` }).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      cleanups.push(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      );
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const provider = new OAuthClientProvider({ grant: { type: 'client_credentials' }, client: { client_id: 'c', client_secret: 's' } });
      const transport = new StreamableHttpClientTransport(url, { authProvider: provider, legacyFallback: false });
      await transport.start({ onMessage: () => undefined, onClose: () => undefined });
      cleanups.push(() => transport.terminate());
      const initialize = { jsonrpc: '2.0' as const, id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'victim', version: '1' } } };
      const error = await rejectionOf(transport.send(initialize));
      const answer = await ended;
      expect(answer?.written).toBeLessThan(8 * MiB);
      expect(answer?.cutByClient).toBe(true);
      expect(tooLarge(error).message).toContain('1 MiB');
    });
  });
});
