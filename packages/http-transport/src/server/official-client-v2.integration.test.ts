/**
 * Interop with the official TypeScript SDK 2.x client (`@modelcontextprotocol/client`) over
 * real 127.0.0.1 sockets: its `StreamableHTTPClientTransport` against our Streamable HTTP
 * server with `@statemcp/server`'s `McpServer` behind it.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { LEGACY_PROTOCOL_VERSIONS } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';

import { FIXTURE_TOOLS, SERVER_NAME, Servers, firstText, recordingFetch } from '../../test/mcp-fixture.js';
import { InMemoryEventStore } from './event-store.js';

const servers = new Servers();
afterEach(() => servers.closeAll());

function officialClient(): Client {
  const client = new Client({ name: 'official-v2', version: '2.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler('sampling/createMessage', () => ({ model: 'test-model', role: 'assistant', content: { type: 'text', text: 'hi from v2' } }));
  return client;
}

describe('interop with the official TypeScript SDK client (2.x) over Streamable HTTP', () => {
  it('initializes, lists and calls tools, and closes cleanly with DELETE', async () => {
    const { url, http } = await servers.start();
    const recorder = recordingFetch();
    const client = officialClient();
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recorder.fetch });
    await client.connect(transport);
    expect(client.getServerVersion()).toMatchObject({ name: SERVER_NAME, version: '1.0.0' });
    expect(transport.sessionId).toBeDefined();
    expect(http.sessions.ids()).toEqual([transport.sessionId]);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(FIXTURE_TOOLS);
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'from v2' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'from v2' }]);

    const sessionId = transport.sessionId;
    await transport.terminateSession();
    expect(http.sessions.size).toBe(0);
    await client.close();

    const initialize = recorder.exchanges.find((e) => e.rpc === 'initialize');
    expect(initialize?.status).toBe(200);
    const version = (initialize?.body as { params: { protocolVersion: string } }).params.protocolVersion;
    const later = recorder.exchanges.filter((e) => e !== initialize);
    expect(later.length).toBeGreaterThan(0);
    for (const exchange of later) {
      expect(exchange.headers['mcp-session-id']).toBe(sessionId);
      expect(exchange.headers['mcp-protocol-version']).toBe(version);
    }
    const deleted = recorder.exchanges.filter((e) => e.method === 'DELETE');
    expect(deleted.map((e) => e.status)).toEqual([200]);
    // Nothing the client sent was refused.
    expect(recorder.exchanges.filter((e) => e.method === 'POST' && (e.status ?? 0) >= 400)).toEqual([]);
  });

  it('receives progress and answers sampling on the request stream', async () => {
    const { url } = await servers.start();
    const client = officialClient();
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    const progress: number[] = [];
    const counted = await client.callTool({ name: 'count', arguments: {} }, { onprogress: (update) => progress.push(update.progress) });
    expect(firstText(counted)).toBe('counted');
    expect(progress).toEqual([1, 2, 3]);
    const sampled = await client.callTool({ name: 'ask_model', arguments: {} });
    expect(firstText(sampled)).toBe('model said: hi from v2');
    await transport.terminateSession();
    await client.close();
  });

  it('works in JSON response mode, in SSE response mode and with a resumable event store', async () => {
    for (const options of [{ enableJsonResponse: true }, { enableJsonResponse: false }, { eventStore: new InMemoryEventStore() }]) {
      const { url, http } = await servers.start(options);
      const client = officialClient();
      const transport = new StreamableHTTPClientTransport(new URL(url));
      await client.connect(transport);
      expect((await client.listTools()).tools).toHaveLength(FIXTURE_TOOLS.length);
      expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'mode' } }))).toBe('mode');
      await transport.terminateSession();
      expect(http.sessions.size).toBe(0);
      await client.close();
    }
  });

  it("speaks 2026-07-28 statelessly when 'auto' version negotiation probes the dual-era server", async () => {
    const { url, http } = await servers.start();
    const recorder = recordingFetch();
    const client = new Client({ name: 'official-v2-auto', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recorder.fetch });
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe(SERVER_NAME);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'modern' } }))).toBe('modern');
    expect(recorder.exchanges[0]).toMatchObject({ rpc: 'server/discover', status: 200 });
    expect(recorder.exchanges.map((e) => e.rpc)).not.toContain('initialize');
    expect(http.sessions.size).toBe(0);
    await client.close();
  });

  it("falls back to initialize when 'auto' version negotiation probes a legacy-only server", async () => {
    const { url, http } = await servers.start({ supportedProtocolVersions: LEGACY_PROTOCOL_VERSIONS });
    const recorder = recordingFetch();
    const client = new Client({ name: 'official-v2-auto', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
    const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: recorder.fetch });
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe(SERVER_NAME);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'negotiated' } }))).toBe('negotiated');
    // The probe declared the stateless-era revision this server does not serve: refused with
    // 400, then the plain legacy handshake.
    expect(recorder.exchanges.slice(0, 2).map((e) => [e.rpc, e.status, e.headers['mcp-protocol-version']])).toEqual([
      ['server/discover', 400, '2026-07-28'],
      ['initialize', 200, undefined],
    ]);
    await transport.terminateSession();
    expect(http.sessions.size).toBe(0);
    await client.close();
  });
});
