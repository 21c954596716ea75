// What a browser app imports: the client over Streamable HTTP. Bundled for the browser platform;
// any Node built-in reached from here fails the check.
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';

export async function connect(url) {
  const client = new Client({ name: 'browser-client', version: '1.0.0' });
  await client.connect(new StreamableHttpClientTransport(new URL(url)));
  return client;
}
