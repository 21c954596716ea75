/**
 * A node:http server on 127.0.0.1 for the client's tests, one per test (excluded from the
 * build with every `test-*.ts`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestHttpServer {
  readonly server: Server;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** Cuts every connection and closes the server. Idempotent. */
  close(): Promise<void>;
}

export async function startTestHttpServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestHttpServer> {
  const server = createServer(handler);
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let closed: Promise<void> | undefined;
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get connections() {
      return connections;
    },
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}
