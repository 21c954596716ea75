/**
 * BEFORE: a greeter server written with the official SDK 1.x (`@modelcontextprotocol/sdk`), in the
 * shape of that SDK's own Streamable HTTP example — a tool, a tool that logs while it works, a
 * prompt and a resource — served statelessly over `node:http`. The migration guide ports it to
 * statemcp (`statemcp-server.ts`); a test runs the same client against both.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** The greeter, official SDK 1.x style. */
export function createOfficialGreeter(): McpServer {
  const server = new McpServer({ name: 'greeter', version: '1.0.0' }, { capabilities: { logging: {} } });

  server.registerTool(
    'greet',
    { title: 'Greeting tool', description: 'Greets someone', inputSchema: { name: z.string().describe('Who to greet') } },
    async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
  );

  server.registerTool(
    'multi-greet',
    { description: 'Greets twice, logging as it goes', inputSchema: { name: z.string() } },
    async ({ name }, extra) => {
      for (const step of ['first', 'second']) {
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: `${step} greeting for ${name}` } });
      }
      return { content: [{ type: 'text', text: `Hello twice, ${name}!` }] };
    },
  );

  server.registerPrompt(
    'greeting-template',
    { title: 'Greeting template', description: 'A prompt to greet someone', argsSchema: { name: z.string().describe('Who to greet') } },
    async ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Please greet ${name} warmly.` } }] }),
  );

  server.registerResource(
    'greeting-resource',
    'greetings://default',
    { title: 'Default greeting', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, text: 'Hello, world!' }] }),
  );

  return server;
}

/** Serves it statelessly on 127.0.0.1 (a new server and transport per POST, as the 1.x examples do). */
export async function listenOfficialGreeter(): Promise<{ url: URL; close: () => Promise<void> }> {
  const http = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const server = createOfficialGreeter();
    // No sessionIdGenerator: stateless, as the 1.x examples write `sessionIdGenerator: undefined`.
    const transport = new StreamableHTTPServerTransport({});
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
