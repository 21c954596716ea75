/**
 * Logging with pino: the server's own events (connections, requests, errors with their category
 * and code) go to a pino logger, and a handler's log lines go both there and to the client as
 * `notifications/message` — at the level the client chose (`logging/setLevel`; from 2026-07-28,
 * the request's `_meta["io.modelcontextprotocol/logLevel"]`). `@statemcp/server/logging` imports
 * no logger: `pinoSink` takes the pino instance you made.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { createServerLogging, pinoSink } from '@statemcp/server/logging';
import pino from 'pino';
import { z } from 'zod';

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // Any pino logger; this one writes its JSON lines to `log` (no time, no pid: steady output).
  const logger = pino({ base: null, timestamp: false }, { write: (line: string) => log(`pino ${line.trim()}`) });
  const logging = createServerLogging({ sink: pinoSink(logger), level: 'info', name: 'weather' });

  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.use(logging.middleware);
  server.registerTool('forecast', { inputSchema: { city: z.string() } }, async ({ city }, extra) => {
    const requestLog = logging.forRequest(extra);
    await requestLog.info('looking up the forecast', { city });
    if (city === 'Atlantis') {
      await requestLog.warning('no station there', { city });
      return { content: [{ type: 'text', text: 'No data' }], isError: true };
    }
    return { content: [{ type: 'text', text: `Sunny in ${city}` }] };
  });

  const client = new Client({ name: 'planner', version: '1.0.0' }, { era: 'legacy' });
  client.onLoggingMessage((message) => log(`client got ${message.level}: ${JSON.stringify(message.data)}`));
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  await client.setLoggingLevel('warning'); // this client wants warnings and worse
  await client.callTool({ name: 'forecast', arguments: { city: 'Lisbon' } });
  await client.callTool({ name: 'forecast', arguments: { city: 'Atlantis' } });
  await client.close();
  await server.close();
  logging.close();
}
