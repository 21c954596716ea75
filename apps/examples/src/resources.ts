/**
 * Resources: a static resource, a URI template with completion and listing, and a
 * subscription that tells the client when a resource changed.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';

const notes = new Map<string, string>([
  ['welcome', 'Hello!'],
  ['todo', 'Write the docs'],
]);

/** The server: `notes://index` lists the notes; `notes://{name}` reads one. */
export function createNotesServer(): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });

  server.registerResource('index', 'notes://index', { mimeType: 'text/plain', description: 'All note names' }, (uri) => ({
    contents: [{ uri, mimeType: 'text/plain', text: [...notes.keys()].join('\n') }],
  }));

  server.registerResourceTemplate(
    'note',
    'notes://{name}',
    {
      mimeType: 'text/plain',
      // `list` makes every note show up in resources/list; `complete` completes the variable.
      list: () => [...notes.keys()].map((name) => ({ uri: `notes://${name}`, name })),
      complete: { name: (value) => [...notes.keys()].filter((name) => name.startsWith(value)) },
    },
    (uri, { name }) => ({ contents: [{ uri, mimeType: 'text/plain', text: notes.get(name) ?? '' }] }),
  );

  return server;
}

/** Lists, reads, completes, subscribes, and sees an update arrive. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const server = createNotesServer();
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'resources-example', version: '1.0.0' }, { era: 'legacy' });
  await client.connect(clientSide);

  log(`resources: ${(await client.listAllResources()).map((resource) => resource.uri).join(', ')}`);
  log(`templates: ${(await client.listAllResourceTemplates()).map((template) => template.uriTemplate).join(', ')}`);

  const todo = await client.readResource({ uri: 'notes://todo' });
  log(`notes://todo: ${JSON.stringify(todo.contents[0])}`);

  const completion = await client.complete({ ref: { type: 'ref/resource', uri: 'notes://{name}' }, argument: { name: 'name', value: 'w' } });
  log(`complete 'w': ${completion.completion.values.join(', ')}`);

  const updated = new Promise<string>((resolve) => client.onResourceUpdated((uri) => resolve(uri)));
  await client.subscribeResource({ uri: 'notes://todo' });
  notes.set('todo', 'Write the docs (done)');
  await server.notifyResourceUpdated('notes://todo');
  log(`updated: ${await updated}`);

  await client.close();
  await server.close();
}
