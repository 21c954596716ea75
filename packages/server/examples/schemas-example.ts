import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { createAjvValidator } from '@statemcp/protocol/ajv';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

/** Prompt arguments from a zod object; raw JSON Schemas checked by Ajv with formats on both sides. */
export async function main(): Promise<string[]> {
  const server = new McpServer({ name: 'schemas-server', version: '1.0.0' }, { jsonSchemaValidator: createAjvValidator() });

  server.registerPrompt(
    'translate',
    { argsSchema: z.object({ text: z.string().describe('What to translate'), to: z.enum(['fr', 'de']).optional() }) },
    ({ text, to }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Translate into ${to ?? 'fr'}: ${text}` } }] }),
  );

  server.registerTool(
    'invite',
    { inputSchema: { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] } },
    (args) => ({ content: [{ type: 'text', text: `invited ${String(args.email)}` }] }),
  );

  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'schemas-client', version: '1.0.0' }, { jsonSchemaValidator: createAjvValidator() });
  await client.connect(clientTransport);

  const { prompts } = await client.listPrompts();
  const prompt = await client.getPrompt({ name: 'translate', arguments: { text: 'hello', to: 'de' } });
  const refused = await client.callTool({ name: 'invite', arguments: { email: 'not-an-address' } });

  await client.close();
  await server.close();
  return [
    `arguments: ${JSON.stringify(prompts[0]?.arguments)}`,
    `prompt: ${JSON.stringify(prompt.messages[0]?.content)}`,
    `invite: ${JSON.stringify(refused.content[0])}`,
  ];
}
