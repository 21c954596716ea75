import { Client } from '@statemcp/client';
import { InMemoryTransport, Session, SimulatedClock } from '@statemcp/protocol';

/** A 2026-07-28 server whose tool list stays fresh for a minute; the client asks for it once. */
export async function main(log: (...parts: unknown[]) => void = console.log): Promise<void> {
  const clock = new SimulatedClock(); // a real client uses the system clock
  const server = new Session({ role: 'server', clock, capabilities: () => ({ tools: { listChanged: true } }) });
  let lists = 0;
  server.setRequestHandler('server/discover', () => ({
    resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: true } }, ttlMs: 0, cacheScope: 'public',
  }));
  server.setRequestHandler('tools/list', () => {
    lists++;
    return { resultType: 'complete', tools: [{ name: 'add', inputSchema: { type: 'object' } }], ttlMs: 60_000, cacheScope: 'public' };
  });
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);

  const client = new Client({ name: 'cache-example', version: '1.0.0' }, {
    era: 'auto',
    clock,
    // `private` results are reused only under the same key: e.g. a hash of the bearer token.
    cache: { maxEntries: 200, authContext: () => 'user-42', onEvent: (event) => log(`cache ${event.type} ${event.method}`) },
  });
  await client.connect(clientSide);
  await client.listTools(); // sent; the answer is kept for ttlMs
  await client.listTools(); // served from the cache
  clock.advance(60_000);
  await client.listTools(); // stale: sent again
  log(`tools/list sent ${lists} times; hits ${client.cacheStats?.hits}`);
  await client.close();
}
