/**
 * Issue 32, "redirects": a redirect must never carry an MCP request's credentials, session id,
 * custom headers or body to a place the user did not choose. The MCP server and the
 * "attacker" are two real servers on 127.0.0.1 with different ports (different origins); the
 * MCP server answers 307 with the attacker's URL. The attacker must receive nothing, and the
 * client must fail with a `RedirectRefusedError` that names the `Location`.
 */
import { Client } from '@statemcp/client';
import { OAuthClientProvider } from '@statemcp/client/auth';
import { Agent as HttpsAgent } from 'node:https';
import { SseClientTransport, StreamableHttpClientTransport, createNodeHttpFetch, nodeHttpFetch, type StreamState } from '@statemcp/http-transport/client';
import { RedirectRefusedError, type TransportSink } from '@statemcp/protocol';
import { guardRedirects, redirectHop } from '@statemcp/protocol/internal';
import { afterEach, describe, expect, it } from 'vitest';

import { causeChain, redirectTo, rejectionOf, startRecordingServer, startTlsServer, type RecordingServer } from '../src/redirects-servers.js';

const servers: RecordingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function attackerAndMcp(mcpHandler?: (attackerUrl: string) => Parameters<typeof startRecordingServer>[0]): Promise<{ attacker: RecordingServer; mcp: RecordingServer; location: string }> {
  const attacker = await startRecordingServer();
  servers.push(attacker);
  const location = `${attacker.url}/steal`;
  const mcp = await startRecordingServer(mcpHandler?.(location) ?? redirectTo(location));
  servers.push(mcp);
  return { attacker, mcp, location };
}

/** A sink that collects what a transport reports. */
function collectingSink(): TransportSink & { errors: Error[] } {
  const errors: Error[] = [];
  return {
    errors,
    onMessage: () => undefined,
    onError: (error) => errors.push(error),
    onClose: () => undefined,
  };
}

const initialize = { jsonrpc: '2.0' as const, id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'victim', version: '1' } } };

/** Credentials of every kind an MCP request carries. */
const authProvider = {
  headers: () => ({ authorization: 'Bearer secret-token', dpop: 'proof.jwt.value' }),
  onResponse: () => false,
};

function expectRefused(error: unknown, location: string): RedirectRefusedError {
  const refused = causeChain(error).find((item): item is RedirectRefusedError => item instanceof RedirectRefusedError);
  expect(refused, `expected a RedirectRefusedError, got ${String(error)}`).toBeInstanceOf(RedirectRefusedError);
  const typed = refused as RedirectRefusedError;
  expect(typed.code).toBe('REDIRECT_REFUSED');
  expect(typed.location).toBe(location);
  expect(typed.message).toContain(location);
  return typed;
}

describe('redirects', () => {
  describe('StreamableHttpClientTransport', () => {
    it('sends nothing to the Location of a cross-origin 307 on a POST (default fetch), and rejects naming it', async () => {
      const { attacker, mcp, location } = await attackerAndMcp();
      const transport = new StreamableHttpClientTransport(`${mcp.url}/mcp`, { authProvider, headers: { 'x-api-key': 'api-key-value' }, sessionId: 'session-1', standaloneStream: false });
      await transport.start(collectingSink());
      const error = await rejectionOf(transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }));
      expect(attacker.requests).toEqual([]);
      const refused = expectRefused(error, location);
      expect(refused.refusal).toBe('cross-origin');
      expect(refused.status).toBe(307);
      expect(mcp.requests.map((r) => r.headers['mcp-session-id'])).toEqual(['session-1']);
      await transport.terminate();
    });

    it('sends nothing to the Location when the application passes the global fetch', async () => {
      const { attacker, mcp, location } = await attackerAndMcp();
      const transport = new StreamableHttpClientTransport(`${mcp.url}/mcp`, { fetch: globalThis.fetch, authProvider, headers: { 'x-api-key': 'api-key-value' }, sessionId: 'session-1', standaloneStream: false });
      await transport.start(collectingSink());
      const error = await rejectionOf(transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }));
      expect(attacker.requests).toEqual([]);
      expectRefused(error, location);
      await transport.terminate();
    });

    it('refuses a same-origin redirect of an MCP request too, naming where it points', async () => {
      const { attacker, mcp } = await attackerAndMcp();
      const moved = await startRecordingServer((request, res) => {
        if (request.path === '/mcp') res.writeHead(307, { location: '/mcp/' }).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
      servers.push(moved);
      const transport = new StreamableHttpClientTransport(`${moved.url}/mcp`, { authProvider, sessionId: 'session-1', standaloneStream: false });
      await transport.start(collectingSink());
      const refused = expectRefused(await rejectionOf(transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })), `${moved.url}/mcp/`);
      expect(refused.refusal).toBe('not-followed');
      expect(moved.requests.map((r) => r.path)).toEqual(['/mcp']);
      expect(attacker.requests.length + mcp.requests.length).toBe(0);
      await transport.terminate();
    });

    it('gives Client.connect the typed error, with no fallback to legacy SSE and nothing sent to the Location', async () => {
      const { attacker, mcp, location } = await attackerAndMcp();
      const client = new Client({ name: 'victim', version: '1' });
      const transport = new StreamableHttpClientTransport(`${mcp.url}/mcp`, { authProvider });
      const error = await rejectionOf(client.connect(transport));
      expect(attacker.requests).toEqual([]);
      expectRefused(error, location);
      // The client may try the other era's handshake, but each attempt is refused the same way and no GET (legacy fallback) follows.
      expect(mcp.requests.every((r) => r.method === 'POST')).toBe(true);
      await client.close();
    });

    it('sends nothing to the Location of a redirected standalone GET (SSE) stream; the stream dies with the typed error', async () => {
      const { attacker, mcp, location } = await attackerAndMcp();
      let dead: (state: StreamState) => void = () => undefined;
      const died = new Promise<StreamState>((resolve) => (dead = resolve));
      const transport = new StreamableHttpClientTransport(`${mcp.url}/mcp`, {
        authProvider,
        headers: { 'x-api-key': 'api-key-value' },
        sessionId: 'session-1',
        onStreamStateChange: (change) => {
          if (change.stream === 'standalone' && change.state.kind === 'dead') dead(change.state);
        },
      });
      await transport.start(collectingSink());
      const state = await died;
      expect(attacker.requests).toEqual([]);
      expect(state.kind === 'dead' ? expectRefused(state.error, location).refusal : undefined).toBe('cross-origin');
      expect(mcp.requests.map((r) => r.method)).toEqual(['GET']);
      await transport.terminate();
    });

    it('sends nothing to the Location when the legacy HTTP+SSE fallback GET is redirected', async () => {
      const { attacker, mcp, location } = await attackerAndMcp((to) => (request, res) => {
        if (request.method === 'POST') res.writeHead(405).end();
        else redirectTo(to)(request, res);
      });
      const transport = new StreamableHttpClientTransport(`${mcp.url}/mcp`, { headers: { authorization: 'Bearer secret-token', 'x-api-key': 'api-key-value' } });
      await transport.start(collectingSink());
      const error = await rejectionOf(transport.send(initialize));
      expect(attacker.requests).toEqual([]);
      expectRefused(error, location);
      expect(mcp.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
      await transport.terminate();
    });
  });

  describe('SseClientTransport', () => {
    it('sends nothing to the Location of a redirected SSE GET', async () => {
      const { attacker, mcp, location } = await attackerAndMcp();
      const transport = new SseClientTransport(`${mcp.url}/sse`, { headers: { authorization: 'Bearer secret-token', 'x-api-key': 'api-key-value' } });
      const error = await rejectionOf(transport.start(collectingSink()));
      expect(attacker.requests).toEqual([]);
      expectRefused(error, location);
    });
  });

  describe('OAuth discovery', () => {
    it('sends nothing to another origin when the protected resource metadata redirects there', async () => {
      const { attacker, mcp, location } = await attackerAndMcp((to) => (request, res) => {
        if (request.path.startsWith('/.well-known/')) {
          redirectTo(to)(request, res);
          return;
        }
        const metadata = `http://${request.headers.host ?? ''}/.well-known/oauth-protected-resource/mcp`;
        res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${metadata}"` }).end();
      });
      const provider = new OAuthClientProvider({ grant: { type: 'client_credentials' }, client: { client_id: 'c', client_secret: 's' } });
      const transport = new StreamableHttpClientTransport(`${mcp.url}/mcp`, { authProvider: provider, legacyFallback: false });
      await transport.start(collectingSink());
      const error = await rejectionOf(transport.send(initialize));
      expect(attacker.requests).toEqual([]);
      expectRefused(error, location);
      expect(mcp.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /mcp', 'GET /.well-known/oauth-protected-resource/mcp']);
      await transport.terminate();
    });
  });

  describe('nodeHttpFetch', () => {
    it('refuses a cross-origin 307 and sends nothing there', async () => {
      const { attacker, mcp, location } = await attackerAndMcp();
      const error = await rejectionOf(nodeHttpFetch(`${mcp.url}/mcp`, { method: 'POST', headers: { authorization: 'Bearer secret-token', 'mcp-session-id': 'session-1' }, body: '{"secret":true}' }));
      expect(attacker.requests).toEqual([]);
      expectRefused(error, location);
    });

    it('follows a same-origin 307 with the method and body, but without credentials, session id or custom headers', async () => {
      const site = await startRecordingServer((request, res) => {
        if (request.path === '/old') res.writeHead(307, { location: '/new' }).end();
        else res.end(`${request.method} ${request.path} ${request.body}`);
      });
      servers.push(site);
      const headers = { authorization: 'Bearer secret-token', dpop: 'proof', cookie: 'a=b', 'mcp-session-id': 'session-1', 'x-api-key': 'api-key-value', 'content-type': 'application/json', accept: 'application/json' };
      const response = await nodeHttpFetch(`${site.url}/old`, { method: 'POST', headers, body: '{"a":1}' });
      await expect(response.text()).resolves.toBe('POST /new {"a":1}');
      const followed = site.requests[1];
      expect(followed?.headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/json' });
      for (const name of ['authorization', 'dpop', 'cookie', 'mcp-session-id', 'x-api-key']) expect(followed?.headers[name]).toBeUndefined();
    });
  });

  describe('downgrade', () => {
    it('refuses an https: server redirecting to http: (nodeHttpFetch and the transport), sending nothing there', async () => {
      const plain = await startRecordingServer();
      servers.push(plain);
      const tls = await startTlsServer((_req, res) => {
        res.writeHead(308, { location: `${plain.url}/mcp` }).end();
      });
      servers.push({ url: tls.url, requests: [], close: () => tls.close() });
      const agent = new HttpsAgent({ ca: tls.ca, keepAlive: false });
      const fetch = createNodeHttpFetch({ httpsAgent: agent });
      try {
        const direct = await rejectionOf(fetch(`${tls.url}/mcp`, { method: 'POST', headers: { authorization: 'Bearer secret-token' }, body: '{}' }));
        expect(expectRefused(direct, `${plain.url}/mcp`).refusal).toBe('downgrade');
        const transport = new StreamableHttpClientTransport(`${tls.url}/mcp`, { fetch, authProvider, legacyFallback: false });
        await transport.start(collectingSink());
        const error = await rejectionOf(transport.send(initialize));
        expect(expectRefused(error, `${plain.url}/mcp`).refusal).toBe('downgrade');
        expect(plain.requests).toEqual([]);
        await transport.terminate();
      } finally {
        agent.destroy();
      }
    });

    it('refuses to follow https: to http:, even to the same host', async () => {
      expect(() => redirectHop(new URL('https://127.0.0.1:8443/mcp'), 307, 'http://127.0.0.1:8443/mcp', 'POST', 'same-origin', 0)).toThrow(RedirectRefusedError);
      let calls = 0;
      const fake: typeof fetch = async () => {
        calls++;
        return new Response(null, { status: 308, headers: { location: 'http://127.0.0.1:8443/mcp' } });
      };
      const error = await rejectionOf(guardRedirects(fake, 'same-origin')('https://127.0.0.1:8443/mcp', { method: 'POST', body: '{}' }));
      expect(expectRefused(error, 'http://127.0.0.1:8443/mcp').refusal).toBe('downgrade');
      expect(calls).toBe(1);
    });
  });
});
