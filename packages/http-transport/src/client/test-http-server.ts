/**
 * A node:http server on 127.0.0.1 for the client's tests, one per test (excluded from the
 * build with every `test-*.ts`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

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

/** One server per test: `serve` starts it, `current` is the one running, and it is closed after each test. */
export interface ServerPerTest {
  serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string>;
  readonly current: TestHttpServer | undefined;
  /** Closes the running server now (before the test ends). */
  close(): Promise<void>;
}

/** Call at the top of a test file: registers the `afterEach` that closes the test's server. */
export function serverPerTest(): ServerPerTest {
  let current: TestHttpServer | undefined;
  const close = async (): Promise<void> => {
    await current?.close();
    current = undefined;
  };
  afterEach(close);
  return {
    async serve(handler) {
      current = await startTestHttpServer(handler);
      return current.url;
    },
    get current() {
      return current;
    },
    close,
  };
}
