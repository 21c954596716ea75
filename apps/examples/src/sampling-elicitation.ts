/**
 * A client that answers the server's requests: sampling (the client's model writes text) and
 * elicitation (the user fills a form). The server's tool asks for both while it runs.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';

/** The server: `plan_trip` asks the user where to go, then asks the model for a plan. */
export function createTripServer(): McpServer {
  const server = new McpServer({ name: 'trips', version: '1.0.0' });
  server.registerTool('plan_trip', { description: 'Plans a trip' }, async (_args, extra) => {
    const answer = await extra.elicit({
      mode: 'form',
      message: 'Where do you want to go?',
      requestedSchema: {
        type: 'object',
        properties: { city: { type: 'string', title: 'City' }, days: { type: 'integer', minimum: 1, default: 2 } },
        required: ['city'],
      },
    });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: `No trip (${answer.action})` }] };
    const { city, days } = answer.content as { city: string; days: number };

    const reply = await extra.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Plan ${days} days in ${city}` } }],
      maxTokens: 200,
    });
    const block = Array.isArray(reply.content) ? reply.content[0] : reply.content;
    return { content: [{ type: 'text', text: block?.type === 'text' ? block.text : '(no text)' }] };
  });
  return server;
}

/** Registers the handlers (they declare the capabilities), connects and calls the tool. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const server = createTripServer();
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);

  const client = new Client({ name: 'trip-client', version: '1.0.0' });
  client.onElicitation((request) => {
    log(`elicitation: ${request.message}`);
    // `days` is left out: the client fills it from the schema's default.
    return { action: 'accept', content: { city: 'Lisbon' } };
  });
  client.onSampling((request) => {
    const first = request.messages[0]?.content;
    log(`sampling: ${first !== undefined && 'text' in first ? String(first.text) : '?'}`);
    return { role: 'assistant', model: 'example-model', content: { type: 'text', text: 'Day 1: Alfama. Day 2: Belém.' } };
  });
  await client.connect(clientSide);

  const result = await client.callTool({ name: 'plan_trip' });
  log(`result: ${JSON.stringify(result.content[0])}`);

  await client.close();
  await server.close();
}
