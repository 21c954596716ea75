/**
 * Interop across both eras over real 127.0.0.1 sockets, against one dual-era `McpServer`
 * behind our Streamable HTTP server: the official SDK 2.x client pinned to 2026-07-28 (a
 * cacheable list, and a tool call with a Multi Round-Trip elicitation round, all stateless),
 * and the official SDK 1.x client beside it in the legacy era (a session, the handshake).
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';

import { recordingFetch } from '../../test/mcp-fixture.js';
import type { ListeningServer } from './server-options.js';
import { createStreamableHttpServer } from './streamable-http-server.js';

const running: ListeningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** One tool that asks the user for a name: an elicitation round in either era. */
function dualEraServer(): McpServer {
  const mcp = new McpServer({ name: 'dual-era', version: '1.0.0' }, { cache: { ttlMs: 30_000, cacheScope: 'public' } });
  mcp.registerTool('greet', { description: 'Asks for a name and greets it' }, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
    return { content: [{ type: 'text', text: `Hello ${String(answer.content?.name)} (${extra.protocolVersion})` }] };
  });
  return mcp;
}

async function start(): Promise<URL> {
  const mcp = dualEraServer();
  const listening = await createStreamableHttpServer({ connect: (transport) => mcp.connect(transport) }).listen({ host: '127.0.0.1' });
  running.push(listening);
  return listening.url;
}

describe('the official SDK clients against one dual-era server over Streamable HTTP', () => {
  it('v2 in 2026-07-28: a cacheable list, and a call with an elicitation round, without a session', async () => {
    const url = await start();
    const recorder = recordingFetch();
    const client = new ClientV2({ name: 'official-v2', version: '2.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    await client.connect(new TransportV2(url, { fetch: recorder.fetch }));
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(['greet']);
    expect(listed).toMatchObject({ ttlMs: 30_000, cacheScope: 'public' });
    const greeted = await client.callTool({ name: 'greet', arguments: {} });
    expect(greeted.content).toEqual([{ type: 'text', text: 'Hello Ada (2026-07-28)' }]);
    expect(asked).toEqual(['Name?']);
    // The round went out as two POSTs of tools/call: the first answered with input_required, the retry completed.
    const calls = recorder.exchanges.filter((exchange) => exchange.rpc === 'tools/call');
    expect(calls).toHaveLength(2);
    expect(recorder.exchanges.map((exchange) => exchange.rpc)).not.toContain('initialize');
    expect(recorder.exchanges.every((exchange) => exchange.headers['mcp-session-id'] === undefined)).toBe(true);
    await client.close();
  });

  it('v1 beside it in the legacy era: the handshake, a session, the elicitation as a server-to-client request', async () => {
    const url = await start();
    const client = new ClientV1({ name: 'official-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Grace' } }));
    const transport = new TransportV1(url);
    await client.connect(transport);
    expect(transport.sessionId).toBeDefined();
    expect(client.getServerVersion()).toMatchObject({ name: 'dual-era' });
    const greeted = await client.callTool({ name: 'greet', arguments: {} });
    expect(greeted.content).toEqual([{ type: 'text', text: `Hello Grace (${String(transport.protocolVersion)})` }]);
    expect(transport.protocolVersion).not.toBe('2026-07-28');
    await transport.terminateSession();
    await client.close();
  });
});
