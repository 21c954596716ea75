import { Client } from '@statemcp/client';
import { readAppView, toolUi, withAppsSupport } from '@statemcp/client/apps';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { clientSupportsApps, registerAppTool, registerAppView } from '@statemcp/server/apps';
import { z } from 'zod';

/** A tool with an MCP Apps view, read by a client that declares the extension. */
export async function main(): Promise<string[]> {
  const server = new McpServer({ name: 'clock-server', version: '1.0.0' });

  registerAppView(server, 'clock-view', 'ui://clock/view.html', {
    html: '<!doctype html><html><body><time id="now"></time><script>/* render tool results */</script></body></html>',
    csp: { connectDomains: ['https://time.example.com'] },
    permissions: { clipboardWrite: {} },
    prefersBorder: false,
  });

  registerAppTool(
    server,
    'show_time',
    { inputSchema: { zone: z.string() }, ui: { resourceUri: 'ui://clock/view.html' } },
    ({ zone }, extra) => ({
      // Text for the model, and for hosts that render no view.
      content: [{ type: 'text', text: clientSupportsApps(extra) ? `Showing the time in ${zone}` : `It is 12:00 in ${zone}` }],
      structuredContent: { zone, time: '12:00' },
    }),
  );

  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'host', version: '1.0.0' }, { capabilities: withAppsSupport() });
  await client.connect(clientTransport);

  const { tools } = await client.listTools();
  const ui = tools[0] === undefined ? undefined : toolUi(tools[0]);
  const view = await readAppView(client, ui?.resourceUri ?? '');
  const result = await client.callTool({ name: 'show_time', arguments: { zone: 'UTC' } });

  await client.close();
  await server.close();
  return [`tool ui: ${JSON.stringify(ui)}`, `view ui: ${JSON.stringify(view.ui)}`, `html: ${view.html.length} chars`, `result: ${JSON.stringify(result.content[0])}`];
}
