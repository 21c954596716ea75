// @ts-check
// server.mjs — an MCP server with one tool, over stdio (default) or Streamable HTTP (--http).
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { McpServer } from '@statemcp/server';
import { StdioServerTransport } from '@statemcp/stdio-transport';
import { z } from 'zod';

const server = new McpServer({ name: 'hello-server', version: '1.0.0' });

server.registerTool(
  'add',
  { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
  ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
);

if (process.argv.includes('--http')) {
  // One McpServer serves every HTTP session; the server binds to 127.0.0.1 by default.
  const http = createStreamableHttpServer({ connect: (transport) => server.connect(transport) });
  const listening = await http.listen({ port: Number(process.env.PORT ?? 3000) });
  console.log(listening.url.href); // e.g. http://127.0.0.1:3000/mcp
} else {
  await server.connect(new StdioServerTransport()); // stdout is the protocol: log to stderr
  console.error('hello-server: ready on stdio');
}
