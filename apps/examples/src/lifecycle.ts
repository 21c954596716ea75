/**
 * Watching the lifecycle: the `inspect` option receives every connection and request
 * transition; `client.state` and `client.session.pendingRequests()` read it at any moment.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport, type InspectEvent } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';

/** One line per connection or request transition. */
export function describe(event: InspectEvent): string | undefined {
  if (event.type === 'session.transition') return `connection ${event.from} → ${event.to} (${event.event})`;
  if (event.type === 'request.transition' && event.from !== event.to) {
    return `${event.direction} ${event.method} #${String(event.requestId)} ${event.from} → ${event.to}`;
  }
  return undefined;
}

/** Connects, pings and closes, printing the client's side of every transition. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const server = new McpServer({ name: 'lifecycle', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);

  const client = new Client(
    { name: 'lifecycle-client', version: '1.0.0' },
    {
      era: 'legacy',
      inspect: (event) => {
        const line = describe(event);
        if (line !== undefined) log(line);
      },
    },
  );
  log(`before connect: ${client.state.kind}`);
  await client.connect(clientSide);
  log(`after connect: ${client.state.kind}, protocol ${client.protocolVersion}`);
  await client.ping();
  log(`pending requests: ${client.session.pendingRequests().length}`);
  await client.close();
  log(`after close: ${client.state.kind}, reason ${(await client.closed).reason}`);
  await server.close();
}
