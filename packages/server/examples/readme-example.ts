import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

/** A server with one tool, one resource and one prompt. */
export function createServer(): McpServer {
  const server = new McpServer({ name: 'example-server', version: '1.0.0' }, { instructions: 'Adds numbers and reviews code.' });

  server.registerTool(
    'add',
    {
      title: 'Add',
      description: 'Adds two numbers',
      inputSchema: { a: z.number(), b: z.number() },
      outputSchema: { sum: z.number() },
    },
    async ({ a, b }, extra) => {
      await extra.log('info', `adding ${a} and ${b}`);
      return { content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } };
    },
  );

  server.registerResource('config', 'config://app', { mimeType: 'application/json', description: 'App settings' }, (uri) => ({
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ theme: 'dark' }) }],
  }));

  server.registerPrompt(
    'review',
    { description: 'Asks for a code review', argsSchema: { code: z.string().describe('The code to review') } },
    ({ code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Please review:\n${code}` } }] }),
  );

  return server;
}

/** Connects a client over the in-memory transport, uses everything once, and closes. */
export async function main(): Promise<string[]> {
  const server = createServer();
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  await server.connect(serverTransport);

  const client = new Client({ name: 'example-client', version: '1.0.0' });
  await client.connect(clientTransport);

  const { tools } = await client.listTools();
  const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  const config = await client.readResource({ uri: 'config://app' });
  const prompt = await client.getPrompt({ name: 'review', arguments: { code: 'let x = 1' } });

  await client.close();
  await server.close();
  return [
    `tools: ${tools.map((tool) => tool.name).join(', ')}`,
    `add: ${JSON.stringify(sum.structuredContent)}`,
    `config: ${JSON.stringify(config.contents[0])}`,
    `prompt: ${prompt.messages.length} message(s)`,
  ];
}
