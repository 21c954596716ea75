// An MCP server built only from the published entry points, served over stdio (no argument) or
// Streamable HTTP on 127.0.0.1 (`http`: prints the URL on stdout, then serves until SIGTERM).
import { McpServer } from '@statemcp/server';
import { StdioServerTransport } from '@statemcp/stdio-transport';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { z } from 'zod';

function createServer() {
  const server = new McpServer({ name: 'pack-check-server', version: '1.0.0' });
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  return server;
}

if (process.argv[2] === 'http') {
  const mcp = createStreamableHttpServer({ connect: (transport) => createServer().connect(transport) });
  const http = await mcp.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${http.url.href}\n`);
  process.once('SIGTERM', () => {
    void mcp.close().then(() => http.close()).then(() => process.exit(0));
  });
} else {
  await createServer().connect(new StdioServerTransport());
}
