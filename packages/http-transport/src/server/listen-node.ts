/**
 * `listen()` of the Streamable HTTP server: a `node:http` server around `handleNodeRequest`,
 * bound to 127.0.0.1 unless told otherwise. A non-loopback bind needs `allowedHosts` (DNS
 * rebinding; see `host-guard.ts`): without them it is refused before anything listens.
 */
import type { AddressInfo } from 'node:net';
import { requireAllowedHostsFor } from './host-guard.js';
import type { ListeningServer, StreamableHttpServer, StreamableHttpServerOptions } from './server-options.js';
import { nodeHttp } from './server-setup.js';

/** Starts a node:http server for `server` on `host:port` (127.0.0.1 and a free port by default). */
export async function listenNode(
  server: StreamableHttpServer,
  options: StreamableHttpServerOptions,
  { port = 0, host = '127.0.0.1' }: { port?: number; host?: string } = {},
): Promise<ListeningServer> {
  requireAllowedHostsFor(host, options, `listen({ host: ${JSON.stringify(host)} })`);
  const http = nodeHttp().createServer((req, res) => {
    void server.handleNodeRequest(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  return {
    server: http,
    port: address.port,
    url: new URL(`http://${urlHost}:${address.port}${options.path ?? '/mcp'}`),
    close: async () => {
      await server.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
