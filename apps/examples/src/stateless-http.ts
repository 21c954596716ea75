/**
 * A stateless Streamable HTTP server: no session, every POST served by a fresh transport, so
 * any instance behind a load balancer can answer any request.
 */
import { Client } from '@statemcp/client';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

/** Starts the server on a free loopback port, calls it from a client and stops it. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const server = new McpServer({ name: 'stateless', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));

  const mcp = createStreamableHttpServer({ stateless: true, connect: (transport) => server.connect(transport) });
  const http = await mcp.listen({ port: 0 }); // 127.0.0.1 unless you say otherwise
  log(`listening on ${http.url.origin}`);

  const client = new Client({ name: 'stateless-client', version: '1.0.0' });
  await client.connect(new StreamableHttpClientTransport(http.url, { standaloneStream: false }));
  const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  log(`echo: ${JSON.stringify(result.content[0])}; sessions held by the server: ${mcp.sessions.size}`);

  await client.close();
  await http.close();
  await server.close();
}
