/**
 * Interop in the 2026-07-28 era: our `Client` over our Streamable HTTP client transport
 * against the official TypeScript SDK v2 server (`createMcpHandler` from
 * `@modelcontextprotocol/server`), the handler's web-standard `fetch` face handed to the
 * transport as its `fetch` (no socket: every POST is a real `Request`/`Response` pair).
 */
import { McpServer, acceptedContent, createMcpHandler, inputRequired } from '@modelcontextprotocol/server';
import { Client } from '@statemcp/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StreamableHttpClientTransport } from './streamable-http.js';

const URL_ = 'http://127.0.0.1:9/mcp';

function officialModernServer() {
  const seen: Request[] = [];
  const handler = createMcpHandler(() => {
    const mcp = new McpServer({ name: 'official-v2', version: '2.4.0' });
    mcp.registerTool('add', { description: 'Adds', inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }));
    mcp.registerTool('greet', { description: 'Asks for a name first' }, (ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'user_name', z.object({ name: z.string() }));
      if (answer === undefined) {
        return inputRequired({
          inputRequests: { user_name: inputRequired.elicit({ message: 'Your name?', requestedSchema: z.object({ name: z.string() }) }) },
        });
      }
      return { content: [{ type: 'text', text: `Hello, ${answer.name}!` }] };
    });
    return mcp;
  });
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    seen.push(request.clone());
    return handler.fetch(request);
  };
  return { fetch: fetch, seen };
}

describe('StreamableHttpClientTransport (modern era) against the official v2 server', () => {
  it('discovers, lists and calls with the routing headers and no session', async () => {
    const server = officialModernServer();
    const client = new Client({ name: 'statemcp', version: '1' }, { era: 'auto' });
    await client.connect(new StreamableHttpClientTransport(URL_, { fetch: server.fetch }));
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverInfo?.name).toBe('official-v2');
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['add', 'greet']);
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(sum.content).toEqual([{ type: 'text', text: '5' }]);
    const call = server.seen.find((request) => request.headers.get('mcp-method') === 'tools/call');
    expect(call?.headers.get('mcp-name')).toBe('add');
    expect(call?.headers.get('mcp-protocol-version')).toBe('2026-07-28');
    expect(server.seen.every((request) => request.method === 'POST' && !request.headers.has('mcp-session-id'))).toBe(true);
    await client.close();
    expect(server.seen.some((request) => request.method === 'DELETE' || request.method === 'GET')).toBe(false);
  });

  it('answers an MRTR elicitation through onElicitation', async () => {
    const server = officialModernServer();
    const client = new Client({ name: 'statemcp', version: '1' }, { era: 'modern', onElicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) });
    await client.connect(new StreamableHttpClientTransport(URL_, { fetch: server.fetch }));
    const result = await client.callTool({ name: 'greet', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    await client.close();
  });
});
