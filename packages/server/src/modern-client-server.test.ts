/**
 * statemcp's client and server meet in the 2026-07-28 era: the client discovers (no handshake),
 * every request carries its `_meta`, and results come back with `resultType` and the server's
 * identity — and a client pinned to the legacy era still gets the handshake from the same server.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './index.js';

function echoServer(): McpServer {
  const server = new McpServer({ name: 'dual-era', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }, extra) => ({
    content: [{ type: 'text', text: `${text} at ${extra.protocolVersion}` }],
  }));
  return server;
}

async function connect(era: 'auto' | 'legacy'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await echoServer().connect(serverSide);
  const client = new Client({ name: 'era-client', version: '1.0.0' }, { era });
  await client.connect(clientSide);
  return client;
}

describe('McpServer with statemcp Client across eras', () => {
  it('serves a discovering client in the modern era, request by request', async () => {
    const client = await connect('auto');
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'hi at 2026-07-28' }]);
    expect((result as Record<string, unknown>)['resultType']).toBe('complete');
    expect(result._meta?.['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'dual-era', version: '1.0.0' });
    await client.close();
  });

  it('still runs the handshake for a client pinned to the legacy era', async () => {
    const client = await connect('legacy');
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'hi at 2025-11-25' }]);
    await client.close();
  });
});
