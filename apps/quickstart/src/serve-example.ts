/**
 * Entry point of the example server child: `serve-example.ts --stdio | --http`.
 * Over HTTP it binds 127.0.0.1 on a free port, prints `listening on <url>` and stops on SIGTERM.
 */
import { createStreamableHttpServer, InMemoryEventStore } from '@statemcp/http-transport/server';
import { StdioServerTransport } from '@statemcp/stdio-transport';
import { createExampleServer, traceLine } from './example-server.js';

const server = createExampleServer((event) => {
  if (event.type === 'session.transition' || event.type === 'request.transition') process.stderr.write(traceLine(event));
});

if (process.argv.includes('--stdio')) {
  // Exits by itself when the client closes stdin.
  await server.connect(new StdioServerTransport());
} else if (process.argv.includes('--http')) {
  const mcp = createStreamableHttpServer({
    path: '/mcp',
    eventStore: new InMemoryEventStore(),
    connect: (transport) => server.connect(transport),
  });
  const listening = await mcp.listen({ port: 0 });
  process.stdout.write(`listening on ${listening.url.href}\n`);
  process.once('SIGTERM', () => {
    void listening.close().finally(() => process.exit(0));
  });
} else {
  process.stderr.write('usage: serve-example.ts --stdio | --http\n');
  process.exitCode = 2;
}
