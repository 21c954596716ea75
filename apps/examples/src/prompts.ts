/** A prompt whose arguments are a zod schema, with completion of one argument. */
import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

const LANGUAGES = ['typescript', 'python', 'rust', 'go'];

/** The server: `review` asks for a code review in a given language. */
export function createPromptServer(): McpServer {
  const server = new McpServer({ name: 'reviewer', version: '1.0.0' });
  server.registerPrompt(
    'review',
    {
      title: 'Code review',
      argsSchema: { code: z.string().describe('The code'), language: z.string().describe('Its language') },
      complete: { language: (value) => LANGUAGES.filter((language) => language.startsWith(value)) },
    },
    ({ code, language }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Review this ${language}:\n${code}` } }],
    }),
  );
  return server;
}

/** Lists the prompt, completes its `language` argument and gets it. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const server = createPromptServer();
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'prompts-example', version: '1.0.0' });
  await client.connect(clientSide);

  const [prompt] = await client.listAllPrompts();
  log(`prompt ${prompt?.name}: ${JSON.stringify(prompt?.arguments?.map((argument) => argument.name))}`);

  const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'language', value: 'ty' } });
  log(`complete 'ty': ${completion.completion.values.join(', ')}`);

  const result = await client.getPrompt({ name: 'review', arguments: { code: 'let x = 1', language: 'typescript' } });
  const first = result.messages[0]?.content;
  log(`message: ${first?.type === 'text' ? first.text : '?'}`);

  await client.close();
  await server.close();
}
