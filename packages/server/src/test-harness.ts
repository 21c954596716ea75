/**
 * Test helpers for this package (not part of the build): a raw client `Session` wired to a
 * server over the in-memory transport, recording every message it receives.
 */
import {
  InMemoryTransport,
  Session,
  SimulatedClock,
  type InitializeResultShape,
  type JsonObject,
  type RequestHandler,
  type SessionOptions,
} from '@statemcp/protocol';
import type { McpServer } from './mcp-server.js';
import type { Server } from './server.js';
import type { ServerConnection } from './server-connection.js';

export interface ClientOptions {
  readonly version?: string;
  readonly capabilities?: JsonObject;
  readonly handlers?: Readonly<Record<string, RequestHandler>>;
  readonly clock?: SimulatedClock;
  readonly session?: Partial<SessionOptions>;
}

export interface TestClient {
  readonly client: Session;
  readonly connection: ServerConnection;
  readonly clientTransport: InMemoryTransport;
  readonly serverTransport: InMemoryTransport;
  /** Every message the client received, in order. */
  readonly received: JsonObject[];
  /** Notifications received with `method`. */
  notifications(method: string): JsonObject[];
  /** Requests received with `method`. */
  requests(method: string): JsonObject[];
  initialize(): Promise<InitializeResultShape>;
}

/** Runs every pending microtask and one macrotask turn. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Connects a raw client session to `server` (not yet initialized). */
export async function connectClient(server: McpServer | Server, options: ClientOptions = {}): Promise<TestClient> {
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  const received: JsonObject[] = [];
  const client = new Session({
    role: 'client',
    clock: options.clock ?? new SimulatedClock(),
    capabilities: () => options.capabilities ?? {},
    inspect: (event) => {
      if (event.type === 'message.in') received.push(event.message as JsonObject);
    },
    ...options.session,
  });
  for (const [method, handler] of Object.entries(options.handlers ?? {})) client.setRequestHandler(method, handler);
  const connection = await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    connection,
    clientTransport,
    serverTransport,
    received,
    notifications: (method) => received.filter((m) => m.method === method && m.id === undefined),
    requests: (method) => received.filter((m) => m.method === method && m.id !== undefined),
    async initialize() {
      const result = await client.initialize({
        ...(options.version !== undefined ? { protocolVersion: options.version } : {}),
        capabilities: options.capabilities ?? {},
        clientInfo: { name: 'test-client', version: '1.0.0' },
      });
      await flush();
      return result;
    },
  };
}

/** Connects and initializes. */
export async function initializedClient(server: McpServer | Server, options: ClientOptions = {}): Promise<TestClient> {
  const test = await connectClient(server, options);
  await test.initialize();
  return test;
}
