// MCP on the Node.js runtime: sessions, a GET stream per session, and resumption with
// Last-Event-ID from the in-memory event store (one `next start` process keeps them).
import { createStreamableHttpServer, InMemoryEventStore } from '@statemcp/http-transport/server';
import { createNextHandler } from '@statemcp/http-transport/next';
import { buildServer } from '../../../lib/mcp-server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const server = buildServer('nextjs-node');
const mcp = createStreamableHttpServer({
  path: '/api/mcp',
  eventStore: new InMemoryEventStore(),
  // The names this app is reached by; add your deployment's (e.g. 'my-app.vercel.app').
  allowedHosts: ['127.0.0.1', 'localhost', ...(process.env.MCP_ALLOWED_HOSTS?.split(',') ?? [])],
  connect: (transport) => server.connect(transport),
});

export const { GET, POST, DELETE } = createNextHandler(mcp);
