// The client and protocol packages alone (any transport the app brings, here the in-memory one).
// Bundled for the browser platform; any Node built-in reached from here fails the check.
import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';

export async function connect(serverSide) {
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  await serverSide(serverTransport);
  const client = new Client({ name: 'browser-client', version: '1.0.0' });
  await client.connect(clientTransport);
  return client;
}
