// MCP on the Edge runtime: stateless (an edge isolate keeps no session between requests);
// SSE answers with progress still stream.
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { createNextHandler } from '@statemcp/http-transport/next';
import { buildServer } from '../../../../lib/mcp-server';

export const runtime = 'edge';

const server = buildServer('nextjs-edge');
const mcp = createStreamableHttpServer({
  path: '/api/edge/mcp',
  stateless: true,
  allowedHosts: ['127.0.0.1', 'localhost'],
  connect: (transport) => server.connect(transport),
  onError: (error) => console.error('mcp (edge):', error),
});

export const { GET, POST, DELETE } = createNextHandler(mcp);
