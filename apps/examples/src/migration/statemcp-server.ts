/**
 * AFTER: the greeter of `official-server.ts`, ported to statemcp. Registration keeps its shape; the
 * handler's second argument is `extra` (`RequestExtra`) with `extra.log()` for logging; the HTTP
 * plumbing is one call, bound to 127.0.0.1 with Host/Origin checks on.
 */
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

/** The greeter, statemcp style. */
export function createGreeter(): McpServer {
  const server = new McpServer({ name: 'greeter', version: '1.0.0' });

  server.registerTool(
    'greet',
    { title: 'Greeting tool', description: 'Greets someone', inputSchema: { name: z.string().describe('Who to greet') } },
    ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
  );

  server.registerTool('multi-greet', { description: 'Greets twice, logging as it goes', inputSchema: { name: z.string() } }, async ({ name }, extra) => {
    for (const step of ['first', 'second']) await extra.log('info', `${step} greeting for ${name}`);
    return { content: [{ type: 'text', text: `Hello twice, ${name}!` }] };
  });

  server.registerPrompt(
    'greeting-template',
    { title: 'Greeting template', description: 'A prompt to greet someone', argsSchema: { name: z.string().describe('Who to greet') } },
    ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Please greet ${name} warmly.` } }] }),
  );

  // The read callback gets the URI as a string (1.x: a URL object).
  server.registerResource('greeting-resource', 'greetings://default', { title: 'Default greeting', mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri, text: 'Hello, world!' }],
  }));

  return server;
}

/** Serves it statelessly on 127.0.0.1: one `McpServer`, a fresh transport per POST. */
export async function listenGreeter(): Promise<{ url: URL; close: () => Promise<void> }> {
  const server = createGreeter();
  const mcp = createStreamableHttpServer({ stateless: true, connect: (transport) => server.connect(transport) });
  const http = await mcp.listen({ port: 0 });
  return {
    url: http.url,
    close: async () => {
      await http.close();
      await server.close();
    },
  };
}
