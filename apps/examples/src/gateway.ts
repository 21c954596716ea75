/**
 * A gateway: one upstream server (here in-process; usually a stdio child) re-served to many
 * clients over Streamable HTTP. The gateway copies the upstream tools with their JSON Schemas
 * and forwards each call, passing the caller's cancellation on.
 */
import { Client } from '@statemcp/client';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

/** The upstream server the gateway fronts. */
function createUpstream(): McpServer {
  const upstream = new McpServer({ name: 'upstream', version: '1.0.0' });
  upstream.registerTool('weather', { description: 'Weather in a city', inputSchema: { city: z.string() } }, ({ city }) => ({
    content: [{ type: 'text', text: `Sunny in ${city}` }],
  }));
  return upstream;
}

/** A server that exposes every tool of `upstream` and forwards calls to it. */
export async function createGateway(upstream: Client): Promise<McpServer> {
  const gateway = new McpServer({ name: 'gateway', version: '1.0.0' });
  for (const tool of await upstream.listAllTools()) {
    gateway.registerTool(
      tool.name,
      { description: tool.description ?? '', inputSchema: tool.inputSchema },
      (args, extra) => upstream.callTool({ name: tool.name, arguments: args }, { signal: extra.signal }),
    );
  }
  return gateway;
}

/** Starts upstream and gateway, calls the gateway from two HTTP clients, and stops. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const upstreamServer = createUpstream();
  const [upstreamClientSide, upstreamServerSide] = InMemoryTransport.createPair();
  await upstreamServer.connect(upstreamServerSide);
  const upstream = new Client({ name: 'gateway-upstream', version: '1.0.0' }, { era: 'legacy' });
  await upstream.connect(upstreamClientSide);

  const gateway = await createGateway(upstream);
  const mcp = createStreamableHttpServer({ connect: (transport) => gateway.connect(transport) });
  const http = await mcp.listen({ port: 0 });

  const clients = await Promise.all(
    ['alice', 'bob'].map(async (name) => {
      const client = new Client({ name, version: '1.0.0' }, { era: 'legacy' });
      await client.connect(new StreamableHttpClientTransport(http.url));
      return client;
    }),
  );
  for (const [index, client] of clients.entries()) {
    const result = await client.callTool({ name: 'weather', arguments: { city: index === 0 ? 'Oslo' : 'Rome' } });
    log(`client ${index + 1}: ${JSON.stringify(result.content[0])}`);
  }
  log(`gateway sessions: ${mcp.sessions.size}`);

  await Promise.all(clients.map((client) => client.close()));
  await http.close();
  await gateway.close();
  await upstream.close();
  await upstreamServer.close();
}
