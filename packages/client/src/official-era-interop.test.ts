/**
 * Era negotiation against the official TypeScript SDK servers over a message channel (the
 * in-memory bridge of `@statemcp/testing`, which carries what stdio carries): `era: 'auto'`
 * discovers first, and falls back to the `initialize` handshake when the server is legacy.
 */
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { createOfficialBridge } from '@statemcp/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from './client.js';

const serverInfo = { name: 'official-server', version: '1.0.0' };

async function connectAuto(server: { connect: (transport: never) => Promise<void> }): Promise<{ client: Client; methods: string[] }> {
  const { ours, theirs } = createOfficialBridge();
  await server.connect(theirs as never);
  const methods: string[] = [];
  const client = new Client(
    { name: 'statemcp-era', version: '1.0.0' },
    { era: 'auto', inspect: (event) => void (event.type === 'message.out' && 'method' in event.message && methods.push(event.message.method)) },
  );
  await client.connect(ours);
  return { client, methods };
}

describe('Client era negotiation against the official servers', () => {
  it('falls back from server/discover to the handshake against the 1.x server (legacy)', async () => {
    const mcp = new McpServerV1(serverInfo);
    mcp.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
    const { client, methods } = await connectAuto(mcp);
    expect(methods.slice(0, 2)).toEqual(['server/discover', 'initialize']);
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(result.content).toEqual([{ type: 'text', text: '3' }]);
    await client.close();
  });

  // The 2.x McpServer connected to one message channel serves the legacy era there (it answers
  // server/discover -32601); its modern era is served per request by createMcpHandler, tested
  // over Streamable HTTP in @statemcp/http-transport (official-modern-interop.test.ts).
  it('falls back to the handshake against the 2.x server on a message channel, where it serves the legacy era', async () => {
    const mcp = new McpServerV2(serverInfo);
    mcp.registerTool('add', { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
    const { client, methods } = await connectAuto(mcp);
    expect(methods.slice(0, 2)).toEqual(['server/discover', 'initialize']);
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(result.content).toEqual([{ type: 'text', text: '3' }]);
    await client.close();
  });
});
