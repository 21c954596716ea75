import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';

/** One tool that asks the user for their name — written once, served in both eras. */
export function createServer(): McpServer {
  // A cluster shares one key (at least 32 bytes); a single process may leave it out (random).
  const server = new McpServer({ name: 'greeter', version: '1.0.0' }, { requestState: { key: 'a secret of at least 32 bytes!!!' } });
  server.registerTool('greet', { description: 'Greets the user by name' }, async (_args, extra) => {
    const answer = await extra.elicit(
      { message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      { inputKey: 'user_name' },
    );
    const name = answer.action === 'accept' ? String(answer.content?.name) : 'stranger';
    return { content: [{ type: 'text', text: `Hello, ${name}! (${extra.protocolVersion})` }] };
  });
  return server;
}

/** Calls the tool from a legacy (2025-11-25) client and from a 2026-07-28 one; returns what each got. */
export async function main(): Promise<string[]> {
  const server = createServer();
  const lines: string[] = [];
  for (const era of ['legacy', 'auto'] as const) {
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    await server.connect(serverSide);
    // The same handler answers a server request (legacy) or an input request of an MRTR round (modern).
    const client = new Client({ name: 'greeter-client', version: '1.0.0' }, { era, onElicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) });
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'greet' });
    lines.push(result.content[0]?.type === 'text' ? result.content[0].text : '');
    await client.close();
  }
  return lines;
}
