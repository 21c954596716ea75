import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { compose, proxy } from '@statemcp/server/compose';
import { z } from 'zod';

/** Mounts two servers on one gateway, lists and calls through it, and closes. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const weather = new McpServer({ name: 'weather', version: '1.0.0' });
  weather.registerTool('forecast', { inputSchema: { city: z.string() } }, ({ city }) => ({ content: [{ type: 'text', text: `Sunny in ${city}` }] }));
  const notes = new McpServer({ name: 'notes', version: '1.0.0' });
  notes.registerResource('todo', 'file:///todo.md', { mimeType: 'text/markdown' }, (uri) => ({ contents: [{ uri, text: '- ship' }] }));
  notes.registerTool('ask', {}, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Title?', requestedSchema: { type: 'object', properties: { title: { type: 'string' } } } });
    return { content: [{ type: 'text', text: `noted ${String(answer.content?.title)}` }] };
  });

  const gateway = new McpServer({ name: 'gateway', version: '1.0.0' });
  const composition = compose(gateway);
  await composition.mount('weather', weather); // a local server
  // A remote upstream: any transport, opened again on every reconnection (here in memory).
  await composition.mount('notes', proxy(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    await notes.connect(serverSide);
    return clientSide;
  }));

  const client = new Client({ name: 'app', version: '1.0.0' });
  client.onElicitation(() => ({ action: 'accept', content: { title: 'gateway' } }));
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await gateway.connect(serverSide);
  await client.connect(clientSide);
  log(`tools: ${(await client.listAllTools()).map((tool) => tool.name).join(', ')}`);
  log(`resources: ${(await client.listAllResources()).map((resource) => resource.uri).join(', ')}`);
  const forecast = await client.callTool({ name: 'weather_forecast', arguments: { city: 'Lisbon' } });
  log(`forecast: ${JSON.stringify(forecast.content[0])}`);
  const noted = await client.callTool({ name: 'notes_ask' }); // the upstream's elicitation reaches this client
  log(`ask: ${JSON.stringify(noted.content[0])}`);

  await client.close();
  await composition.close();
  await gateway.close();
}
