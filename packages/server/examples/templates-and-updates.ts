import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer, UriTemplate } from '@statemcp/server';

/** A level-4 resource template, then a template and a prompt updated and renamed while a client is connected. */
export async function main(): Promise<string[]> {
  const server = new McpServer({ name: 'files-server', version: '1.0.0' });

  // `root` is a string, `path` a list of segments, `rev` an optional query parameter.
  const files = server.registerResourceTemplate(
    'files',
    'files://{root}{/path*}{?rev}',
    { mimeType: 'text/plain', complete: { root: (value) => ['docs', 'src'].filter((root) => root.startsWith(value)) } },
    (uri, { root, path, rev }) => ({ contents: [{ uri, text: `${root}: ${path.join(' > ')} @ ${rev ?? 'latest'}` }] }),
  );
  const prompt = server.registerPrompt('summarize', { description: 'Summarize a file' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'Summarize it.' } }],
  }));

  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'example-client', version: '1.0.0' });
  // Listening before connect(): in the 2026-07-28 era the client then opens its listen stream for prompts as it connects.
  const changed = new Promise<void>((resolve) => client.onPromptsListChanged(resolve));
  await client.connect(clientTransport);

  const uri = new UriTemplate('files://{root}{/path*}{?rev}').expand({ root: 'docs', path: ['guide', 'intro.md'], rev: '7' });
  const read = await client.readResource({ uri });

  // Both changes reach the client as one notification per list.
  files.update({ name: 'documents', uriTemplate: 'docs://{+path}', mimeType: 'text/markdown' }, (docUri, { path }) => ({
    contents: [{ uri: docUri, text: `# ${path}` }],
  }));
  prompt.update({ name: 'summarise', description: 'Summarise a file' });
  await changed;

  const { resourceTemplates } = await client.listResourceTemplates();
  const { prompts } = await client.listPrompts();
  const doc = await client.readResource({ uri: 'docs://guide/intro.md' });

  await client.close();
  await server.close();
  return [
    `uri: ${uri}`,
    `read: ${JSON.stringify(read.contents[0])}`,
    `templates: ${resourceTemplates.map((template) => `${template.name} ${template.uriTemplate}`).join(', ')}`,
    `prompts: ${prompts.map((p) => p.name).join(', ')}`,
    `doc: ${JSON.stringify(doc.contents[0])}`,
  ];
}
