import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';

/** Opens a listen stream in the 2026-07-28 era, reads two notifications from it, and closes it. */
export async function main(log: (...parts: unknown[]) => void = console.log): Promise<void> {
  // An in-process server, so that this example runs on its own; any transport works the same.
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('noop', {}, () => ({ content: [] }));
  server.registerResource('notes', 'file:///notes.md', { mimeType: 'text/markdown' }, (uri) => ({ contents: [{ uri, text: '# Notes' }] }));
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);

  const client = new Client({ name: 'watcher', version: '1.0.0' }, { era: 'auto' });
  await client.connect(clientSide);
  const stream = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['file:///notes.md'] });
  log(`${client.era} stream ${String(stream.id)} acknowledged:`, stream.acknowledged);

  // Changes on the server side: a new tool, an edited resource.
  server.registerTool('summarize', {}, () => ({ content: [] }));
  void server.notifyResourceUpdated('file:///notes.md');

  let seen = 0;
  for await (const { method, params } of stream) {
    log(method, params.uri ?? '');
    if (++seen === 2) break; // leaving the loop closes the stream
  }
  log('ended:', (await stream.ended).reason);
  await client.close();
}
